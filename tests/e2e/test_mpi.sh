#!/usr/bin/env bash
# The distributed CLI under mpirun: `mpirun -n K banditfs run` gives the single-process result.h5 datasets
# bit for bit (K = 2, 3; G = 1, 4); SIGUSR1 to mpirun checkpoints and exits 0, and --resume at another rank count
# finishes identically; an error on a worker rank ends the whole job with one clear line and a non-zero exit; a
# worker killed from outside ends the job within seconds and the last checkpoint stays readable.
source "$(dirname "$0")/lib.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
mpi() { local k="$1"; shift; timeout 120 mpirun -n "$k" "$BANDITFS" "$@"; }
# Background runs start mpirun itself (not through a function or `timeout`), so that $! is mpirun's pid.

tiny_job | sed 's/^iterations = 8/iterations = 10/' >"$WORK/job.toml"
"$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/serial" >/dev/null 2>&1 || fail "serial run failed"
"$BANDITFS" run "$WORK/job.toml" --quiet --out "$WORK/serial-g4" --set bandit.arms_per_round=4 >/dev/null 2>&1 ||
  fail "serial G=4 run failed"
for k in 2 3; do
  mpi "$k" run "$WORK/job.toml" --quiet --out "$WORK/mpi-$k" >/dev/null 2>"$WORK/err-$k" || fail "mpirun -n $k failed: $(cat "$WORK/err-$k")"
  result=$(compare_datasets "$WORK/serial/result.h5" "$WORK/mpi-$k/result.h5")
  [ "$result" = same ] && ok || fail "$k ranks differ from one process: $result"
  mpi "$k" run "$WORK/job.toml" --quiet --out "$WORK/mpi-g4-$k" --set bandit.arms_per_round=4 >/dev/null 2>&1 ||
    fail "mpirun -n $k G=4 failed"
  result=$(compare_datasets "$WORK/serial-g4/result.h5" "$WORK/mpi-g4-$k/result.h5")
  [ "$result" = same ] && ok || fail "$k ranks, G=4 differ from one process: $result"
done
grep -q '"ranks": 3' "$WORK/mpi-3/run.json" && ok || fail "run.json does not record 3 ranks"
[ ! -e "$WORK/mpi-2/checkpoint.h5" ] && ok || fail "a completed run left its checkpoint"

# SIGUSR1 to mpirun reaches the ranks: rank 0 checkpoints at the end of the round, every rank exits 0.
tiny_job | sed 's/^iterations = 8/iterations = 4000/' >"$WORK/long.toml"
mpirun -n 2 "$BANDITFS" run "$WORK/long.toml" --quiet --out "$WORK/usr1" >/dev/null 2>"$WORK/err-usr1" &
pid=$!
for _ in $(seq 100); do [ -s "$WORK/usr1/banditfs.log" ] && break; sleep 0.1; done
sleep 1
kill -USR1 "$pid"
wait "$pid"
code=$?
[ "$code" -eq 0 ] && ok || fail "SIGUSR1: mpirun exit code $code: $(cat "$WORK/err-usr1")"
[ -s "$WORK/usr1/checkpoint.h5" ] && [ ! -e "$WORK/usr1/result.h5" ] && ok || fail "SIGUSR1: no checkpoint, or a result"

# An error only a worker meets (a period with a constant target: rank 0 never loads rows) ends the whole job.
"$BANDITFS" simulate friedman1 --n 60 --p 10 --periods 3 --seed 2 --out "$WORK/panel.h5" >/dev/null
/usr/bin/python3 - "$WORK/panel.h5" <<'PYEOF'
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    o = f["period_offsets"][()]
    y = f["y"][()]
    y[o[1]:o[2]] = 1.5
    f["y"][...] = y
PYEOF
cat >"$WORK/panel.toml" <<TOML
[data]
source = "hdf5"
path = "$WORK/panel.h5"
[estimator]
name = "lasso"
[bandit]
mode = "online"
iterations_per_period = 3
[run]
seed = 1
checkpoint_every = 1
TOML
start=$(date +%s)
err=$(mpi 2 run "$WORK/panel.toml" --quiet --out "$WORK/worker-error" 2>&1 >/dev/null)
code=$?
[ "$code" -ne 0 ] && ok || fail "a worker's error did not fail the job"
[ "$(grep -c 'banditfs: error' <<<"$err")" -eq 1 ] && grep -q "period 1 of .*constant" <<<"$err" && ok ||
  fail "expected one clear error line naming period 1, got: $err"
[ $(( $(date +%s) - start )) -lt 60 ] && ok || fail "the failing job took over a minute to end"
"$BANDITFS" inspect "$WORK/worker-error/checkpoint.h5" >/dev/null 2>&1 && ok ||
  fail "the last checkpoint is not readable after the failure"
[ ! -e "$WORK/worker-error/result.h5" ] && ok || fail "a failed job wrote result.h5"

# A worker rank killed from outside ends the job within seconds; the checkpoint stays readable.
mpirun -n 2 "$BANDITFS" run "$WORK/long.toml" --quiet --out "$WORK/killed" --set run.checkpoint_every=5 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do [ -s "$WORK/killed/checkpoint.h5" ] && break; sleep 0.05; done
worker=""
for child in $(pgrep -P "$pid"); do
  tr '\0' '\n' <"/proc/$child/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && worker=$child
done
if [ -n "$worker" ]; then
  kill -KILL "$worker"
  start=$(date +%s)
  wait "$pid"
  code=$?
  [ "$code" -ne 0 ] && ok || fail "killing a worker did not fail the job"
  [ $(( $(date +%s) - start )) -lt 20 ] && ok || fail "the job took over 20 s to end after a worker was killed"
  "$BANDITFS" inspect "$WORK/killed/checkpoint.h5" >/dev/null 2>&1 && ok || fail "checkpoint unreadable after kill"
else
  fail "could not find rank 1 among mpirun's children"
  kill -KILL "$pid" 2>/dev/null
fi
finish
