#!/usr/bin/env bash
# `banditfs evaluate`: a FUSE result's ranking (or the lasso's entry order, --rank-by lasso) judged by
# the svm on held-out rows. The CSV has one row per
# size with the top-k features in rank order, errors and AUCs in [0, 1], and is the same on a second run; bad input
# (a size beyond the features, a test file with other columns, an unknown learner, a result whose features are not
# columns of the training file) gives one message naming the option or file, exit ≠ 0 and no CSV.
source "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

"$BANDITFS" simulate madelon-like --n 500 --p 60 --seed 3 --out "$WORK/all.h5" >/dev/null || fail "simulate failed"
split() {  # split SRC FIRST COUNT DST [DROP-COLUMN]
  $PY - "$@" <<'PYEOF'
import sys, h5py
src, first, count, dst = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
drop = int(sys.argv[5]) if len(sys.argv) > 5 else None
with h5py.File(src, "r") as f, h5py.File(dst, "w") as g:
    n = f["y"].shape[0]
    for k in ("X", "y"):
        d = f[k][first:first + count]
        if k == "X" and drop is not None:
            d = d[:, [j for j in range(d.shape[1]) if j != drop]]
        g.create_dataset(k, data=d)
    names = list(f["feature_names"][()])
    if drop is not None:
        del names[drop]
    g.create_dataset("feature_names", data=names)
PYEOF
}
split "$WORK/all.h5" 0 350 "$WORK/train.h5"
split "$WORK/all.h5" 350 150 "$WORK/test.h5"
split "$WORK/all.h5" 350 150 "$WORK/test_fewer.h5" 4
printf '[method]\nname = "fuse"\niterations = 600\nreward_subsample = 60\n[data]\nsource = "hdf5"\npath = "%s"\n[run]\nseed = 2\n' \
  "$WORK/train.h5" >"$WORK/fuse.toml"
"$BANDITFS" run "$WORK/fuse.toml" --quiet --out "$WORK/fuse" >/dev/null 2>"$WORK/fuse.err" && ok ||
  fail "fuse run: $(cat "$WORK/fuse.err")"

evaluate() { "$BANDITFS" evaluate "$WORK/fuse/result.h5" --train "$WORK/train.h5" --test "$WORK/test.h5" "$@"; }
evaluate --sizes 1,3,10,30 --out "$WORK/a.csv" 2>"$WORK/a.err" && ok || fail "evaluate: $(cat "$WORK/a.err")"
evaluate --sizes 1,3,10,30 >"$WORK/b.csv" 2>"$WORK/b.err" && ok || fail "evaluate to stdout: $(cat "$WORK/b.err")"
cmp -s "$WORK/a.csv" "$WORK/b.csv" && ok || fail "a second evaluation differs"
$PY - "$WORK/a.csv" "$WORK/fuse/result.h5" <<'PYEOF' && ok || fail "evaluate CSV contents"
import csv, sys, h5py
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["size"] for r in rows] == ["1", "3", "10", "30"], rows
f = h5py.File(sys.argv[2], "r")
names = [n.decode() for n in f["feature_names"][()]]
by_rank = [names[i] for i in sorted(range(len(names)), key=lambda i: f["rank"][i])]
for r in rows:
    feats = r["features"].split(";")
    assert feats == by_rank[:int(r["size"])], (feats, by_rank)
    assert 0.0 <= float(r["test_error"]) <= 1.0 and 0.0 <= float(r["test_auc"]) <= 1.0
assert float(rows[-1]["test_error"]) < 0.5, "the svm on every column should beat chance"
PYEOF
# Progress on stderr, one line per size (stdout stays the CSV); no warning for a learner that uses its columns.
[ "$(grep -c '^evaluate: size [0-9]* ([1-4]/4): svm test error' "$WORK/b.err")" -eq 4 ] && ok ||
  fail "evaluate prints no progress line per size: $(cat "$WORK/b.err")"
! grep -q "warning" "$WORK/b.err" && ok || fail "a warning for the svm: $(cat "$WORK/b.err")"
# A learner that predicts one value for every test row scores AUC 0.5 at every size: a warning says why. Lasso at its
# default lambda on a 0/1 target that the columns do not predict (y permuted, seeded) keeps no column.
$PY - "$WORK/train.h5" "$WORK/test.h5" "$WORK/null_train.h5" "$WORK/null_test.h5" <<'PYEOF' || fail "null split"
import shutil, sys, h5py, numpy as np
for src, dst, seed in ((sys.argv[1], sys.argv[3], 1), (sys.argv[2], sys.argv[4], 2)):
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        f["y"][...] = np.random.default_rng(seed).permutation(f["y"][()])
PYEOF
"$BANDITFS" evaluate --rank-by lasso --learner lasso --train "$WORK/null_train.h5" --test "$WORK/null_test.h5" \
  --sizes 2,30 >"$WORK/lasso_lasso.csv" 2>"$WORK/lasso_lasso.err" || fail "evaluate --learner lasso: $(cat "$WORK/lasso_lasso.err")"
[ "$(cut -d, -f3 "$WORK/lasso_lasso.csv" | tail -n +2 | sort -u)" = "0.5" ] && ok ||
  fail "the null lasso's AUC is not 0.5: $(cat "$WORK/lasso_lasso.csv")"
grep -q "banditfs: warning: evaluate: --learner lasso predicts the same value for every test row at sizes 2, 30" \
  "$WORK/lasso_lasso.err" && ok || fail "AUC 0.5 at every size without a warning: $(cat "$WORK/lasso_lasso.err")"
grep -q "^evaluate: ranking the 350 training rows' 60 columns by lasso" "$WORK/lasso_lasso.err" && ok ||
  fail "no line before the lasso ranking: $(cat "$WORK/lasso_lasso.err")"

# The logistic lasso's entry order on the training rows instead of a result.
"$BANDITFS" evaluate --rank-by lasso --train "$WORK/train.h5" --test "$WORK/test.h5" --sizes 2,30 \
  >"$WORK/lasso.csv" 2>"$WORK/lasso.err" && ok || fail "evaluate --rank-by lasso: $(cat "$WORK/lasso.err")"
$PY - "$WORK/lasso.csv" <<'PYEOF' && ok || fail "lasso ranking CSV"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert [r["size"] for r in rows] == ["2", "30"] and len(set(rows[1]["features"].split(";"))) == 30, rows
assert rows[1]["features"].startswith(rows[0]["features"] + ";")
PYEOF
"$BANDITFS" evaluate --rank-by gini-rf --train "$WORK/train.h5" --test "$WORK/test.h5" --sizes 5 \
  >"$WORK/rf.csv" 2>"$WORK/rf.err" && ok || fail "evaluate --rank-by gini-rf: $(cat "$WORK/rf.err")"
$PY - "$WORK/rf.csv" "$WORK/all.h5" <<'PYEOF' && ok || fail "gini-rf ranking CSV"
import csv, sys, h5py
rows = list(csv.DictReader(open(sys.argv[1])))
f = h5py.File(sys.argv[2], "r")
truth = {f["feature_names"][i].decode() for i in f["truth"][()]}
top = rows[0]["features"].split(";")
assert len(top) == 5 and set(top) <= truth, (top, truth)  # 20 of 60 columns are relevant: all 5 by chance 0.3%
PYEOF
expect_error both "not both and not neither" -- evaluate --rank-by lasso
expect_error rank_by "--rank-by 'gini' is not a ranking" -- \
  "$BANDITFS" evaluate --rank-by gini --train "$WORK/train.h5" --test "$WORK/test.h5"
# A failed rewrite (a full disk: a file-size limit of 1 KiB, SIGXFSZ ignored) exits 1 naming the file and leaves the
# previous CSV byte-identical, with no .tmp beside it.
before=$(sha256sum "$WORK/a.csv")
err=$( (trap '' XFSZ; ulimit -f 1; evaluate --learner lasso --sizes "$(seq -s, 1 60)" --out "$WORK/a.csv") 2>&1 >/dev/null)
code=$?
[ "$code" -eq 1 ] && [[ "$err" == *"cannot write '$WORK/a.csv'"* ]] && ok ||
  fail "evaluate on a full disk: exit $code, message: $err"
[ "$(sha256sum "$WORK/a.csv")" == "$before" ] && [ ! -e "$WORK/a.csv.tmp" ] && ok ||
  fail "a failed evaluate changed a.csv or left a.csv.tmp"
# The same with SIGXFSZ at its default action (which would kill the process): evaluate ignores it itself.
err=$( (ulimit -f 1; /usr/bin/python3 -c 'import os, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$BANDITFS" evaluate "$WORK/fuse/result.h5" --train "$WORK/train.h5" \
  --test "$WORK/test.h5" --learner lasso --sizes "$(seq -s, 1 60)" --out "$WORK/a.csv") 2>&1 >/dev/null)
code=$?
[ "$code" -eq 1 ] && [[ "$err" == *"cannot write '$WORK/a.csv'"* ]] && ok ||
  fail "evaluate past a file-size limit, SIGXFSZ not ignored by the caller: exit $code, message: $err"
[ "$(sha256sum "$WORK/a.csv")" == "$before" ] && [ ! -e "$WORK/a.csv.tmp" ] && ok ||
  fail "a failed evaluate (SIGXFSZ) changed a.csv or left a.csv.tmp"

expect_error size_beyond "--sizes: 61 is not in 1..60" -- evaluate --sizes 5,61 --out "$WORK/c.csv"
[ ! -e "$WORK/c.csv" ] && ok || fail "a refused evaluation wrote its CSV"
expect_error other_columns "test_fewer.h5 does not have the columns of" -- \
  "$BANDITFS" evaluate "$WORK/fuse/result.h5" --train "$WORK/train.h5" --test "$WORK/test_fewer.h5"
expect_error learner "--learner 'knn' is not an estimator name" -- evaluate --learner knn
expect_error missing_feature "is not a column of" -- \
  "$BANDITFS" evaluate "$WORK/fuse/result.h5" --train "$WORK/test_fewer.h5" --test "$WORK/test_fewer.h5"
finish
