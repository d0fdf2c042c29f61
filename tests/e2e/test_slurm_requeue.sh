#!/usr/bin/env bash
# slurm/banditfs.sbatch with checkpoint + requeue: USR1 to the batch shell (as SLURM sends it before the time
# limit, here at once with `scancel --signal=USR1 --batch`) makes the run checkpoint and the job requeue itself;
# the second start resumes and completes with result.h5 datasets identical to an uninterrupted run.
source "$(dirname "$0")/test_slurm_lib.sh"

# Long enough (over a thousand rounds) that the signal arrives mid-run; the interrupted run stops at once.
tiny_job | sed 's/^iterations = 8/iterations = 1500/; s/n_estimators = 20/n_estimators = 30/' >"$SUBMIT/job.toml"

submit_wait 110 --ntasks="$NTASKS" --job-name=requeue "$ROOT/slurm/banditfs.sbatch" job.toml --out out --quiet \
  >"$WORK/sbatch" 2>&1 &
sbatch_pid=$!

# The uninterrupted reference, directly, in the background meanwhile.
"$BANDITFS" run "$SUBMIT/job.toml" --quiet --out "$WORK/whole" --set run.threads=1 >/dev/null 2>&1 &
whole_pid=$!

job=""
for _ in $(seq 100); do
  job=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$WORK/sbatch")
  [ -n "$job" ] && break
  sleep 0.1
done
# Signal once the run has started (its log names the method: the signal handlers are installed).
for _ in $(seq 600); do grep -q " method " "$SUBMIT/out/banditfs.log" 2>/dev/null && break; sleep 0.1; done
sleep 0.3
if [ -n "$job" ] && scancel --signal=USR1 --batch "$job"; then ok; else fail "could not signal job '$job'"; fi

# The job checkpoints and requeues itself: it waits (BeginTime, ~2 min) unless told to start now.
requeued=""
for _ in $(seq 600); do
  if [ "$(job_field "$job" JobState)" = PENDING ] && [ "$(job_field "$job" Restarts)" = 1 ]; then requeued=yes; break; fi
  [ -s "$SUBMIT/out/result.h5" ] && break
  sleep 0.1
done
if [ -n "$requeued" ]; then
  ok
  [ -s "$SUBMIT/out/checkpoint.h5" ] && ok || fail "requeued without a checkpoint"
  [ ! -e "$SUBMIT/out/result.h5" ] && ok || fail "the interrupted run wrote result.h5"
  # Not at once: slurmd revokes the first start's credential with one-second resolution, and a restart within
  # the same second is killed ("Job credential revoked"). SLURM's own ~2 min hold avoids this on clusters.
  sleep 2
  scontrol update JobId="$job" StartTime=now || fail "could not release the requeued job"
else
  fail "job $job was not requeued (state $(job_field "$job" JobState), restarts $(job_field "$job" Restarts))"
fi

wait "$sbatch_pid"
code=$?
[ "$code" -eq 0 ] && ok || fail "sbatch --wait returned $code: $(cat "$WORK/sbatch")"
[ "$(job_field "$job" JobState)" = COMPLETED ] && ok || fail "job $job state: $(job_field "$job" JobState)"
[ "$(job_field "$job" Restarts)" = 1 ] && ok || fail "job $job restarts: $(job_field "$job" Restarts)"
log="$SUBMIT/banditfs-requeue-$job.out"
grep -q "requeueing job $job" "$log" && ok || fail "the first start did not requeue"
grep -q "resuming from out/checkpoint.h5" "$log" && ok || fail "the second start did not resume"
grep -q "done: out/result.h5" "$log" && ok || fail "the second start did not finish"
wait "$whole_pid" && ok || fail "uninterrupted run failed"
result=$(compare_datasets "$WORK/whole/result.h5" "$SUBMIT/out/result.h5" 2>&1)
[ "$result" = same ] && ok || fail "requeued result differs from the uninterrupted one: $result"
[ ! -e "$SUBMIT/out/checkpoint.h5" ] && ok || fail "the checkpoint should be removed once result.h5 is written"

[ "$FAILED" -eq 0 ] || show_outputs
finish
