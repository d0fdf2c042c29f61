# Shared helpers of the e2e scripts: a temp dir removed on exit, and assertions that count passes and failures.
set -uo pipefail
BANDITFS="$1"
ROOT="$2"
# The runs here take the threads they ask for (several compare 1 and 2): without a chosen policy, banditfs would
# give a run fewer threads while other tests keep the CPUs busy (cli/wait_policy.hpp). test_wait_policy.sh unsets it.
export OMP_WAIT_POLICY=passive
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PASSED=0
FAILED=0
ok() { PASSED=$((PASSED + 1)); }
fail() { echo "FAIL: $*" >&2; FAILED=$((FAILED + 1)); }
# A tiny job; extra TOML lines can be appended by the caller.
tiny_job() {
  cat <<TOML
[data]
source = "simulate"
dgp = "friedman1"
n = 120
p = 20
[estimator]
name = "random_forest"
n_estimators = 20
max_depth = 5
[bandit]
iterations = 8
[run]
seed = 3
TOML
}
# run_job NAME TOML-TEXT [extra args]: writes $WORK/NAME.toml and runs it quietly into $WORK/out-NAME.
run_job() {
  local name="$1" text="$2"
  shift 2
  printf '%s\n' "$text" >"$WORK/$name.toml"
  "$BANDITFS" run "$WORK/$name.toml" --quiet --out "$WORK/out-$name" "$@"
}
# expect_error NAME "message fragment" -- command...: the command must exit non-zero, print the fragment on
# stderr as one "banditfs: error:" line, and leave no result.h5 in $WORK/out-NAME.
expect_error() {
  local name="$1" fragment="$2"
  shift 3
  local err
  err=$("$@" 2>&1 >/dev/null)
  local code=$?
  if [ $code -eq 0 ]; then fail "$name: exit code 0"; return; fi
  if ! grep -q "banditfs: error:" <<<"$err"; then fail "$name: no 'banditfs: error:' line in: $err"; return; fi
  if ! grep -qF -- "$fragment" <<<"$err"; then fail "$name: expected '$fragment' in: $err"; return; fi
  if [ -e "$WORK/out-$name/result.h5" ] || ls "$WORK/out-$name"/*.tmp >/dev/null 2>&1; then
    fail "$name: left a result behind"; return
  fi
  ok
}
finish() {
  echo "$PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
}
# compare_datasets A.h5 B.h5: prints "same" when every dataset of the two files has identical bytes (and there are
# some), else "differ: <names>".
compare_datasets() {
  /usr/bin/python3 - "$1" "$2" <<'PYEOF'
import sys, h5py
def datasets(path):
    out = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, obj: out.__setitem__(name, obj[()].tobytes()) if isinstance(obj, h5py.Dataset) else None)
    return out
a, b = datasets(sys.argv[1]), datasets(sys.argv[2])
print("same" if a == b and len(a) > 5 else "differ: " + ", ".join(k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)))
PYEOF
}
