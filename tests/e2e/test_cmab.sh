#!/usr/bin/env bash
# Method cmab-scores ([CMAB]) end to end: `simulate cmab-hte` to HDF5 and CSV, runs on the simulated
# source, the HDF5 log and the CSV log (the same log ⇒ the same scores), result.h5's /cmab datasets, summary.csv's
# columns, inspect, the design's signal (x1..x5 lead), and every bad input of the specification: one message naming the
# file/key/row/value, exit ≠ 0, no result.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

cmab_job() {  # cmab_job DATA-LINES [METHOD-LINES]
  printf '[method]\nname = "cmab-scores"\n%s\n[data]\n%s\n[run]\nseed = 5\n' "${2:-}" "$1"
}

"$BANDITFS" simulate cmab-hte --n 20000 --seed 5 --out "$WORK/log.h5" >/dev/null && ok || fail "simulate to HDF5"
"$BANDITFS" simulate cmab-hte --n 20000 --seed 5 --out "$WORK/log.csv" >/dev/null && ok || fail "simulate to CSV"
[ ! -e "$WORK/log.h5.tmp" ] && [ ! -e "$WORK/log.csv.tmp" ] && ok || fail "simulate left a .tmp"
# A failed rewrite (a full disk: a file-size limit of 64 KiB, SIGXFSZ ignored) exits 1 naming the file and leaves the
# previous log byte-identical, with no .tmp beside it.
for f in log.h5 log.csv; do
  before=$(sha256sum "$WORK/$f")
  err=$( (trap '' XFSZ; ulimit -f 64; "$BANDITFS" simulate cmab-hte --n 40000 --seed 9 --out "$WORK/$f") 2>&1 >/dev/null)
  code=$?
  [ "$code" -eq 1 ] && [[ "$err" == *"cannot write '$WORK/$f'"* ]] && ok ||
    fail "simulate cmab-hte to $f on a full disk: exit $code, message: $err"
  [ "$(sha256sum "$WORK/$f")" == "$before" ] && [ ! -e "$WORK/$f.tmp" ] && ok ||
    fail "a failed simulate cmab-hte changed $f or left $f.tmp"
done

sim_data='source = "simulate"
dgp = "cmab-hte"
n = 20000
p = 10
seed = 5'
run_job sim "$(cmab_job "$sim_data")" >/dev/null 2>"$WORK/sim.err" && ok || fail "simulated run: $(cat "$WORK/sim.err")"
run_job h5 "$(cmab_job "source = \"hdf5\"
path = \"$WORK/log.h5\"")" >/dev/null 2>"$WORK/h5.err" && ok || fail "HDF5 run: $(cat "$WORK/h5.err")"
run_job csv "$(cmab_job "source = \"csv\"
path = \"$WORK/log.csv\"
arm = \"arm\"
reward = \"reward\"")" >/dev/null 2>"$WORK/csv.err" && ok || fail "CSV run: $(cat "$WORK/csv.err")"

# The simulated source and its HDF5 file are one log: identical scores.
$PY - "$WORK/out-sim/result.h5" "$WORK/out-h5/result.h5" "$WORK/out-csv/result.h5" <<'PYEOF' && ok || fail "result contents"
import sys, h5py, numpy as np
sim, h5, csv = (h5py.File(p, "r") for p in sys.argv[1:])
for name in ["importance", "cmab/hie", "cmab/hdd", "cmab/kl", "cmab/ed", "cmab/chi", "cmab/mi", "cmab/cells"]:
    assert np.array_equal(sim[name][()], h5[name][()]), name
    # CSV holds the floats as decimal text that reads back to the same float32 values.
    assert np.allclose(sim[name][()], csv[name][()], rtol=1e-12, atol=0), name
p = sim["importance"].shape[0]
assert p == 10 and sim["cmab/cells"].shape[0] == p and sim["cmab/cells"].shape[2:] == (3, 2), sim["cmab/cells"].shape
assert sim["cmab/cells"][()].sum() == 20000 * p, "every row counted once per feature"
assert sim["cmab/bin_edges"].shape == (p, 11)
# The design's signal: x1..x5 change which arm wins, x6, x7 only predict the reward.
top5 = set(np.argsort(-sim["importance"][()], kind="stable")[:5])
assert top5 == {0, 1, 2, 3, 4}, top5
assert list(sim["truth"][()]) == [0, 1, 2, 3, 4]
assert sim.attrs["method"] in ("cmab-scores", b"cmab-scores")
# select = "shadow" (the default): the selected set is the features above the threshold, x1..x5 among them; no
# dataset holds a shadow (every per-feature dataset has p rows), only the threshold and its rank and bound are
# written: the default k copies of each feature, α = 0.5, r = floor(α(kp + 1)/p), bound p(1 + #{shadows > t})/(S + 1).
g = sim["cmab"]
k = g.attrs["shadow_copies"]
assert g.attrs["select"] in ("shadow", b"shadow") and g.attrs["shadows"] == k * p and k >= 1
assert g.attrs["shadow_max_false"] == 0.5 and g.attrs["shadow_rank"] == max(1, int(0.5 * (k * p + 1) // p))
assert 0 < g.attrs["shadow_false_bound"] <= 0.5 or g.attrs["shadow_rank"] == 1
t, imp = g.attrs["shadow_threshold"], sim["importance"][()]
sel = list(sim["selected"][()])
assert sel == [j for j in range(p) if imp[j] > t] and {0, 1, 2, 3, 4} <= set(sel), (sel, t)
for name in ["cmab/hie", "cmab/hdd", "cmab/kl", "cmab/ed", "cmab/chi", "cmab/mi", "cmab/bins", "rank"]:
    assert sim[name].shape[0] == p, name
PYEOF
# The progress line counts features scored, not iterations: its last report is "feature p/p".
"$BANDITFS" run "$WORK/sim.toml" --out "$WORK/out-progress" >/dev/null 2>"$WORK/progress.err"
grep -q '^feature 10/10 (100%)' "$WORK/progress.err" && ok || fail "cmab progress line: $(cat "$WORK/progress.err")"
grep -c . "$WORK/out-sim/summary.csv" | grep -qx 11 && ok || fail "summary.csv: a row per feature, none for a shadow"
grep -Eq 'select = "shadow": .* features have a combined score above .*, the (maximum|[0-9]+(st|nd|rd|th) largest) of [0-9]+ shadows.* scores \(false selections expected: at most .*\)' \
  "$WORK/out-sim/banditfs.log" && ok || fail "the log says what the shadow rule selected: $(grep shadow "$WORK/out-sim/banditfs.log")"
head -1 "$WORK/out-sim/summary.csv" | grep -qx 'feature,name,importance,selected,rank,hie,hdd,kl,ed,chi,mi,bins' && ok ||
  fail "summary.csv header: $(head -1 "$WORK/out-sim/summary.csv")"
"$BANDITFS" inspect "$WORK/out-sim" >"$WORK/inspect.txt" 2>&1 && grep -q "cmab-scores" "$WORK/inspect.txt" && ok ||
  fail "inspect: $(cat "$WORK/inspect.txt")"
# Its unit of work is a feature scored, not an iteration.
grep -qE "done +[0-9]+ features scored" "$WORK/inspect.txt" && ! grep -q "^  iterations" "$WORK/inspect.txt" && ok ||
  fail "inspect names cmab-scores' scored features iterations: $(cat "$WORK/inspect.txt")"

# ---- bad input -----------------------------------------------------------------------------------------------
log_csv() {  # log_csv NAME HEADER ROWS...: a CSV log
  local name="$1"
  shift
  printf '%s\n' "$@" >"$WORK/$name.csv"
}
csv_data() { printf 'source = "csv"\npath = "%s"\narm = "arm"\nreward = "reward"\n%s' "$WORK/$1.csv" "${2:-}"; }
good_rows=(x,arm,reward 1,a,0 2,b,1 3,a,1 4,b,0)
log_csv good "${good_rows[@]}"
log_csv no_arm x,reward 1,0 2,1
expect_error no_arm_column "arm" -- run_job no_arm_column "$(cmab_job "$(csv_data no_arm)")"
log_csv no_reward x,arm 1,a 2,b
expect_error no_reward_column "reward" -- run_job no_reward_column "$(cmab_job "$(csv_data no_reward)")"
expect_error label_outside_arms "arm 'b' is not in data.arms" -- run_job label_outside_arms "$(cmab_job "$(csv_data good 'arms = ["a", "c"]')")"
expect_error arm_without_rows "arm 'c' is declared in data.arms but has no rows" -- run_job arm_without_rows "$(cmab_job "$(csv_data good 'arms = ["a", "b", "c"]')")"
log_csv one_arm x,arm,reward 1,a,0 2,a,1
expect_error one_arm "arm" -- run_job one_arm "$(cmab_job "$(csv_data one_arm)")"
log_csv reward_missing x,arm,reward 1,a,0 2,b, 3,a,1
expect_error reward_missing "line 3, column 'reward': the reward is missing" -- run_job reward_missing "$(cmab_job "$(csv_data reward_missing)")"
log_csv reward_two x,arm,reward 1,a,0 2,b,2 3,a,1
expect_error reward_not_binary "2" -- run_job reward_not_binary "$(cmab_job "$(csv_data reward_two)")"
log_csv inf x,arm,reward 1,a,0 inf,b,1 3,a,1
expect_error inf_feature "inf" -- run_job inf_feature "$(cmab_job "$(csv_data inf)")"
log_csv nan x,arm,reward 1,a,0 nan,b,1 3,a,1 4,b,0
expect_error nan_with_missing_error "x" -- run_job nan_with_missing_error "$(cmab_job "$(csv_data nan)" 'missing = "error"')"
# The missing value is named by the file and its 1-based line (a blank line in between), not a 0-based row.
log_csv blank_nan x,arm,reward 1,a,0 "" 2,b,1 ,b,1 4,a,0
expect_error nan_line "blank_nan.csv: line 5, column 'x': the value is missing (an empty cell or NaN)" \
  -- run_job nan_line "$(cmab_job "$(csv_data blank_nan)" 'missing = "error"')"
expect_error unknown_control_arm 'method.control_arm = "z"' \
  -- run_job unknown_control_arm "$(cmab_job "$(csv_data good)" 'control_arm = "z"')"
# top-k against p (the rule fuse's top follows): p itself is allowed, p + 1 refused naming key, value, p and the data.
too_many="method.select_top = 11 is more than the 10 features of simulate cmab-hte (seed 5); set method.select_top to at most 10"
top() { printf 'select = "top"\nselect_top = %s' "$1"; }
expect_error select_top_too_large "$too_many" -- run_job select_top_too_large "$(cmab_job "$sim_data" "$(top 11)")"
run_job select_top_p "$(cmab_job "$sim_data" "$(top 10)")" >/dev/null 2>"$WORK/top.err" && ok ||
  fail "select_top = p: $(cat "$WORK/top.err")"
# select_top without select = "top" would be silently ignored under the default: refused, saying what to add.
expect_error select_top_with_shadow 'method.select_top = 3 is read only with method.select = "top"' \
  -- run_job select_top_with_shadow "$(cmab_job "$sim_data" 'select_top = 3')"
expect_error shadows_too_many "method.shadows = 11 is more than the 10 features" \
  -- run_job shadows_too_many "$(cmab_job "$sim_data" 'shadows = 11')"
expect_error shadow_copies_zero "method.shadow_copies = 0 is out of range" \
  -- run_job shadow_copies_zero "$(cmab_job "$sim_data" 'shadow_copies = 0')"
expect_error quantile_and_max_false "method.shadow_quantile = 0.9 and method.shadow_max_false = 0.2 both set" \
  -- run_job quantile_and_max_false "$(cmab_job "$sim_data" "$(printf 'shadow_quantile = 0.9\nshadow_max_false = 0.2')")"
expect_error both_alphas_zero "method.alpha_hie = method.alpha_hdd = 0" \
  -- run_job both_alphas_zero "$(cmab_job "$(csv_data good)" "$(printf 'alpha_hie = 0\nalpha_hdd = 0')")"
log_csv one_row x,arm,reward 1,a,0
expect_error one_row "row" -- run_job one_row "$(cmab_job "$(csv_data one_row)")"
log_csv no_features arm,reward a,0 b,1
expect_error no_features "p = 0" -- run_job no_features "$(cmab_job "$(csv_data no_features)")"
expect_error bandit_section 'section [bandit] belongs to method "bandit"' \
  -- run_job bandit_section "$(cmab_job "$sim_data")$(printf '\n[bandit]\niterations = 3\n')"
expect_error estimator_section 'section [estimator] is not used by method "cmab-scores"' \
  -- run_job estimator_section "$(cmab_job "$sim_data")$(printf '\n[estimator]\nname = "lasso"\n')"
expect_error target_key 'data.target = "y" does not apply to method.name = "cmab-scores"' \
  -- run_job target_key "$(cmab_job "$(csv_data good 'target = "y"')")"
expect_error xy_dgp 'data.dgp = "friedman1" simulates (X, y)' \
  -- run_job xy_dgp "$(cmab_job "$(printf 'source = "simulate"\ndgp = "friedman1"')")"
expect_error arm_key_in_bandit 'data.arm is for bandit logs (method cmab-scores)' \
  -- run_job arm_key_in_bandit "$(tiny_job | sed 's/^p = 20/p = 20\narm = "a"/')"
# /arm outside /arm_labels in an HDF5 log.
$PY - "$WORK/log.h5" "$WORK/bad_arm.h5" <<'PYEOF'
import sys, shutil, h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    arm = f["arm"][()]
    arm[7] = 3
    f["arm"][...] = arm
PYEOF
expect_error hdf5_arm_outside_labels "/arm" -- run_job hdf5_arm_outside_labels "$(cmab_job "source = \"hdf5\"
path = \"$WORK/bad_arm.h5\"")"
expect_error simulate_p_small "--p 5" -- "$BANDITFS" simulate cmab-hte --p 5 --out "$WORK/out-simulate_p_small.h5"
expect_error simulate_periods "--periods" -- "$BANDITFS" simulate cmab-hte --periods 2 --out "$WORK/out-sim2.h5"
[ ! -e "$WORK/out-simulate_p_small.h5" ] && [ ! -e "$WORK/out-sim2.h5" ] && ok || fail "simulate wrote output"

# A constant feature is no error: one bin, scores 0.
log_csv constant x,c,arm,reward 1,7,a,0 2,7,b,1 3,7,a,1 4,7,b,0 5,7,a,1 6,7,b,1
run_job constant "$(cmab_job "$(csv_data constant)")" >/dev/null 2>"$WORK/constant.err" && ok ||
  fail "constant feature: $(cat "$WORK/constant.err")"
$PY -c "import h5py,sys; f=h5py.File(sys.argv[1]); assert f['cmab/bins'][1]==1 and f['cmab/hie'][1]==0 and f['cmab/hdd'][1]==0" \
  "$WORK/out-constant/result.h5" && ok || fail "constant feature: not one bin with 0 scores"
finish
