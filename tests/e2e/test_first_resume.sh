#!/usr/bin/env bash
# FIRST's checkpoint and resume end to end: SIGTERM mid-forward-selection writes OUT/checkpoint.h5 and
# exits 0 with no result; --resume finishes with result.h5 datasets identical to an uninterrupted run's; a
# checkpoint of a job with other FIRST keys is refused naming the key.
source "$(dirname "$0")/lib.sh"

"$BANDITFS" simulate friedman-mod --n 2500 --p 300 --rho 0.5 --seed 4 --out "$WORK/data.h5" >/dev/null ||
  fail "simulate failed"
printf '[method]\nname = "first"\n[data]\nsource = "hdf5"\npath = "%s"\n[run]\nseed = 9\ncheckpoint_every = 1\n' \
  "$WORK/data.h5" >"$WORK/job.toml"
fingerprints() { /usr/bin/python3 "$ROOT/tests/e2e/h5_fingerprints.py" "$1/result.h5"; }

"$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/whole" >/dev/null 2>"$WORK/err" ||
  fail "uninterrupted run failed: $(cat "$WORK/err")"
steps=$(/usr/bin/python3 -c 'import h5py,sys; print(len(h5py.File(sys.argv[1])["/first/forward_feature"]))' \
  "$WORK/whole/result.h5")
[ "${steps:-0}" -ge 3 ] && ok || fail "the forward selection took ${steps:-?} steps; the test needs at least 3"

# SIGTERM once the first checkpoint is there: the run stops after the step in progress.
out="$WORK/cut"
"$BANDITFS" run "$WORK/job.toml" --quiet --out "$out" >/dev/null 2>"$WORK/err-cut" &
pid=$!
for _ in $(seq 600); do [ -s "$out/checkpoint.h5" ] && break; sleep 0.05; done
kill -TERM "$pid"
wait "$pid"
code=$?
[ "$code" -eq 0 ] && ok || fail "SIGTERM: exit code $code: $(cat "$WORK/err-cut")"
if [ -e "$out/result.h5" ]; then
  echo "note: the run finished before SIGTERM arrived; only the resume refusal and result are checked" >&2
else
  [ -s "$out/checkpoint.h5" ] && ok || fail "SIGTERM: no checkpoint"
  grep -q "interrupted after forward step" "$out/banditfs.log" && grep -q -- "--resume" "$out/banditfs.log" && ok ||
    fail "the log does not say where FIRST stopped and how to resume: $(tail -3 "$out/banditfs.log")"

  # Another job's checkpoint: refused, naming the key, and the checkpoint is kept.
  err=$("$BANDITFS" run "$WORK/job.toml" --quiet --out "$out" --resume --set method.inner_samples=3 2>&1 >/dev/null)
  [ $? -ne 0 ] && grep -q "method.inner_samples (checkpoint 0, this job 3)" <<<"$err" && ok ||
    fail "a different job's checkpoint was not refused by name: $err"
  [ -s "$out/checkpoint.h5" ] && ok || fail "a refused resume lost the checkpoint"

  "$BANDITFS" run "$WORK/job.toml" --quiet --out "$out" --resume >/dev/null 2>"$WORK/err-resume" ||
    fail "resume failed: $(cat "$WORK/err-resume")"
  grep -q "resuming from .*checkpoint.h5 after forward step" "$out/banditfs.log" && ok ||
    fail "the log does not show the resume"
  [ ! -e "$out/checkpoint.h5" ] && ok || fail "the checkpoint outlived the finished run"
fi
[ "$(fingerprints "$out")" == "$(fingerprints "$WORK/whole")" ] && ok ||
  fail "the resumed result differs: $(diff <(fingerprints "$out") <(fingerprints "$WORK/whole"))"

echo "$PASSED passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
