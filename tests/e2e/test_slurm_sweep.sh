#!/usr/bin/env bash
# slurm/sweep.sbatch as job arrays: 4 tasks over seeds (one output directory and one %A_%a SLURM output per
# task, each run with its own seed) followed by the aggregation step, a job that depends on the array (afterok),
# and 2 tasks over job files listed in a file.
source "$(dirname "$0")/test_slurm_lib.sh"

tiny_job >"$SUBMIT/job.toml"
mkdir -p "$SUBMIT/jobs"
tiny_job | sed 's/^seed = 3/seed = 11/' >"$SUBMIT/jobs/first.toml"
tiny_job | sed 's/^seed = 3/seed = 12/' >"$SUBMIT/jobs/second.toml"
printf '# one job file per array task\njobs/first.toml\n\njobs/second.toml\n' >"$SUBMIT/list.txt"

submit_wait 110 --array=1-4 --ntasks="$NTASKS" --job-name=seeds "$ROOT/slurm/sweep.sbatch" job.toml --out seeds \
  --quiet >"$WORK/sbatch-seeds" 2>&1 &
seeds_pid=$!
submit_wait 110 --array=0-1 --ntasks="$NTASKS" --job-name=files "$ROOT/slurm/sweep.sbatch" --jobs list.txt \
  --out files --quiet >"$WORK/sbatch-files" 2>&1 &
files_pid=$!

# The aggregation step is submitted while the array runs; afterok holds it until every task has succeeded.
for _ in $(seq 1 60); do
  array=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$WORK/sbatch-seeds")
  [ -n "$array" ] && break
  sleep 0.5
done
[ -n "$array" ] && ok || fail "no job id of the seed array: $(cat "$WORK/sbatch-seeds")"
submit_wait 150 --dependency="afterok:$array" --output=aggregate-%j.out --job-name=aggregate \
  "$ROOT/slurm/sweep.sbatch" --aggregate job.toml --out seeds >"$WORK/sbatch-aggregate" 2>&1 &
aggregate_pid=$!

wait "$seeds_pid"
code=$?
[ "$code" -eq 0 ] && ok || fail "sbatch --wait of the seed array returned $code: $(cat "$WORK/sbatch-seeds")"
array=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' "$WORK/sbatch-seeds")
for seed in 1 2 3 4; do
  dir="$SUBMIT/seeds/seed-$seed"
  [ -s "$dir/result.h5" ] && ok || fail "task $seed: no result.h5"
  grep -q "\"seed\": $seed," "$dir/run.json" 2>/dev/null && ok || fail "task $seed: run.json does not say seed $seed"
  grep -q "\"ranks\": $NTASKS," "$dir/run.json" 2>/dev/null && ok || fail "task $seed: not $NTASKS rank(s)"
  out="$SUBMIT/banditfs-sweep-${array}_$seed.out"
  grep -q "done: seeds/seed-$seed/result.h5" "$out" 2>/dev/null && ok || fail "task $seed: no %A_%a output $out"
done
result=$(compare_datasets "$SUBMIT/seeds/seed-1/result.h5" "$SUBMIT/seeds/seed-2/result.h5" 2>&1)
[ "$result" != same ] && ok || fail "seeds 1 and 2 gave identical results"

wait "$aggregate_pid"
code=$?
[ "$code" -eq 0 ] && ok || fail "sbatch --wait of the aggregation returned $code: $(cat "$WORK/sbatch-aggregate")"
S="$SUBMIT/seeds"
result=$(/usr/bin/python3 "$ROOT/tests/e2e/aggregate_check.py" 0.5 "$S/aggregate" "$S/seed-1" "$S/seed-2" "$S/seed-3" \
  "$S/seed-4" 2>&1)
[ "$result" = ok ] && ok || fail "the aggregation step's result differs from numpy: $result"

wait "$files_pid"
code=$?
[ "$code" -eq 0 ] && ok || fail "sbatch --wait of the job-file array returned $code: $(cat "$WORK/sbatch-files")"
for pair in first:11 second:12; do
  name=${pair%:*}
  grep -q "\"seed\": ${pair#*:}," "$SUBMIT/files/$name/run.json" 2>/dev/null && ok || fail "job file $name did not run"
done

[ "$FAILED" -eq 0 ] || show_outputs
finish
