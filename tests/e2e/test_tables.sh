#!/usr/bin/env bash
# A table as a user's CSV comes (README, the data section): empty, NA and nan cells, a text column, a date column
# left out with data.exclude, and a text label with empty cells (binary, positive_label = "up"). Each (X, y)
# method runs on it and reports one row per original column, under its own name (the text column once, not per
# level); the rows without a label are dropped and counted; x1 and color, which make y, lead x2 and x3, which do not.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
CSV="$WORK/table.csv"
$PY "$(dirname "$0")/tables_csv.py" "$CSV" --rows 240 --seed 1

data_section() {
  printf '[data]\nsource = "csv"\npath = "%s"\ntarget = "y"\ntask = "binary"\npositive_label = "up"\nexclude = ["date"]\n%s\n' \
    "$CSV" "${1:-}"
}
bandit_job() {
  printf '%s\n[estimator]\nname = "hgb"\nn_estimators = 30\nmin_samples_leaf = 10\nvalidation_fraction = 0\n' \
    "$(data_section "${1:-}")"
  printf '[reward]\nrule = "absolute"\nthreshold = 0.01\nmetric = "auc"\nnull = "shadow"\n[bandit]\niterations = 40\n'
  printf '[run]\nseed = 2\n'
}
first_job() { printf '[method]\nname = "first"\n%s\n[run]\nseed = 2\n' "$(data_section "${1:-}")"; }
fuse_job() {
  printf '[method]\nname = "fuse"\niterations = 600\nreward_subsample = 40\nbatch = 4\ntop = 2\n%s\n[run]\nseed = 2\n' \
    "$(data_section "${1:-}")"
}

# check_result NAME: one row per feature (x1, x2, x3, color; no date, no y) in summary.csv and result.h5; x1 and color
# rank 1 and 2; run.json counts the 6 rows without a label and each feature's missing cells (x1 12, x2 10, color 8).
check_result() {
  $PY - "$WORK/out-$1" <<'PYEOF'
import csv, json, sys, h5py
out = sys.argv[1]
rows = list(csv.DictReader(open(f"{out}/summary.csv")))
names = [r["name"] for r in rows]
assert sorted(names) == ["color", "x1", "x2", "x3"], f"summary.csv names: {names}"
with h5py.File(f"{out}/result.h5", "r") as f:
    h5names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["feature_names"][()]]
    assert h5names == ["x1", "x2", "x3", "color"], f"result.h5 feature_names: {h5names}"
    assert f["importance"].shape == (4,) and sorted(f["rank"][()]) == [1, 2, 3, 4]
rank = {r["name"]: int(r["rank"]) for r in rows}
assert {rank["x1"], rank["color"]} == {1, 2}, f"ranks: {rank}"
missing = {r["name"]: int(r["missing"]) for r in rows}
assert missing == {"x1": 12, "x2": 10, "x3": 0, "color": 8}, f"summary.csv missing: {missing}"
run = json.load(open(f"{out}/run.json"))
assert run["rows_without_target"] == 6, f"run.json rows_without_target: {run.get('rows_without_target')}"
assert {m["name"]: m["missing"] for m in run["missing"]} == missing, f"run.json missing: {run['missing']}"
PYEOF
}

for method in bandit first fuse; do
  if run_job "$method" "$("${method}_job")" >/dev/null 2>"$WORK/$method.err"; then
    ok
    check_result "$method" 2>"$WORK/$method.check" && ok || fail "$method: $(cat "$WORK/$method.check")"
  else
    fail "$method on the table: $(cat "$WORK/$method.err")"
  fi
done

# The same job twice gives the same bytes (every draw from the seed, the table's encoding included).
run_job bandit_again "$(bandit_job)" >/dev/null 2>&1 && ok || fail "bandit again"
same=$(compare_datasets "$WORK/out-bandit/result.h5" "$WORK/out-bandit_again/result.h5")
[ "$same" = same ] && ok || fail "bandit twice: $same"

# data.missing = "error" refuses the table, naming a column with missing cells and how many.
for method in bandit first fuse; do
  expect_error "${method}_missing_error" "column 'y' has 6 missing values" -- run_job "${method}_missing_error" "$("${method}_job" 'missing = "error"')"
done

finish
