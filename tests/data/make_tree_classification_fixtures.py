#!/usr/bin/python3
"""Fixtures for the binary tree estimators (tests/unit/estimators_trees/test_tree_classification.cpp).

Writes tests/data/classification/:
  trees_train.csv, trees_test.csv  columns x0..x7, y (0/1). x values are multiples of 1/256 (exact in float32 and
                                   in decimal), so C++ reads the very same float32 values.
  trees_sklearn.csv                key,value: scikit-learn references for our random_forest in binary mode.
  trees_xgboost.csv                margin,probability per test row: python xgboost binary:logistic with the
                                   parameters in trees_xgboost_params.csv (the ones our gbm passes to the same
                                   libxgboost 1.7.4).
  trees_xgboost_params.csv         key,value: those parameters.

Run with /usr/bin/python3 (python3-sklearn, python3-xgboost from Debian). Deterministic: rerunning rewrites the
same bytes.
"""
import os

import numpy as np
import sklearn
import xgboost as xgb
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "classification")
P = 8
N_TRAIN, N_TEST = 300, 200

# The forest the C++ test fits too (its RandomForestParams). max_features is a fraction, as ours.
RF = dict(n_estimators=200, max_depth=8, max_features=0.5)
RF_SEEDS = 20  # sklearn forests with different random_state: the seed-to-seed spread of the test AUC
# A single deterministic tree: every row (bootstrap=False), every column (max_features=1.0). Only ties between
# equally good splits of different columns could make two correct CART implementations differ.
TREE = dict(n_estimators=1, max_depth=4, max_features=1.0, bootstrap=False)

# What our gbm passes to XGBoost for these GbmParams (gbm.cpp) with validation_fraction = 0 (no early stopping).
# subsample = colsample = 1, so XGBoost's seed plays no role.
XGB_ROUNDS = 40
XGB = {
    "booster": "gbtree",
    "objective": "binary:logistic",
    "eval_metric": "logloss",
    "tree_method": "hist",
    "nthread": 1,
    "eta": 0.3,
    "max_depth": 4,
    "min_child_weight": 1.0,
    "lambda": 1.0,
    "colsample_bytree": 1.0,
    "subsample": 1.0,
    "max_bin": 256,
}


def make_rows(rng, n):
    """x ~ N(0,1) rounded to 1/256; P(y = 1) = σ(1.5 x0 − x1 + x2·x3 + 0.8·1[x4 > 0]); x5..x7 are noise."""
    X = np.round(rng.normal(size=(n, P)) * 256.0) / 256.0
    X = X.astype(np.float32)
    m = 1.5 * X[:, 0] - X[:, 1] + X[:, 2] * X[:, 3] + 0.8 * (X[:, 4] > 0)
    y = (rng.uniform(size=n) < 1.0 / (1.0 + np.exp(-m))).astype(np.float64)
    return X, y


def write_rows(path, X, y):
    with open(path, "w") as f:
        f.write(",".join([f"x{j}" for j in range(P)] + ["y"]) + "\n")
        for row, label in zip(X, y):
            f.write(",".join(repr(float(v)) for v in row) + f",{int(label)}\n")


def write_pairs(path, pairs):
    with open(path, "w") as f:
        f.write("key,value\n")
        for key, value in pairs:
            f.write(f"{key},{value}\n")


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(20240611)
    X_train, y_train = make_rows(rng, N_TRAIN)
    X_test, y_test = make_rows(rng, N_TEST)
    write_rows(os.path.join(OUT, "trees_train.csv"), X_train, y_train)
    write_rows(os.path.join(OUT, "trees_test.csv"), X_test, y_test)

    aucs = []
    for seed in range(RF_SEEDS):
        forest = RandomForestClassifier(random_state=seed, **RF).fit(X_train, y_train)
        aucs.append(roc_auc_score(y_test, forest.predict_proba(X_test)[:, 1]))
    tree = RandomForestClassifier(random_state=0, **TREE).fit(X_train, y_train)
    tree_proba = tree.predict_proba(X_test)[:, 1]
    pairs = [("sklearn_version", sklearn.__version__)]
    pairs += [(f"rf_{k}", v) for k, v in RF.items()]
    pairs += [("rf_auc_mean", repr(float(np.mean(aucs)))), ("rf_auc_sd", repr(float(np.std(aucs, ddof=1)))),
              ("rf_auc_min", repr(float(np.min(aucs)))), ("rf_auc_max", repr(float(np.max(aucs))))]
    pairs += [(f"tree_{k}", v) for k, v in TREE.items()]
    pairs += [(f"tree_proba_{i}", repr(float(v))) for i, v in enumerate(tree_proba)]
    write_pairs(os.path.join(OUT, "trees_sklearn.csv"), pairs)

    # base_score: our gbm starts from the mean training label (a probability for binary:logistic), printed %.17g.
    params = dict(XGB)
    params["base_score"] = "%.17g" % float(np.mean(y_train))
    booster = xgb.train(params, xgb.DMatrix(X_train, label=y_train.astype(np.float32)), XGB_ROUNDS)
    dtest = xgb.DMatrix(X_test)
    margin = booster.predict(dtest, output_margin=True)
    proba = booster.predict(dtest)
    with open(os.path.join(OUT, "trees_xgboost.csv"), "w") as f:
        f.write("margin,probability\n")
        for m, q in zip(margin, proba):
            f.write("%.9g,%.9g\n" % (m, q))  # 9 significant digits: a float32 round-trips exactly
    write_pairs(os.path.join(OUT, "trees_xgboost_params.csv"),
                [("xgboost_version", xgb.__version__), ("rounds", XGB_ROUNDS)] + sorted(params.items()))


if __name__ == "__main__":
    main()
