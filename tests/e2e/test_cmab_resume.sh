#!/usr/bin/env bash
# cmab-scores and the signal contract: SIGTERM or SIGUSR1 stops the run at a wave boundary with OUT/checkpoint.h5,
# exit 0 and a log line saying where it stopped and how to continue; --resume finishes with result.h5 datasets
# identical to an uninterrupted run's; a checkpoint of another job is refused naming the key; --resume without a
# checkpoint is refused with the message every other method gives.
source "$(dirname "$0")/lib.sh"

# A simulated log generated column block by column block: no data file, and a wave (64 columns) takes a while.
printf '[method]\nname = "cmab-scores"\n[data]\nsource = "simulate"\ndgp = "cmab-hte"\n%s\n%s\n' \
  'n = 100000' 'p = 384' >"$WORK/job.toml"
printf '[run]\nseed = 2\nthreads = 1\ncheckpoint_every = 1\n' >>"$WORK/job.toml"
fingerprints() { /usr/bin/python3 "$ROOT/tests/e2e/h5_fingerprints.py" "$1/result.h5"; }

"$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/whole" >/dev/null 2>"$WORK/err" ||
  fail "uninterrupted run failed: $(cat "$WORK/err")"

for sig in TERM USR1; do
  out="$WORK/cut-$sig"
  "$BANDITFS" run "$WORK/job.toml" --quiet --out "$out" >/dev/null 2>"$WORK/err-$sig" &
  pid=$!
  for _ in $(seq 600); do [ -s "$out/checkpoint.h5" ] && break; sleep 0.02; done
  kill -"$sig" "$pid"
  wait "$pid"
  code=$?
  [ "$code" -eq 0 ] && ok || fail "SIG$sig: exit code $code: $(cat "$WORK/err-$sig")"
  if [ -e "$out/result.h5" ]; then
    fail "SIG$sig: the run finished before the signal took effect (make the job longer)"
    continue
  fi
  [ -s "$out/checkpoint.h5" ] && ok || fail "SIG$sig: no checkpoint"
  grep -q "signal .* received: interrupted after feature [0-9]* of 384" "$out/banditfs.log" &&
    grep -q -- "--resume" "$out/banditfs.log" && ok ||
    fail "SIG$sig: the log does not say where cmab-scores stopped and how to resume: $(tail -2 "$out/banditfs.log")"
done

out="$WORK/cut-TERM"
# Another job's checkpoint: refused, naming the key; the checkpoint is kept.
err=$("$BANDITFS" run "$WORK/job.toml" --quiet --out "$out" --resume --set method.bins=7 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "method.bins (checkpoint 10, this job 7)" <<<"$err" && ok ||
  fail "a different job's checkpoint was not refused by name: $err"
[ -s "$out/checkpoint.h5" ] && [ ! -e "$out/result.h5" ] && ok || fail "a refused resume lost the checkpoint"

for sig in TERM USR1; do
  out="$WORK/cut-$sig"
  [ -s "$out/checkpoint.h5" ] || continue
  "$BANDITFS" run "$WORK/job.toml" --quiet --out "$out" --resume --set run.threads=2 >/dev/null 2>"$WORK/err-r" ||
    fail "SIG$sig: resume failed: $(cat "$WORK/err-r")"
  grep -q "resuming from .*checkpoint.h5 after feature [0-9]* of 384" "$out/banditfs.log" && ok ||
    fail "SIG$sig: the log does not show the resume"
  [ ! -e "$out/checkpoint.h5" ] && ok || fail "SIG$sig: the checkpoint outlived the finished run"
  [ "$(fingerprints "$out")" == "$(fingerprints "$WORK/whole")" ] && ok ||
    fail "SIG$sig: the resumed result differs: $(diff <(fingerprints "$out") <(fingerprints "$WORK/whole"))"
done

# --resume with no checkpoint: refused as the bandit refuses it (same message but for the directory), nothing
# written.
expect_error no_checkpoint "checkpoint.h5': no such file" -- \
  "$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/out-no_checkpoint" --resume
cmab=$("$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/none" --resume 2>&1 >/dev/null | grep "error:")
bandit=$("$BANDITFS" run "$ROOT/jobs/quickstart.toml" --quiet --out "$WORK/none" --resume 2>&1 >/dev/null |
  grep "error:")
[ -n "$cmab" ] && [ "$cmab" == "$bandit" ] && ok || fail "cmab-scores' refusal '$cmab' is not the bandit's '$bandit'"

finish
