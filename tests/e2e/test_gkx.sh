#!/usr/bin/env bash
# End to end at toy scale: simulate gkx-like (GKX-style CSVs + truth) → prepare-gkx (HDF5 panel) → an online
# run of jobs/empirical/gkx_like_small.toml, single process and under mpirun with 2 ranks (same datasets); and
# prepare-gkx refuses a malformed characteristics file with one clear line and leaves no panel behind.
source "$(dirname "$0")/lib.sh"
data="$WORK/data"
"$BANDITFS" simulate gkx-like --out "$data" --months 3 --stocks 300 --seed 1 >/dev/null 2>"$WORK/err" ||
  fail "simulate gkx-like failed: $(cat "$WORK/err")"
for f in characteristics.csv returns.csv riskfree.csv truth.json; do
  [ -s "$data/$f" ] && ok || fail "simulate gkx-like wrote no $f"
done
"$BANDITFS" prepare-gkx --characteristics "$data/characteristics.csv" --returns "$data/returns.csv" \
  --riskfree "$data/riskfree.csv" --from 2010-01 --to 2010-03 --truth "$data/truth.json" --out "$WORK/panel.h5" \
  >"$WORK/report" 2>"$WORK/err" ||
  fail "prepare-gkx failed: $(cat "$WORK/err")"
# The stand-in is the standard vintage (the datashare file's 94 names): prepare-gkx has nothing to warn about.
grep -q "warning" "$WORK/err" && fail "prepare-gkx warned on the stand-in: $(cat "$WORK/err")" || ok
periods=$(/usr/bin/python3 -c 'import sys,h5py; f=h5py.File(sys.argv[1]); print(len(f["period_offsets"])-1, f["X"].shape[1] >= 95)' "$WORK/panel.h5")
[ "$periods" = "3 True" ] && ok || fail "the panel should have 3 months and ≥ 95 features, got: $periods"
truth=$(/usr/bin/python3 -c '
import sys, json, h5py
f = h5py.File(sys.argv[1]); names = [n.decode() if isinstance(n, bytes) else n for n in f["feature_names"][()]]
print(sorted(names[i] for i in f["truth"][()]) == sorted(json.load(open(sys.argv[2]))["planted"]))' "$WORK/panel.h5" "$data/truth.json")
[ "$truth" = True ] && ok || fail "/truth does not name the planted features of truth.json"

"$BANDITFS" run "$ROOT/jobs/empirical/gkx_like_small.toml" --quiet --set "data.path=\"$WORK/panel.h5\"" \
  --out "$WORK/run" >/dev/null 2>"$WORK/err" || fail "the small study run failed: $(cat "$WORK/err")"
iterations=$(h5dump -a iterations "$WORK/run/result.h5" 2>/dev/null | sed -n 's/.*(0): *\([0-9]*\).*/\1/p')
[ "$iterations" = 6 ] && ok || fail "expected 6 iterations (3 months × 2), got '$iterations'"
grep -q '"mom1m"' "$WORK/run/run.json" || grep -q 'mom1m' "$WORK/run/summary.csv" && ok || fail "no characteristic names in the outputs"
grep -q 'noise50' "$WORK/run/summary.csv" && ok || fail "the 50 noise columns are missing from summary.csv"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
OMP_NUM_THREADS=1 timeout 300 mpirun -n 2 "$BANDITFS" run "$ROOT/jobs/empirical/gkx_like_small.toml" --quiet \
  --set "data.path=\"$WORK/panel.h5\"" --out "$WORK/run-mpi" >/dev/null 2>"$WORK/err" || fail "2-rank run failed: $(cat "$WORK/err")"
result=$(compare_datasets "$WORK/run/result.h5" "$WORK/run-mpi/result.h5")
[ "$result" = same ] && ok || fail "2 ranks differ from one process: $result"

# A non-numeric characteristic is refused with file:line and the column; no panel or temp file is left.
head -3 "$data/characteristics.csv" >"$WORK/bad.csv"
sed -n 4p "$data/characteristics.csv" | awk -F, 'BEGIN{OFS=","} {$5="abc"; print}' >>"$WORK/bad.csv"
err=$("$BANDITFS" prepare-gkx --characteristics "$WORK/bad.csv" --returns "$data/returns.csv" \
  --riskfree "$data/riskfree.csv" --from 2010-01 --to 2010-03 --out "$WORK/bad.h5" 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "bad.csv:4" <<<"$err" && grep -q "abc" <<<"$err" && ok || fail "malformed CSV not refused clearly: $err"
ls "$WORK"/bad.h5* >/dev/null 2>&1 && fail "a refused preparation left output behind" || ok
finish
