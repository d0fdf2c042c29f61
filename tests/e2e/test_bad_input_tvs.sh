#!/usr/bin/env bash
# Bad input for TVS with BART ([TVS]): a constant or non-finite y, n < 2, a BART reward with another
# estimator, bandit.rebatch offline or with time_series, data.batch_size above n or offline, BART for a binary
# target and a burn-in past the sweeps. Each gives one message naming the key, file or row, a non-zero exit and no
# result. A good TVS job with batches and bootstrap passes then runs and writes its result.
source "$(dirname "$0")/lib.sh"

tvs_job() {  # tvs_job DATA-LINES [EXTRA-SECTIONS]
  printf '[data]\n%s\n[estimator]\nname = "bart"\nsweeps = 20\nn_estimators = 5\n[reward]\nrule = "bart-last-draw"\n[bandit]\npolicy = "tvs"\niterations = 3\n%s\n' "$1" "${2:-}"
}
csv_data() { printf 'source = "csv"\npath = "%s"\ntarget = "y"' "$1"; }

awk 'BEGIN { srand(5); print "a,b,y"; for (i = 0; i < 30; i++) printf "%.4f,%.4f,2.5\n", rand(), rand() }' >"$WORK/constant.csv"
expect_error constant_y "constant.csv (30 rows, 2 features, 1 period, in memory): the target y is constant" -- run_job constant_y "$(tvs_job "$(csv_data "$WORK/constant.csv")")"
awk 'BEGIN { srand(5); print "a,b,y"; for (i = 0; i < 30; i++) printf "%.4f,%.4f,%s\n", rand(), rand(), i == 11 ? "inf" : rand() }' >"$WORK/inf.csv"
expect_error infinite_y "inf.csv" -- run_job infinite_y "$(tvs_job "$(csv_data "$WORK/inf.csv")")"
printf 'a,b,y\n0.1,0.2,0.3\n' >"$WORK/one.csv"
expect_error one_row "one.csv" -- run_job one_row "$(tvs_job "$(csv_data "$WORK/one.csv")")"

sim='source = "simulate"
dgp = "friedman1"
n = 60
p = 10'
expect_error rule_without_bart 'reward.rule = "bart-last-draw" reads BART'"'"'s split counts and needs estimator.name = "bart" (got "lasso")' \
  -- run_job rule_without_bart "$(tvs_job "$sim" | sed 's/name = "bart"/name = "lasso"/; /^sweeps/d; /^n_estimators/d')"
expect_error rebatch_offline 'bandit.rebatch = "bootstrap" re-cuts the batches of online passes and needs bandit.mode = "online"' \
  -- run_job rebatch_offline "$(tvs_job "$sim" 'rebatch = "bootstrap"')"
expect_error rebatch_time_series 'bandit.time_series = true keeps' \
  -- run_job rebatch_time_series "$(tvs_job "$sim" "$(printf 'mode = "online"\ntime_series = true\nrebatch = "bootstrap"')")"
expect_error batch_too_large 'data.batch_size = 61 is out of range' \
  -- run_job batch_too_large "$(tvs_job "$sim"$'\nbatch_size = 61' 'mode = "online"')"
expect_error batch_offline 'data.batch_size = 20 cuts online batches and needs bandit.mode = "online"' \
  -- run_job batch_offline "$(tvs_job "$sim"$'\nbatch_size = 20')"
expect_error bart_binary 'estimator.name = "bart" needs data.task = "regression"' \
  -- run_job bart_binary "$(tvs_job "$sim"$'\ntask = "binary"')"
expect_error burn_past_sweeps 'estimator.burn = 20 must be below estimator.sweeps = 20' \
  -- run_job burn_past_sweeps "$(tvs_job "$sim" | sed 's/^sweeps = 20/sweeps = 20\nburn = 20/')"

# The good job: 60 rows in batches of 20, 2 passes re-cut by bootstrap = 6 rounds (the schedule's length: the
# template's offline bandit.iterations is dropped, as an online job names none or exactly that).
if run_job good "$(tvs_job "$sim"$'\nbatch_size = 20' "$(printf 'mode = "online"\npasses = 2\nrebatch = "bootstrap"')" |
  sed '/^iterations = 3$/d')" >/dev/null 2>&1; then
  rounds=$(/usr/bin/python3 -c 'import h5py,sys; print(h5py.File(sys.argv[1]).attrs["iterations"])' "$WORK/out-good/result.h5")
  [ "$rounds" = "6" ] && ok || fail "good: $rounds rounds, expected 6"
else
  fail "good TVS job with batches and bootstrap passes failed"
fi
finish
