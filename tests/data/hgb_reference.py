#!/usr/bin/python3
"""scikit-learn's HistGradientBoosting on the data of tests/unit/estimators_trees/test_hgb.cpp: the
reference the hgb estimator is checked against.

For each case the script writes the data with banditfs itself (`banditfs simulate friedman1 --n N --p P --seed S`,
rows 0 … n_train − 1 train, the rest test), fits scikit-learn 1.2's HistGradientBoostingRegressor (or Classifier with
--binary data) with early stopping off and the case's settings, and records:
  * the first tree's splits in pre-order (scikit-learn's node order): column and threshold, and the leaf count;
  * the test R² (regression) or test accuracy (binary) of the whole model.
Writes tests/data/hgb_reference_cases.txt, one line per case:
    case NAME n_train p leaves trees min_leaf lr l2 binary  r2_or_accuracy  splits K  f0 t0 f1 t1 ...
Run from the repository root after building (the C++ test reads the file, so the test needs no Python):
    /usr/bin/python3 tests/data/hgb_reference.py build/banditfs
"""
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from sklearn.metrics import accuracy_score, r2_score

HERE = os.path.dirname(os.path.abspath(__file__))

# name, rows (train + test), p, n_train, max_leaf_nodes, max_iter, min_samples_leaf, learning_rate, l2, binary
CASES = [
    ("friedman1_p10", 3000, 10, 2000, 31, 100, 20, 0.1, 0.0, False),
    ("friedman1_p50_l2", 3000, 50, 2000, 15, 60, 10, 0.1, 1.0, False),
    ("friedman1_binary", 3000, 10, 2000, 31, 60, 20, 0.1, 0.0, True),
]


def preorder_splits(predictor):
    nodes = predictor.nodes
    out = []

    def walk(i):
        if nodes["is_leaf"][i]:
            return
        out.append((int(nodes["feature_idx"][i]), float(nodes["num_threshold"][i])))
        walk(int(nodes["left"][i]))
        walk(int(nodes["right"][i]))

    walk(0)
    return out, int(nodes["is_leaf"].sum())


def main():
    banditfs = sys.argv[1] if len(sys.argv) > 1 else "build/banditfs"
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, n, p, n_train, leaves, trees, min_leaf, lr, l2, binary in CASES:
            path = os.path.join(tmp, name + ".h5")
            cmd = [banditfs, "simulate", "friedman1", "--n", str(n), "--p", str(p), "--seed", "1", "--out", path]
            if binary:
                cmd.append("--binary")
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            with h5py.File(path, "r") as f:
                X = np.asarray(f["X"], dtype=np.float64)
                y = np.asarray(f["y"], dtype=np.float64)
            kw = dict(max_leaf_nodes=leaves, max_iter=trees, min_samples_leaf=min_leaf, learning_rate=lr,
                      l2_regularization=l2, max_bins=255, early_stopping=False, max_depth=None)
            model = (HistGradientBoostingClassifier if binary else HistGradientBoostingRegressor)(**kw)
            model.fit(X[:n_train], y[:n_train])
            pred = model.predict(X[n_train:])
            score = accuracy_score(y[n_train:], pred) if binary else r2_score(y[n_train:], pred)
            splits, n_leaves = preorder_splits(model._predictors[0][0])
            fields = ["case", name, n_train, p, leaves, trees, min_leaf, lr, l2, int(binary), repr(score), "splits",
                      len(splits), n_leaves]
            for feature, threshold in splits:
                fields += [feature, repr(threshold)]
            lines.append(" ".join(str(x) for x in fields))
    out = os.path.join(HERE, "hgb_reference_cases.txt")
    with open(out, "w") as f:
        f.write("# Written by tests/data/hgb_reference.py (scikit-learn HistGradientBoosting); see its docstring.\n")
        f.write("\n".join(lines) + "\n")
    print(out)


if __name__ == "__main__":
    main()
