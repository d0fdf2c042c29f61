#!/usr/bin/env bash
# Stability selection from the command line (docs/stability.md): a [stability] job of each method writes the
# summary of its 2B half-sample runs (/stability with its bound attributes, summary.csv's columns, run.json's
# "stability"); SIGTERM mid-way writes a checkpoint and exits 0, and --resume finishes with result.h5 datasets
# identical to an uninterrupted run's; bad [stability] keys are refused naming the key.
source "$(dirname "$0")/lib.sh"

stability='[stability]
enabled = true
pairs = 3
max_false = 1'
bandit_job="$(tiny_job)
$stability"
first_job="[method]
name = \"first\"
[data]
source = \"simulate\"
dgp = \"friedman1\"
n = 120
p = 15
[run]
seed = 2
$stability"
fuse_job="[method]
name = \"fuse\"
iterations = 60
reward_subsample = 30
[data]
source = \"simulate\"
dgp = \"friedman1\"
n = 120
p = 15
[run]
seed = 2
$stability"
cmab_job="[method]
name = \"cmab-scores\"
[data]
n = 400
p = 15
[run]
seed = 2
$stability"

for name in bandit first fuse cmab; do
  job_var="${name}_job"
  run_job "$name" "${!job_var}" >"$WORK/$name.out" 2>"$WORK/$name.err" || fail "$name: $(cat "$WORK/$name.err")"
  /usr/bin/python3 - "$WORK/out-$name" <<'PYEOF' && ok || fail "$name: the outputs lack the stability summary"
import csv, json, sys, h5py, numpy as np
out = sys.argv[1]
with h5py.File(out + "/result.h5") as f:
    s = f["stability"]
    assert s.attrs["runs"] == 6 and s.attrs["pairs"] == 3 and s.attrs["max_false"] == 1.0, dict(s.attrs)
    p = len(f["feature_names"])
    q, thr = s.attrs["mean_selected"], s.attrs["threshold"]
    assert abs(thr - min(1.0, (1 + q * q / p) / 2)) < 1e-12, (thr, q, p)
    assert abs(s.attrs["bound_meinshausen_buhlmann"] - q * q / ((2 * thr - 1) * p)) < 1e-12
    freq = s["selection_frequency"][()]
    assert np.allclose(freq * 6, np.round(freq * 6))
    assert sorted(f["selected"][()].tolist()) == np.flatnonzero(freq >= thr).tolist()
    assert np.array_equal(f["importance"][()], s["importance_mean"][()])
    names = [n.decode() if isinstance(n, bytes) else n for n in f["feature_names"][()]]
    assert not any("shadow" in n for n in names), names
rows = list(csv.DictReader(open(out + "/summary.csv")))
assert "selection_frequency" in rows[0] and "importance_q95" in rows[0] and "rank_sd" in rows[0], list(rows[0])
j = json.load(open(out + "/run.json"))
assert j["stability"]["pairs"] == 3 and "bound_shah_samworth" in j["stability"], j["stability"]
PYEOF
  grep -q "E\[false selections\] <=" "$WORK/$name.out" && ok || fail "$name: inspect does not print the bound"
done

# Kill and resume: SIGTERM once a checkpoint is written; the resumed result equals the uninterrupted one.
resume_job="$(tiny_job | sed 's/iterations = 8/iterations = 40/')
[stability]
enabled = true
pairs = 12"
printf '%s\n' "$resume_job" >"$WORK/resume.toml"
fingerprints() { /usr/bin/python3 "$ROOT/tests/e2e/h5_fingerprints.py" "$1/result.h5"; }
"$BANDITFS" run "$WORK/resume.toml" --quiet --out "$WORK/whole" --set run.threads=2 >/dev/null 2>"$WORK/err" ||
  fail "uninterrupted run failed: $(cat "$WORK/err")"
out="$WORK/cut"
"$BANDITFS" run "$WORK/resume.toml" --quiet --out "$out" --set run.threads=1 --set run.checkpoint_every=1 \
  >/dev/null 2>"$WORK/err-cut" &
pid=$!
for _ in $(seq 600); do [ -s "$out/checkpoint.h5" ] && break; sleep 0.05; done
kill -TERM "$pid"
wait "$pid"
code=$?
[ "$code" -eq 0 ] && ok || fail "SIGTERM: exit code $code: $(cat "$WORK/err-cut")"
if [ -e "$out/result.h5" ]; then
  echo "note: the run finished before SIGTERM arrived; only the result is compared" >&2
else
  grep -q "interrupted after stability run" "$out/banditfs.log" && ok ||
    fail "the log does not say where the run stopped: $(tail -3 "$out/banditfs.log")"
  err=$("$BANDITFS" run "$WORK/resume.toml" --quiet --out "$out" --resume --set stability.pairs=13 2>&1 >/dev/null)
  [ $? -ne 0 ] && grep -q "stability.pairs" <<<"$err" && ok || fail "another job's checkpoint was not refused: $err"
  "$BANDITFS" run "$WORK/resume.toml" --quiet --out "$out" --resume --set run.threads=2 >/dev/null \
    2>"$WORK/err-resume" || fail "resume failed: $(cat "$WORK/err-resume")"
  grep -q "resuming from .*checkpoint.h5 after stability run" "$out/banditfs.log" && ok ||
    fail "the log does not show the resume"
fi
[ "$(fingerprints "$out")" == "$(fingerprints "$WORK/whole")" ] && ok ||
  fail "the resumed result differs: $(diff <(fingerprints "$out") <(fingerprints "$WORK/whole"))"

# Bad input: each refused naming the key.
expect_error half "stability.threshold = 0.5 is out of range" -- \
  run_job half "$(tiny_job)
[stability]
enabled = true
threshold = 0.5"
expect_error nopairs "stability.pairs = 0 is out of range" -- run_job nopairs "$(tiny_job)
[stability]
enabled = true
pairs = 0"
expect_error both "stability.threshold = 0.8 and stability.max_false = 1" -- run_job both "$(tiny_job)
[stability]
enabled = true
threshold = 0.8
max_false = 1"

finish
