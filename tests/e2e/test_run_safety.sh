#!/usr/bin/env bash
# The output directory: a failed write ends with a message and exit 1 (never a signal) and leaves the
# previous result intact; a second run into a busy directory is refused naming the holder; a kill between the
# renames of the output set is recognised; a checkpoint is never discarded silently; the "continue with" line
# repeats the whole command; a resume refusal names the differing keys; a directory or empty job file is not run
# silently; an input among the outputs is refused; the log keeps every run and the error that ended it.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
cd "$WORK"
tiny_job >job.toml
long_job() { tiny_job | sed 's/^iterations = 8/iterations = 100000/'; printf 'checkpoint_every = 20\n'; }
long_job >long.toml

# --- a full disk: a file-size limit with SIGXFSZ ignored (the writes fail with EFBIG) ----------------------------
"$BANDITFS" run job.toml --quiet --out full >/dev/null 2>&1 || fail "setup run"
cp full/result.h5 before.h5
for what in result simulate; do
  if [ $what = result ]; then cmd=("$BANDITFS" run job.toml --quiet --out full --set run.seed=9 --force)
  else cmd=("$BANDITFS" simulate friedman1 --n 3000 --p 200 --out full/sim.h5); fi
  err=$( (trap '' XFSZ; ulimit -f 12; "${cmd[@]}") 2>&1 >/dev/null); code=$?
  [ $code -eq 1 ] && ok || fail "full disk ($what): exit $code, expected 1 (a signal is > 128): $err"
  grep -q "banditfs: error:" <<<"$err" && ok || fail "full disk ($what): no error line: $err"
done
cmp -s before.h5 full/result.h5 && ok || fail "full disk: the previous result.h5 changed"
ls full/*.tmp full/*.staged full/sim.h5 >/dev/null 2>&1 && fail "full disk: temporary or partial files left" || ok
grep -q "the run failed" full/banditfs.log && ok || fail "the log does not hold the error that ended the run"
[ "$(grep -c '==== banditfs' full/banditfs.log)" -eq 2 ] && ok || fail "the log does not keep both runs"

# prepare-gkx on a full disk: exit 1, no panel left.
"$BANDITFS" simulate gkx-like --months 3 --stocks 300 --out gkx >/dev/null 2>&1 || fail "gkx-like setup"
err=$( (trap '' XFSZ; ulimit -f 30; "$BANDITFS" prepare-gkx --characteristics gkx/characteristics.csv \
  --returns gkx/returns.csv --riskfree gkx/riskfree.csv --from 2010-01 --to 2010-03 --out gkx/panel.h5) 2>&1 >/dev/null)
code=$?
[ $code -eq 1 ] && [ ! -e gkx/panel.h5 ] && ! ls gkx/*.tmp >/dev/null 2>&1 && ok || fail "full disk (prepare-gkx): exit $code: $err"

# A file-size limit with SIGXFSZ at its default action (which would kill the process, leaving temporaries): banditfs
# ignores the signal itself, so each writer fails with EFBIG through the same clean path.
# (A shell cannot reset a signal ignored when it started, so a small exec wrapper restores the default action.)
default_xfsz() {
  $PY -c 'import os, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' "$@"
}
for what in run simulate simulate_csv prepare; do
  case $what in
  run) cmd=("$BANDITFS" run job.toml --quiet --out full --set run.seed=9 --force) target=full/result.h5 ;;
  simulate) cmd=("$BANDITFS" simulate friedman1 --n 3000 --p 200 --out full/sim.h5) target=full/sim.h5 ;;
  simulate_csv) cmd=("$BANDITFS" simulate cmab-hte --n 20000 --out full/log.csv) target=full/log.csv ;;
  prepare) cmd=("$BANDITFS" prepare-gkx --characteristics gkx/characteristics.csv --returns gkx/returns.csv
    --riskfree gkx/riskfree.csv --from 2010-01 --to 2010-03 --out gkx/panel.h5) target=gkx/panel.h5 ;;
  esac
  err=$( (ulimit -f 12; default_xfsz "${cmd[@]}") 2>&1 >/dev/null); code=$?
  [ $code -eq 1 ] && grep -q "banditfs: error:.*$target" <<<"$err" && ok ||
    fail "SIGXFSZ not ignored by the caller ($what): exit $code, expected 1 and a message naming $target: $err"
  [ $what = run ] || [ ! -e "$target" ] && ok || fail "SIGXFSZ ($what): a partial $target was left"
done
cmp -s before.h5 full/result.h5 && ok || fail "SIGXFSZ: the previous result.h5 changed"
ls full/*.tmp full/*.staged gkx/*.tmp >/dev/null 2>&1 && fail "SIGXFSZ: temporary files left" || ok

# A full disk while writing a checkpoint: same outcome.
err=$( (trap '' XFSZ; ulimit -f 12; "$BANDITFS" run long.toml --quiet --out fullck --set data.p=400) 2>&1 >/dev/null); code=$?
[ $code -eq 1 ] && grep -q "checkpoint" <<<"$err" && ok || fail "full disk at a checkpoint: exit $code: $err"

# --- an output directory that cannot be written: the cause is named --------------------------------------------------
mkdir -p out-lockdir/.banditfs.lock
expect_error lockdir "cannot open the lock file 'out-lockdir/.banditfs.lock': Is a directory" -- \
  "$BANDITFS" run job.toml --quiet --out out-lockdir

# --- writers create the missing parent directories of their output file, as run does -------------------------------
"$BANDITFS" simulate friedman1 --n 50 --p 5 --out new/a/sim.h5 >/dev/null 2>&1 && [ -f new/a/sim.h5 ] && ok ||
  fail "simulate does not create the parent directories of --out"
"$BANDITFS" simulate cmab-hte --n 50 --out new/b/log.csv >/dev/null 2>&1 && [ -f new/b/log.csv ] && ok ||
  fail "simulate (CSV) does not create the parent directories of --out"
"$BANDITFS" prepare-gkx --characteristics gkx/characteristics.csv --returns gkx/returns.csv \
  --riskfree gkx/riskfree.csv --from 2010-01 --to 2010-03 --out new/c/panel.h5 >/dev/null 2>&1 && [ -f new/c/panel.h5 ] &&
  ok || fail "prepare-gkx does not create the parent directories of --out"

# --- two runs into one directory -----------------------------------------------------------------------------------
"$BANDITFS" run long.toml --quiet --out busy >/dev/null 2>&1 &
holder=$!
for _ in $(seq 50); do [ -s busy/.banditfs.lock ] && break; sleep 0.1; done
expect_error busy "is in use by another banditfs run (pid $holder" -- "$BANDITFS" run job.toml --quiet --out busy
kill -TERM $holder; wait $holder
[ -f busy/checkpoint.h5 ] && ok || fail "the interrupted holder left no checkpoint"

# --- a checkpoint is not discarded without --force; the continue line; the resume refusal names the keys ----------
expect_error ckpt "holds an interrupted run's progress; continue it with --resume, or start over with --force" \
  -- "$BANDITFS" run long.toml --quiet --out busy
"$BANDITFS" run long.toml --quiet --out sig --set reward.threshold=0.02 >/dev/null 2>&1 &
pid=$!
sleep 1.5; kill -TERM $pid; wait $pid
line=$(grep "continue with:" sig/banditfs.log)
grep -qF -- "--set reward.threshold=0.02 --resume" <<<"$line" && ok || fail "continue line drops --set: $line"
expect_error keys "reward.threshold (checkpoint 0.02, this job 0.01)" -- "$BANDITFS" run long.toml --quiet --out sig --resume
"$BANDITFS" run job.toml --quiet --out busy --force >/dev/null 2>&1 && [ ! -f busy/checkpoint.h5 ] && [ -f busy/result.h5 ] &&
  ok || fail "--force did not start over"
# --resume and --force together: refused, saying what each does; the checkpoint is kept.
expect_error resume_force "--resume and --force contradict each other: --resume continues" -- \
  "$BANDITFS" run long.toml --quiet --out sig --resume --force
[ -f sig/checkpoint.h5 ] && ok || fail "--resume --force deleted the checkpoint"
# A result.h5 where a checkpoint is expected is named as a result, not as a checkpoint missing a dataset.
mkdir -p out-as_checkpoint && cp busy/result.h5 out-as_checkpoint/checkpoint.h5
expect_error as_checkpoint "this is a run's result (result.h5), not a checkpoint" -- \
  "$BANDITFS" run job.toml --quiet --out out-as_checkpoint --resume

# An error that ends a run is printed once on a terminal (the "banditfs: error:" line), and the log still holds it.
mkdir -p tty_once && cp busy/result.h5 tty_once/checkpoint.h5
tty_err=$(script -qec "$(printf '%q ' "$BANDITFS" run job.toml --quiet --out tty_once --resume)" /dev/null 2>&1)
[ "$(grep -c "this is a run's result" <<<"$tty_err")" -eq 1 ] && grep -q "banditfs: error:" <<<"$tty_err" && ok ||
  fail "an error is not printed exactly once on a terminal: $tty_err"
grep -q "error the run failed: .*this is a run's result" tty_once/banditfs.log && ok ||
  fail "the log does not hold the error of a run on a terminal"
# Redirected (a batch job's log): the timestamped log line stays beside the error line.
err=$("$BANDITFS" run job.toml --quiet --out tty_once --resume 2>&1 >/dev/null)
grep -q "error the run failed" <<<"$err" && grep -q "banditfs: error:" <<<"$err" && ok ||
  fail "a redirected stderr lost the log line or the error line: $err"

# --- jobs without run.out: each its own directory; another job's result is replaced only with --force -------------
mkdir stems && (cd stems && tiny_job >alpha.toml && tiny_job | sed 's/^seed = 3/seed = 5/' >beta.toml &&
  "$BANDITFS" run alpha.toml --quiet >/dev/null 2>&1 && "$BANDITFS" run beta.toml --quiet >/dev/null 2>&1)
[ -f stems/results/alpha/result.h5 ] && [ -f stems/results/beta/result.h5 ] && ok ||
  fail "jobs without run.out do not default to results/<job file stem>: $(ls -R stems/results 2>&1)"
cp stems/results/alpha/result.h5 alpha_before.h5
expect_error another_job "holds the result of another job than 'beta.toml' (run.seed (result 3, this job 5))" -- \
  bash -c "cd stems && '$BANDITFS' run beta.toml --quiet --out results/alpha"
cmp -s alpha_before.h5 stems/results/alpha/result.h5 && ok || fail "a refused run replaced another job's result"
(cd stems && "$BANDITFS" run alpha.toml --quiet --set run.threads=1 >/dev/null 2>&1) && ok ||
  fail "the same job (another thread count) may not replace its own result"
(cd stems && "$BANDITFS" run beta.toml --quiet --out results/alpha --force >/dev/null 2>&1) &&
  ! cmp -s alpha_before.h5 stems/results/alpha/result.h5 && ok || fail "--force does not replace another job's result"

# --- a kill between the renames of the output set -------------------------------------------------------------------
"$BANDITFS" run job.toml --quiet --out torn >/dev/null 2>&1
BANDITFS_TEST_FAULT=kill-between-renames "$BANDITFS" run job.toml --quiet --out torn --set run.seed=4 --force >/dev/null 2>&1
[ $? -eq 137 ] && ok || fail "the test hook did not kill the run"
expect_error torn_inspect "does not match the run.json beside it" -- "$BANDITFS" inspect torn/result.h5
"$BANDITFS" run job.toml --quiet --out torn --set run.seed=4 --force >/dev/null 2>&1 && "$BANDITFS" inspect torn/result.h5 >/dev/null &&
  ok || fail "a new run does not mend a torn set"
ls torn/*.staged >/dev/null 2>&1 && fail "staged files left after a good run" || ok

# --- job files, inputs among outputs ----------------------------------------------------------------------------------
mkdir jobdir
expect_error dir_job "is not a regular file" -- "$BANDITFS" run jobdir --quiet --out out-dir_job
: >empty.toml
"$BANDITFS" run empty.toml --quiet --out empty --set bandit.iterations=2 --set data.p=20 2>empty.err >/dev/null
grep -q "job file 'empty.toml' is empty: running the built-in defaults (method bandit" empty.err && ok ||
  fail "an empty job runs without a warning: $(cat empty.err)"
mkdir -p inout
printf 'a,b,y\n' >inout/summary.csv
for i in $(seq 40); do printf '%s,%s,%s\n' $i $((i * 7 % 11)) $((i % 5)) >>inout/summary.csv; done
printf '[data]\nsource = "csv"\npath = "inout/summary.csv"\ntarget = "y"\n[bandit]\niterations = 2\n' >csv.toml
expect_error inout 'data.path = "inout/summary.csv" is the run'"'"'s own output' -- "$BANDITFS" run csv.toml --quiet --out inout
[ "$(wc -l <inout/summary.csv)" -eq 41 ] && ok || fail "the input CSV was overwritten"
finish
