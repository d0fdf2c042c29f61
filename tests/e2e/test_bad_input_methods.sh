#!/usr/bin/env bash
# Bad input for the method layer and for FIRST [FIRST]: an unknown method, a section of another
# method, a key of another method, and FIRST's own refusals (too few rows for N_I, more outer rows than rows, a
# constant y, a NaN) each give one message naming the key, section or file, a non-zero exit and no result.
source "$(dirname "$0")/lib.sh"

first_job() {  # first_job [METHOD-LINES] [DATA-LINES]
  printf '[method]\nname = "first"\n%s\n[data]\nsource = "simulate"\ndgp = "friedman1"\nn = 40\np = 6\n%s\n' "${1:-}" "${2:-}"
}

expect_error unknown_method 'method.name = "nope" is not one of "bandit", "first", "cmab-scores"' \
  -- run_job unknown_method "$(printf '[method]\nname = "nope"\n')"
expect_error bandit_section_in_first 'section [bandit] belongs to method "bandit", but method.name = "first"' \
  -- run_job bandit_section_in_first "$(first_job)$(printf '\n[bandit]\niterations = 5\n')"
expect_error estimator_in_first 'section [estimator] is not used by method "first"' \
  -- run_job estimator_in_first "$(first_job)$(printf '\n[estimator]\nname = "lasso"\n')"
expect_error first_key_in_bandit "unknown key 'method.inner_samples'" \
  -- run_job first_key_in_bandit "$(printf '[method]\ninner_samples = 3\n')"
expect_error first_key_out_of_range 'method.forward = "slow" is not one of "full", "fast"' \
  -- run_job first_key_out_of_range "$(first_job 'forward = "slow"')"

expect_error too_few_rows 'method.inner_samples: N_I = 3 needs more rows than' \
  -- run_job too_few_rows "$(first_job '' | sed 's/^n = 40/n = 2/')"
expect_error inner_too_large 'method.inner_samples: N_I = 40 needs more rows' \
  -- run_job inner_too_large "$(first_job 'inner_samples = 40')"
expect_error outer_too_large 'method.outer_samples = 41 is more than the 40 rows' \
  -- run_job outer_too_large "$(first_job 'outer_samples = 41')"

awk 'BEGIN { srand(3); print "a,b,y"; for (i = 0; i < 30; i++) printf "%.4f,%.4f,5\n", rand(), rand() }' >"$WORK/constant.csv"
csv_first() { printf '[method]\nname = "first"\n[data]\nsource = "csv"\npath = "%s"\ntarget = "y"\n' "$1"; }
expect_error constant_y "y is constant: FIRST has no variance to explain" \
  -- run_job constant_y "$(csv_first "$WORK/constant.csv")"
awk 'BEGIN { srand(3); print "a,b,y"; for (i = 0; i < 30; i++) printf "%s,%.4f,%.4f\n", i == 7 ? "nan" : rand(), rand(), rand() }' >"$WORK/nan.csv"
# A "nan" cell is missing (pandas' NA tokens): FIRST fills it with its column's mean, unless data.missing = "error".
run_job nan_cell "$(csv_first "$WORK/nan.csv")" >/dev/null 2>&1 && ok || fail "FIRST on a CSV with a nan cell failed"
expect_error nan_cell_refused "nan.csv" -- run_job nan_cell_refused "$(csv_first "$WORK/nan.csv")
missing = \"error\""
# simulate with [FIRST]'s designs: --rho for a DGP that takes none, rho outside [0, 1) or not finite, and p below
# the design's largest true feature are refused with the option and its value, and nothing is written.
sim_bad() {  # sim_bad NAME MESSAGE DGP-AND-OPTIONS...
  local name="$1" message="$2"
  shift 2
  expect_error "$name" "$message" -- "$BANDITFS" simulate "$@" --out "$WORK/out-$name.h5"
  [ ! -e "$WORK/out-$name.h5" ] && ok || fail "$name: simulate wrote $WORK/out-$name.h5"
}
sim_bad rho_unused "simulate friedman1: --rho 0.5 does not apply" friedman1 --rho 0.5
sim_bad rho_classic "simulate ishigami-classic: --rho 0.2 does not apply" ishigami-classic --rho 0.2
sim_bad rho_one "simulate ishigami: --rho 1 must be a finite number in [0, 1)" ishigami --rho 1
sim_bad rho_negative "--rho -0.5 must be a finite number in [0, 1)" heavy-tailed --rho=-0.5
sim_bad rho_nan "--rho nan must be a finite number in [0, 1)" friedman-mod --rho nan
sim_bad p_heavy "--p 5 is below the 6 features heavy-tailed needs" heavy-tailed --p 5
sim_bad p_friedman_mod "--p 9 is below the 10 features friedman-mod needs (its truth is x1, x7, x8, x9, x10)" \
  friedman-mod --p 9 --rho 0.5
# A job file takes [FIRST]'s designs as data.dgp, with data.rho: rho where the design takes none, or rho = 1, is
# refused naming data.rho; a design runs (FIRST on ishigami, rho 0.5, N = 1000, p = 6 selects exactly x1, x2, x3,
# as in §5.1).
expect_error job_rho_unused 'data.rho = 0.5 does not apply to friedman1' \
  -- run_job job_rho_unused "$(first_job '' 'rho = 0.5')"
expect_error job_rho_one 'data.rho = 1 must be a finite number in [0, 1)' \
  -- run_job job_rho_one "$(first_job '' 'rho = 1.0' | sed 's/friedman1/ishigami/')"
run_job ishigami "$(first_job '' 'rho = 0.5' | sed 's/friedman1/ishigami/; s/^n = 40/n = 1000/')" >/dev/null 2>&1 ||
  fail "FIRST on data.dgp = ishigami failed"
sel=$(/usr/bin/python3 -c 'import h5py,sys; print(list(h5py.File(sys.argv[1])["selected"][:]))' \
  "$WORK/out-ishigami/result.h5" 2>&1)
[ "$sel" = "[0, 1, 2]" ] && ok || fail "FIRST on ishigami selected $sel, not x1, x2, x3"
finish
