# shellcheck shell=bash
# Sourced by the test_slurm_*.sh tests (not a test itself): lib.sh's helpers, plus a private single-node SLURM
# (scripts/local-slurm.sh) started here and stopped on exit, pass or fail. Without root, munge or SLURM the test
# fails (it does not skip). Usage: source "$(dirname "$0")/test_slurm_lib.sh" BANDITFS ROOT
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Tasks per run: the number of MPI ranks of every job these tests submit. With 1, `srun` starts one banditfs;
# with 2 it starts one distributed run over 2 ranks (needs MPI in banditfs).
# shellcheck disable=SC2034  # used by the test scripts
NTASKS="${BANDITFS_TEST_NTASKS:-1}"

# Open MPI as root, oversubscribed, one thread per rank: exported here, sbatch passes the environment on.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS=1
BANDITFS=$(realpath "$BANDITFS")  # jobs run in another directory
ROOT=$(realpath "$ROOT")
export BANDITFS
# A surrounding SLURM job (CI inside an allocation) must not leak into the jobs submitted here.
while read -r var; do unset "$var"; done < <(env | sed -n 's/^\(\(SLURM\|SBATCH\|SRUN\|SALLOC\)_[A-Za-z0-9_]*\)=.*/\1/p')

# The cluster lives in a directory of its own (munged must be able to reach it: not under the 0700 $WORK).
export BANDITFS_SLURM_DIR
BANDITFS_SLURM_DIR=$(mktemp -d /tmp/banditfs-slurm-test.XXXXXX)
chmod 755 "$BANDITFS_SLURM_DIR"
SUBMIT="$WORK/submit"  # sbatch runs here: job files, outputs and SLURM's .out files
mkdir -p "$SUBMIT"

slurm_cleanup() {
  local code=$?
  bash "$ROOT/scripts/local-slurm.sh" down
  rm -rf "$WORK" "$BANDITFS_SLURM_DIR"
  exit $code
}
trap slurm_cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# If this test is killed outright (a CTest timeout sends KILL, and no trap runs), a detached watchdog stops the
# cluster once the test's process is gone.
setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 2; done; bash "$2/scripts/local-slurm.sh" down; rm -rf "$3"' \
  watchdog $$ "$ROOT" "$BANDITFS_SLURM_DIR" </dev/null >/dev/null 2>&1 &

if ! env_line=$(bash "$ROOT/scripts/local-slurm.sh" up); then
  echo "FAIL: the local SLURM did not start (needs root, slurm-wlm and munge: scripts/install-deps.sh)" >&2
  exit 1
fi
eval "$env_line"  # export SLURM_CONF=...

# submit_wait SECONDS SBATCH-ARGS...: sbatch --wait in $SUBMIT, killed after SECONDS; returns sbatch's code (the
# job's exit code).
submit_wait() {
  local seconds="$1"
  shift
  (cd "$SUBMIT" && timeout "$seconds" sbatch --wait "$@")
}

# job_field ID FIELD: a field of `scontrol show job` (e.g. JobState, Restarts, ExitCode).
job_field() { scontrol show job "$1" -o 2>/dev/null | head -n1 | grep -o "\b$2=[^ ]*" | head -n1 | cut -d= -f2-; }

# show_outputs: SLURM's output files and the controller's log, for a failed test.
show_outputs() {
  local f
  for f in "$SUBMIT"/*.out; do
    [ -e "$f" ] || continue
    echo "---- $f" >&2
    grep -v '^  ' "$f" | tail -n 40 >&2
  done
  echo "---- slurmctld.log (last 15 lines)" >&2
  tail -n 15 "$BANDITFS_SLURM_DIR/log/slurmctld.log" >&2 2>/dev/null
}
