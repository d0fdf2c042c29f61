#!/usr/bin/env bash
# Every bad input gives one clear message naming the problem, a non-zero exit and no result.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

hdf5_job() { tiny_job | sed "s|source = \"simulate\"|source = \"hdf5\"\npath = \"$1\"|"; }

expect_error missing_file "cannot open HDF5 file" -- run_job missing_file "$(hdf5_job "$WORK/nope.h5")"
expect_error missing_job "cannot read job file" -- "$BANDITFS" run "$WORK/nope.toml"

# HDF5 files with defects, written by h5py.
$PY - "$WORK" <<'PYEOF'
import sys, h5py, numpy as np
w = sys.argv[1]
rng = np.random.default_rng(0)
X = rng.random((50, 4)).astype(np.float32); y = rng.random(50)
def write(name, **datasets):
    with h5py.File(f"{w}/{name}.h5", "w") as f:
        for k, v in datasets.items(): f[k] = v
write("no_x", y=y)
write("mismatch", X=X, y=y[:40])
Xn = X.copy(); Xn[7, 2] = np.nan; write("nan_x", X=Xn, y=y)
Xi = X.copy(); Xi[7, 2] = np.inf; write("inf_x", X=Xi, y=y)
yi = y.copy(); yi[3] = np.inf; write("inf_y", X=X, y=yi)
write("p0", X=np.zeros((50, 0), np.float32), y=y)
write("few", X=X[:4], y=y[:4])
write("const", X=X, y=np.full(50, 2.5))
write("huge_y", X=X, y=(y - 0.5) * 1e308)
write("tiny_y", X=X, y=y * 1e-310)
PYEOF
expect_error no_x "/X" -- run_job no_x "$(hdf5_job "$WORK/no_x.h5")"
expect_error mismatch "40" -- run_job mismatch "$(hdf5_job "$WORK/mismatch.h5")"
# NaN in /X is a missing cell (README, data section): refused only when the job says data.missing = "error"; ±Inf
# is never a value.
expect_error nan_x "x3" -- run_job nan_x "$(hdf5_job "$WORK/nan_x.h5" | sed 's|^\[data\]$|[data]\nmissing = "error"|')"
expect_error inf_x "x3" -- run_job inf_x "$(hdf5_job "$WORK/inf_x.h5")"
expect_error inf_y "y" -- run_job inf_y "$(hdf5_job "$WORK/inf_y.h5")"
expect_error p0 "p = 0" -- run_job p0 "$(hdf5_job "$WORK/p0.h5")"
expect_error few_rows "too few" -- run_job few "$(hdf5_job "$WORK/few.h5")"
expect_error constant_target "constant" -- run_job const "$(hdf5_job "$WORK/const.h5")"
# A finite y outside the arithmetic (its squares overflow, or its spread is below the smallest normal double) is
# refused by the reader, for every method alike, naming the file and the rescaling to do.
est_job() { printf '[data]\nsource = "hdf5"\npath = "%s"\n[estimator]\nname = "%s"\n[bandit]\niterations = 2\n' "$1" "$2"; }
for est in hgb random_forest bart; do
  expect_error "huge_y_$est" "huge_y.h5: y is too large for the arithmetic: the sum of its squares overflows" \
    -- run_job "huge_y_$est" "$(est_job "$WORK/huge_y.h5" $est)"
  expect_error "tiny_y_$est" "tiny_y.h5: y varies too little for the arithmetic" \
    -- run_job "tiny_y_$est" "$(est_job "$WORK/tiny_y.h5" $est)"
done
for which in huge_y tiny_y; do
  expect_error "${which}_first" "$which.h5: y " -- run_job "${which}_first" \
    "$(printf '[method]\nname = "first"\n[data]\nsource = "hdf5"\npath = "%s"\n' "$WORK/$which.h5")"
done
# Corrupt files found by fuzzing, refused before libhdf5 divides by a zero-byte type (SIGFPE) or allocates a 4 GiB
# chunk for a 12 KB file (tests/fuzz/regressions/hdf5; the replay there catches the first, this the message of both).
REG="$ROOT/tests/fuzz/regressions/hdf5"
# (l12's /X is chunked with 1 of 53 chunks written: the chunk check refuses it before its 0-byte type is met.)
expect_error type_size_zero "/X is corrupt: 1 of its 53 chunks are written" -- \
  run_job type_size_zero "$(hdf5_job "$REG/l12_type_size_zero_fill_fpe.h5")"
expect_error storage_claim "/X is corrupt: its storage claims 4294377592 bytes but the whole file has 12208" -- \
  run_job storage_claim "$(hdf5_job "$REG/l13_storage_claims_4gib.h5")"

# CSV with a bad cell and a missing target column.
printf 'a,b,target\n1,2,3\n4,x,6\n' >"$WORK/bad.csv"
csv_job() { tiny_job | sed "s|source = \"simulate\"|source = \"csv\"\npath = \"$WORK/bad.csv\"\ntarget = \"$1\"|"; }
expect_error csv_cell "bad.csv" -- run_job csv_cell "$(csv_job target)"
expect_error csv_target "price" -- run_job csv_target "$(csv_job price)"

# Job-file mistakes, each naming the key.
expect_error unknown_estimator "estimator.name" -- run_job unknown_estimator "$(tiny_job | sed 's/random_forest/knn/')"
expect_error unknown_policy "bandit.policy" -- run_job unknown_policy "$(tiny_job) " --set bandit.policy=ucb
expect_error unknown_key "bandit.iteratons" -- run_job unknown_key "$(tiny_job | sed 's/^iterations/iteratons/')"
expect_error threshold_range "reward.threshold" -- run_job threshold_range "$(tiny_job)" --set reward.threshold=1.5
expect_error wrong_type "bandit.iterations" -- run_job wrong_type "$(tiny_job)" --set 'bandit.iterations="ten"'
expect_error p_too_small "data.p" -- run_job p_too_small "$(tiny_job)" --set data.p=3
expect_error hgb_max_bin "estimator.max_bin = 300 is out of range" -- run_job hgb_max_bin "$(tiny_job)" --set estimator.name=hgb --set estimator.max_bin=300
expect_error gbm_key_on_hgb "unknown key 'estimator.subsample'" -- run_job gbm_key_on_hgb "$(tiny_job)" --set estimator.name=hgb --set estimator.subsample=0.5
# An unknown section from --set blames the override, not the job file; one in the file still names the file.
expect_error set_unknown_section "--set 'nosuch.key=1': unknown section 'nosuch'" -- run_job set_unknown_section "$(tiny_job)" --set nosuch.key=1
expect_error file_unknown_section "file_unknown_section.toml: unknown section or key 'nosuch'" -- run_job file_unknown_section "nosuch = 1
$(tiny_job)"
# A section that takes no keys for the chosen method says so (never an empty list of valid keys).
expect_error method_no_keys "unknown key 'method.zzz' ([method] takes no keys besides \"name\" for method \"bandit\")" -- \
  run_job method_no_keys "$(tiny_job)" --set method.zzz=1
# Online, the schedule (periods × iterations_per_period) sets the length; a different bandit.iterations is refused.
expect_error online_iterations "bandit.iterations = 8, but this online run's schedule is 1 pass(es) × 4 period(s)" -- \
  run_job online_iterations "$(tiny_job)" --set bandit.mode=online --set data.periods=4
expect_error group_size_negative "run.group_size = -1 is out of range" -- run_job group_size_negative "$(tiny_job)" --set run.group_size=-1
expect_error group_split_unknown "estimator.group_split = \"diagonal\" is not one of \"columns\", \"rows\"" -- run_job group_split_unknown "$(tiny_job)" --set estimator.name=hgb --set estimator.group_split=diagonal

# simulate: an option of the other kind of DGP is refused, not ignored.
expect_error sim_months_friedman "--months" -- "$BANDITFS" simulate friedman1 --out "$WORK/out-sim_months_friedman/f.h5" --months 3
expect_error sim_n_gkx "--n" -- "$BANDITFS" simulate gkx-like --out "$WORK/out-sim_n_gkx" --n 50
[ ! -e "$WORK/out-sim_months_friedman/f.h5" ] && [ ! -e "$WORK/out-sim_n_gkx/truth.json" ] && ok || fail "simulate wrote output"
expect_error periods_zero "simulate: --periods must be at least 1, not 0" -- \
  "$BANDITFS" simulate friedman1 --periods 0 --out "$WORK/out-periods_zero.h5"
expect_error sim_too_big "--n, --p, --periods ask for 99999999999 rows" -- \
  "$BANDITFS" simulate friedman1 --n 99999999999 --out "$WORK/out-sim_too_big.h5"
[ ! -e "$WORK/out-periods_zero.h5" ] && [ ! -e "$WORK/out-sim_too_big.h5" ] && ok || fail "simulate wrote output"

finish
