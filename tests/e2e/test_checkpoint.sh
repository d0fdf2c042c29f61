#!/usr/bin/env bash
# SIGUSR1 / SIGTERM make a run checkpoint at the end of the current round and exit 0; --resume finishes it with
# result.h5 datasets identical to an uninterrupted run; a checkpoint of another job is refused.
source "$(dirname "$0")/lib.sh"

# Long enough (thousands of rounds) that the signal always arrives mid-run; the interrupted runs stop at once.
tiny_job | sed 's/^iterations = 8/iterations = 3000/; s/n_estimators = 20/n_estimators = 30/' >"$WORK/job.toml"
short() { sed 's/^iterations = 3000/iterations = 150/' "$WORK/job.toml"; }
short >"$WORK/short.toml"

"$BANDITFS" run "$WORK/short.toml" --quiet --out "$WORK/whole" >/dev/null 2>&1 || fail "uninterrupted run failed"

for sig in USR1 TERM; do
  out="$WORK/cut-$sig"
  "$BANDITFS" run "$WORK/short.toml" --quiet --out "$out" --set bandit.iterations=3000 >/dev/null 2>"$WORK/err-$sig" &
  pid=$!
  for _ in $(seq 50); do [ -s "$out/banditfs.log" ] && break; sleep 0.1; done
  sleep 0.5
  kill -"$sig" "$pid"
  wait "$pid"
  code=$?
  [ "$code" -eq 0 ] && ok || fail "$sig: exit code $code"
  [ -s "$out/checkpoint.h5" ] && ok || fail "$sig: no checkpoint"
  [ ! -e "$out/result.h5" ] && ok || fail "$sig: an interrupted run wrote result.h5"
  grep -q -- "--resume" "$out/banditfs.log" && ok || fail "$sig: the log does not say how to resume"
done

# A checkpoint of the 3000-iteration job is refused by the 150-iteration job: the jobs differ.
err=$("$BANDITFS" run "$WORK/short.toml" --quiet --out "$WORK/cut-USR1" --resume 2>&1 >/dev/null)
[ $? -ne 0 ] && grep -q "different job" <<<"$err" && ok || fail "a different job's checkpoint was not refused: $err"

# Interrupt the short job itself after some rounds, resume it, and compare with the uninterrupted run.
"$BANDITFS" run "$WORK/short.toml" --quiet --out "$WORK/resumed" --set run.checkpoint_every=7 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -s "$WORK/resumed/checkpoint.h5" ] && break; sleep 0.05; done
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
if [ -e "$WORK/resumed/result.h5" ]; then
  echo "note: the run finished before SIGKILL; only the result is compared" >&2; ok
else
  "$BANDITFS" run "$WORK/short.toml" --quiet --out "$WORK/resumed" --resume >/dev/null 2>&1 || fail "resume failed"
fi
result=$(compare_datasets "$WORK/whole/result.h5" "$WORK/resumed/result.h5")
[ "$result" = same ] && ok || fail "resumed result differs from the uninterrupted one: $result"
[ ! -e "$WORK/resumed/checkpoint.h5" ] && ok || fail "the checkpoint should be removed once result.h5 is written"
finish
