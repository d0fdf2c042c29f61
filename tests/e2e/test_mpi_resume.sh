#!/usr/bin/env bash
# A 2-rank run killed with SIGKILL (mpirun and every rank at once) at five different points resumes from its
# last checkpoint to a result.h5 whose datasets equal an uninterrupted run's, bit for bit.
source "$(dirname "$0")/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
ROUNDS=120
# ~0.1 s a round at 2 ranks (400 trees); the last kill point (50) leaves 70 rounds of margin, so the run cannot finish
# before the kill even on a loaded machine (with 60 rounds it did under load average 8), fast enough
# for CI.
tiny_job | sed "s/^iterations = 8/iterations = $ROUNDS/; s/^n = 120/n = 300/; s/n_estimators = 20/n_estimators = 400/;
               s/max_depth = 5/max_depth = 8/" >"$WORK/job.toml"
printf 'checkpoint_every = 1\n' >>"$WORK/job.toml"
timeout 300 mpirun -n 2 "$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/whole" >/dev/null 2>&1 ||
  fail "uninterrupted 2-rank run failed"

checkpoint_round() {  # the round of the checkpoint in $1, 0 if none
  local n
  n=$(h5dump -a iterations "$1" 2>/dev/null | sed -n 's/.*(0): *\([0-9]*\).*/\1/p')
  echo "${n:-0}"
}
for point in 3 12 24 36 50; do
  out="$WORK/cut-$point"
  setsid timeout 300 mpirun -n 2 "$BANDITFS" run "$WORK/job.toml" --quiet --out "$out" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 600); do
    [ -s "$out/checkpoint.h5" ] && [ "$(checkpoint_round "$out/checkpoint.h5")" -ge "$point" ] && break
    [ -e "$out/result.h5" ] && break
    sleep 0.02
  done
  kill -KILL -- "-$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  # mpirun may start ranks outside its process group; a killed job is one with no process left (as SLURM ensures),
  # so that no orphaned rank can still touch the checkpoint while the resumed run reads it.
  for _ in $(seq 100); do
    pkill -KILL -f -- "--out $out" 2>/dev/null || break
    sleep 0.05
  done
  pgrep -f -- "--out $out" >/dev/null && fail "point $point: processes of the killed run are still alive"
  if [ -e "$out/result.h5" ]; then
    fail "point $point: the run finished before it could be killed (make the job slower)"
    continue
  fi
  reached=$(checkpoint_round "$out/checkpoint.h5")
  [ "$reached" -ge "$point" ] && [ "$reached" -lt "$ROUNDS" ] && ok || fail "point $point: checkpoint at round $reached"
  timeout 300 mpirun -n 2 "$BANDITFS" run "$WORK/job.toml" --quiet --out "$out" --resume >/dev/null 2>"$WORK/err" ||
    { fail "point $point: resume failed: $(tail -5 "$WORK/err")"; continue; }
  result=$(compare_datasets "$WORK/whole/result.h5" "$out/result.h5")
  [ "$result" = same ] && ok || fail "point $point (checkpoint round $reached): resumed result differs: $result"
done

# FIRST at 2 ranks: SIGUSR1 to mpirun (which forwards it to both ranks, as srun does SIGTERM; rank 0
# decides the stop and broadcasts it) ends the run after a forward step with a checkpoint and exit 0; the resume,
# at 2 ranks and at 1, equals the uninterrupted run.
"$BANDITFS" simulate friedman-mod --n 2500 --p 300 --rho 0.5 --seed 4 --out "$WORK/first.h5" >/dev/null
printf '[method]\nname = "first"\n[data]\nsource = "hdf5"\npath = "%s"\n[run]\nseed = 9\ncheckpoint_every = 1\n' \
  "$WORK/first.h5" >"$WORK/first.toml"
timeout 300 mpirun -n 2 "$BANDITFS" run "$WORK/first.toml" --quiet --out "$WORK/first-whole" >/dev/null 2>&1 ||
  fail "FIRST: uninterrupted 2-rank run failed"
for resume_ranks in 2 1; do
  out="$WORK/first-cut-$resume_ranks"
  mpirun -n 2 "$BANDITFS" run "$WORK/first.toml" --quiet --out "$out" >/dev/null 2>&1 &  # mpirun itself gets the signal
  pid=$!
  for _ in $(seq 600); do [ -s "$out/checkpoint.h5" ] && break; sleep 0.05; done
  kill -USR1 "$pid"
  wait "$pid"
  code=$?
  [ "$code" -eq 0 ] && ok || fail "FIRST: SIGUSR1 at 2 ranks: exit code $code"
  if [ -e "$out/result.h5" ]; then
    echo "note: FIRST finished before SIGUSR1; its result is compared" >&2
  else
    grep -q "interrupted after forward step" "$out/banditfs.log" && ok || fail "FIRST: the log does not say it stopped"
    timeout 300 mpirun -n "$resume_ranks" "$BANDITFS" run "$WORK/first.toml" --quiet --out "$out" --resume \
      >/dev/null 2>"$WORK/err" || fail "FIRST: resume at $resume_ranks rank(s) failed: $(tail -5 "$WORK/err")"
  fi
  result=$(compare_datasets "$WORK/first-whole/result.h5" "$out/result.h5")
  [ "$result" = same ] && ok || fail "FIRST: resumed at $resume_ranks rank(s), the result differs: $result"
done
finish
