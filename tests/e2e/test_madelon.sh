#!/usr/bin/env bash
# `simulate madelon-like` end to end: a tiny file's shape, labels and truth; the same seed gives the same
# data; a bad value and an option of another DGP are refused with one message and no file.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

"$BANDITFS" simulate madelon-like --n 64 --p 30 --informative 5 --redundant 3 --seed 4 --out "$WORK/m.h5" >/dev/null &&
  ok || fail "simulate madelon-like"
"$BANDITFS" simulate madelon-like --n 64 --p 30 --informative 5 --redundant 3 --seed 4 --out "$WORK/m2.h5" \
  >/dev/null && ok || fail "simulate madelon-like again"
"$PY" - "$WORK/m.h5" "$WORK/m2.h5" <<'PYEOF' && ok || fail "same seed, different datasets"
import sys, h5py
def datasets(path):
    with h5py.File(path, "r") as f:
        return [f[k][()].tobytes() for k in ("X", "y", "truth")] + [f["feature_names"][()].tolist()]
sys.exit(0 if datasets(sys.argv[1]) == datasets(sys.argv[2]) else 1)
PYEOF

shape=$("$PY" - "$WORK/m.h5" <<'PYEOF'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    X, y, truth = f["X"][()], f["y"][()], f["truth"][()]
    print(X.shape[0], X.shape[1], len(y), sorted(set(np.asarray(y).ravel().tolist())), len(truth))
PYEOF
)
[ "$shape" = "64 30 64 [0.0, 1.0] 8" ] && ok || fail "shape/labels/truth: '$shape'"

expect_error bad_flip "--flip-y" -- "$BANDITFS" simulate madelon-like --flip-y 2 --out "$WORK/bad.h5"
expect_error periods "--periods" -- "$BANDITFS" simulate madelon-like --periods 2 --out "$WORK/bad.h5"
expect_error foreign "--informative" -- "$BANDITFS" simulate friedman1 --informative 5 --out "$WORK/bad.h5"
[ ! -e "$WORK/bad.h5" ] && [ ! -e "$WORK/bad.h5.tmp" ] && ok || fail "a refused simulate left a file"

finish
