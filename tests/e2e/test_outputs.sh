#!/usr/bin/env bash
# A run writes result.h5, summary.csv, run.json and a log; inspect and simulate work; online mode never looks ahead.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

tiny_job >"$WORK/job.toml"
"$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/out" >"$WORK/stdout" 2>&1 || fail "run failed: $(cat "$WORK/stdout")"
for f in result.h5 summary.csv run.json banditfs.log; do [ -s "$WORK/out/$f" ] && ok || fail "missing $f"; done
[ "$(wc -l <"$WORK/out/summary.csv")" -eq 21 ] && ok || fail "summary.csv should have a header and 20 rows"
$PY -c "import json,sys; j=json.load(open('$WORK/out/run.json')); assert j['iterations']==8 and j['seed']==3" && ok ||
  fail "run.json facts"
$PY - "$WORK/out/result.h5" <<'PYEOF' && ok || fail "result.h5 shapes"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
assert f["trajectory"].shape == (8, 20), f["trajectory"].shape
assert f["bandit/alpha"].shape == (20,)
assert f["importance"].shape == (20,) and sorted(f["rank"][()]) == list(range(1, 21))
assert list(f["truth"][()]) == [0, 1, 2, 3, 4]
PYEOF
report=$("$BANDITFS" inspect "$WORK/out/result.h5")
grep -q "x1" <<<"$report" && ok || fail "inspect output"
# An offline simulated data set is n rows (a batch is online's unit).
grep -qE "simulate:[a-z0-9]+ \(n = [0-9]+ rows," <<<"$report" && ! grep -q "per batch" <<<"$report" && ok ||
  fail "an offline data set described per batch: $(grep data <<<"$report")"
# The output directory stands for its result.h5; --quiet prints no progress line, not even the last round's.
[ "$("$BANDITFS" inspect "$WORK/out")" == "$report" ] && ok || fail "inspect OUT_DIR differs from inspect OUT/result.h5"
! grep -q "^iteration\|.iteration [0-9]*/" "$WORK/stdout" && ok || fail "--quiet printed progress: $(cat "$WORK/stdout")"

# simulate writes the HDF5 schema; the file runs as an hdf5 source with its truth.
"$BANDITFS" simulate friedman3 --n 100 --p 12 --seed 5 --periods 3 --out "$WORK/sim.h5" >/dev/null || fail "simulate"
$PY -c "import h5py; f=h5py.File('$WORK/sim.h5'); assert f['X'].shape==(300,12) and list(f['period_offsets'][()])==[0,100,200,300]" &&
  ok || fail "simulated file layout"
tiny_job | sed "s|source = \"simulate\"|source = \"hdf5\"\npath = \"$WORK/sim.h5\"|" >"$WORK/online.toml"
cat >>"$WORK/online.toml" <<'TOML'
TOML
sed -i 's/^iterations = 8/mode = "online"\niterations_per_period = 2\ntime_series = true/' "$WORK/online.toml"
"$BANDITFS" run "$WORK/online.toml" --quiet --out "$WORK/online" >/dev/null 2>&1 || fail "online run failed"
$PY -c "import h5py; f=h5py.File('$WORK/online/result.h5'); assert list(f['bandit/iteration_period'][()])==[0,0,1,1,2,2]" &&
  ok || fail "online schedule: two iterations on each of the three periods, in order"

# A run with knockoffs: inspect shows /bandit/knockoffs' attributes (the group holds no dataset), as result.h5 has them.
"$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/ko" --set data.knockoffs=gaussian >/dev/null 2>&1 ||
  fail "knockoff run failed"
ko_line=$("$BANDITFS" inspect "$WORK/ko" | grep "^  knockoffs ")
want=$(/usr/bin/python3 -c 'import h5py, sys; a = h5py.File(sys.argv[1])["bandit/knockoffs"].attrs; print("ratio %g, selected %d" % (a["ratio"], a["selected"]))' "$WORK/ko/result.h5")
[ -n "$want" ] && grep -qF "$want" <<<"$ko_line" && ok || fail "inspect: knockoffs line '$ko_line', result.h5 has '$want'"

# The keys subcommand lists the schema.
keys=$("$BANDITFS" keys)
grep -q "bandit.arms_per_round" <<<"$keys" && ok || fail "keys"
# ... with each key's default, whatever declares the key (the schema's sections, an estimator, a method).
for line in 'data.source  ("simulate", "hdf5", "csv")  default "simulate"' 'estimator.lambda  [0, inf]  default 0.1  L1' \
  'run.out  default "results/<job file stem>"' 'bandit.prior_alpha  (0, 1e+09]  default 1.0' \
  'before the first round (gbm and hgb)'; do
  grep -qF -- "$line" <<<"$keys" && ok || fail "keys shows no default: expected '$line'"
done
[ "$(grep -c '^  [a-z_]*\.[a-z_0-9]*  ' <<<"$keys")" -eq "$(grep -c '  default ' <<<"$keys")" ] && ok ||
  fail "keys: some key has no default"
finish
