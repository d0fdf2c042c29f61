#!/usr/bin/env bash
# `banditfs aggregate`: three seeds of a tiny bandit job summarized, checked against an independent numpy
# computation (aggregate_check.py); the result does not depend on the order of the runs; bad input is refused
# with a message naming the file or key, exit != 0, and nothing written.
source "$(dirname "$0")/lib.sh"
CHECK="$ROOT/tests/e2e/aggregate_check.py"

tiny_job >"$WORK/job.toml"
for seed in 1 2 3; do
  "$BANDITFS" run "$WORK/job.toml" --quiet --set run.seed=$seed --out "$WORK/seeds/seed-$seed" >/dev/null 2>&1 ||
    fail "run of seed $seed failed"
done
S="$WORK/seeds"

"$BANDITFS" aggregate "$S/seed-1" "$S/seed-2" "$S/seed-3" --out "$WORK/agg" >"$WORK/agg.out" 2>&1 ||
  fail "aggregate failed: $(cat "$WORK/agg.out")"
for f in result.h5 summary.csv run.json; do [ -s "$WORK/agg/$f" ] && ok || fail "aggregate: missing $f"; done
result=$(/usr/bin/python3 "$CHECK" 0.5 "$WORK/agg" "$S/seed-1" "$S/seed-2" "$S/seed-3" 2>&1)
[ "$result" = ok ] && ok || fail "aggregate differs from numpy: $result"
grep -q "stability     3 runs" "$WORK/agg.out" && ok || fail "aggregate did not print the summary: $(cat "$WORK/agg.out")"
/usr/bin/python3 -c "
import json; j = json.load(open('$WORK/agg/run.json'))
assert j['stability']['runs'] == 3 and j['stability']['threshold'] == 0.5, j['stability']
assert [s['seed'] for s in j['stability']['sources']] == [1, 2, 3], j['stability']['sources']
assert j['iterations'] == 3 and j['method'] == 'bandit', j
" && ok || fail "aggregate run.json"

# The order of the runs does not matter (they are summarized in seed order); another threshold selects by it.
"$BANDITFS" aggregate "$S/seed-3/result.h5" "$S/seed-1" "$S/seed-2" --out "$WORK/agg-order" >/dev/null 2>&1 ||
  fail "aggregate in another order failed"
[ "$(compare_datasets "$WORK/agg/result.h5" "$WORK/agg-order/result.h5")" = same ] && ok ||
  fail "the order of the runs changed the aggregate"
"$BANDITFS" aggregate "$S/seed-1" "$S/seed-2" "$S/seed-3" --threshold 0.9 --out "$WORK/agg-09" >/dev/null 2>&1 ||
  fail "aggregate --threshold 0.9 failed"
result=$(/usr/bin/python3 "$CHECK" 0.9 "$WORK/agg-09" "$S/seed-1" "$S/seed-2" "$S/seed-3" 2>&1)
[ "$result" = ok ] && ok || fail "aggregate --threshold 0.9 differs from numpy: $result"
# inspect reads an aggregate; the aggregation step run again replaces its own aggregate without --force.
"$BANDITFS" inspect "$WORK/agg" | grep -q "frequency" && ok || fail "inspect of an aggregate"
"$BANDITFS" aggregate "$S/seed-1" "$S/seed-2" --out "$WORK/agg" >/dev/null 2>&1 && ok ||
  fail "the same job's aggregate was not replaced"

# run.interval sets the level of the bandit's credible interval (scipy's Beta quantiles); bounds (0, 1).
"$BANDITFS" run "$WORK/job.toml" --quiet --set run.interval=0.5 --out "$WORK/half" >/dev/null 2>&1 ||
  fail "run with run.interval = 0.5 failed"
/usr/bin/python3 - "$WORK/half/result.h5" <<'PYEOF' && ok || fail "run.interval = 0.5: importance_lo/hi are not the quartiles"
import sys, h5py, numpy as np
from scipy.stats import beta
f = h5py.File(sys.argv[1], "r")
a, b = f["bandit/alpha"][()], f["bandit/beta"][()]
assert f.attrs["interval"] == 0.5
assert np.allclose(f["importance_lo"][()], beta.ppf(0.25, a, b), rtol=1e-12, atol=0)
assert np.allclose(f["importance_hi"][()], beta.ppf(0.75, a, b), rtol=1e-12, atol=0)
PYEOF
expect_error interval "run.interval = 1 is out of range" -- \
  "$BANDITFS" run "$WORK/job.toml" --quiet --set run.interval=1 --out "$WORK/out-interval"

# Bad input.
"$BANDITFS" run "$WORK/job.toml" --quiet --set run.seed=4 --set bandit.iterations=6 --out "$S/other" >/dev/null 2>&1 ||
  fail "run of the other job failed"
expect_error one "at least 2 runs" -- "$BANDITFS" aggregate "$S/seed-1" --out "$WORK/out-one"
mkdir -p "$WORK/empty"
expect_error missing "$WORK/empty/result.h5' does not exist" -- \
  "$BANDITFS" aggregate "$S/seed-1" "$WORK/empty" --out "$WORK/out-missing"
expect_error mixed "bandit.iterations (" -- "$BANDITFS" aggregate "$S/seed-1" "$S/other" --out "$WORK/out-mixed"
expect_error twice "both have seed 1" -- "$BANDITFS" aggregate "$S/seed-1" "$S/seed-1/result.h5" --out "$WORK/out-twice"
expect_error threshold "must be in (0, 1]" -- \
  "$BANDITFS" aggregate "$S/seed-1" "$S/seed-2" --threshold 0 --out "$WORK/out-threshold"
expect_error nested "is itself a summary of" -- "$BANDITFS" aggregate "$WORK/agg" "$S/seed-3" --out "$WORK/out-nested"
expect_error into-a-run "one of the runs aggregated" -- \
  "$BANDITFS" aggregate "$S/seed-1" "$S/seed-2" --out "$S/seed-2"
# A single run's result is not replaced without --force (and stays as it was).
before=$(sha256sum <"$S/other/result.h5")
err=$("$BANDITFS" aggregate "$S/seed-1" "$S/seed-2" --out "$S/other" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "holds the result of a single run; replace it with --force" <<<"$err" && ok ||
  fail "a run's result was replaced without --force: $err"
[ "$(sha256sum <"$S/other/result.h5")" = "$before" ] && ok || fail "the refused aggregate changed $S/other/result.h5"
"$BANDITFS" aggregate "$S/seed-1" "$S/seed-2" --out "$S/other" --force >/dev/null 2>&1 && ok || fail "--force"

finish
