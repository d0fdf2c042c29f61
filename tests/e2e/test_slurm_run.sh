#!/usr/bin/env bash
# slurm/banditfs.sbatch submitted with `sbatch --wait` to a local SLURM: a run of $NTASKS task(s) completes with
# the same result.h5 datasets as a direct run; the output directory comes from --out or from the job file's
# run.out; a missing job file makes the job fail; slurm/empirical-study.sbatch runs a job file ($BANDITFS_JOB) on
# the panel given as its argument.
source "$(dirname "$0")/test_slurm_lib.sh"

tiny_job >"$SUBMIT/job.toml"
{ tiny_job; echo 'out = "from-job-file"'; } >"$SUBMIT/job-out.toml"  # appended to [run]
"$BANDITFS" run "$SUBMIT/job.toml" --quiet --out "$WORK/direct" --set run.threads=1 >/dev/null 2>&1 || fail "direct run failed"

# The empirical-study script on a stand-in: a small simulated panel and an HDF5 job whose data.path is wrong.
"$BANDITFS" simulate friedman1 --n 120 --p 20 --seed 1 --out "$SUBMIT/panel.h5" >/dev/null 2>&1 || fail "simulate failed"
tiny_job | sed 's/^source = "simulate"/source = "hdf5"\npath = "not-the-panel.h5"/; /^dgp\|^n = \|^p = /d' \
  >"$SUBMIT/study.toml"

# Four jobs at once: the run, a run whose output directory comes from the job file, a missing job file, the study.
submit_wait 100 --ntasks="$NTASKS" --job-name=run "$ROOT/slurm/banditfs.sbatch" job.toml --out out --quiet \
  >"$WORK/sbatch-run" 2>&1 &
run_pid=$!
submit_wait 100 --ntasks=1 --job-name=runout "$ROOT/slurm/banditfs.sbatch" job-out.toml --quiet \
  >"$WORK/sbatch-runout" 2>&1 &
out_pid=$!
submit_wait 100 --ntasks=1 --job-name=missing "$ROOT/slurm/banditfs.sbatch" no-such-job.toml \
  >"$WORK/sbatch-missing" 2>&1 &
missing_pid=$!

BANDITFS_JOB="$SUBMIT/study.toml" submit_wait 100 --ntasks="$NTASKS" --job-name=study \
  "$ROOT/slurm/empirical-study.sbatch" panel.h5 --out study --quiet >"$WORK/sbatch-study" 2>&1 &
study_pid=$!

wait "$run_pid"
code=$?
[ "$code" -eq 0 ] && ok || fail "sbatch --wait of the run returned $code: $(cat "$WORK/sbatch-run")"
job=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$WORK/sbatch-run")
[ "$(job_field "$job" JobState)" = COMPLETED ] && ok || fail "job $job state: $(job_field "$job" JobState)"
[ -s "$SUBMIT/banditfs-run-$job.out" ] && ok || fail "no SLURM output file banditfs-run-$job.out"
grep -q "done: out/result.h5" "$SUBMIT/banditfs-run-$job.out" && ok || fail "the job's output does not say done"
for f in result.h5 summary.csv run.json banditfs.log; do
  [ -s "$SUBMIT/out/$f" ] && ok || fail "no out/$f"
done
grep -q "\"ranks\": $NTASKS," "$SUBMIT/out/run.json" && ok || fail "run.json does not say $NTASKS rank(s)"
result=$(compare_datasets "$WORK/direct/result.h5" "$SUBMIT/out/result.h5" 2>&1)
[ "$result" = same ] && ok || fail "the SLURM run's result differs from the direct run's: $result"

wait "$out_pid"
code=$?
[ "$code" -eq 0 ] && [ -s "$SUBMIT/from-job-file/result.h5" ] && ok ||
  fail "run.out of the job file was not used (sbatch code $code)"

wait "$missing_pid"
code=$?
[ "$code" -ne 0 ] && ok || fail "a missing job file did not fail the job"

wait "$study_pid"
code=$?
[ "$code" -eq 0 ] && [ -s "$SUBMIT/study/result.h5" ] && ok || fail "the study script failed (sbatch code $code)"
grep -q "\"data_origin\": \"panel.h5 " "$SUBMIT/study/run.json" 2>/dev/null && ok || fail "the study did not read panel.h5"

[ "$FAILED" -eq 0 ] || show_outputs
finish
