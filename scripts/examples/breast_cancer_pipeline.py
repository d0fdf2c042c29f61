#!/usr/bin/env python3
"""Notebook-style: the Wisconsin breast cancer data (scikit-learn's copy: 569 tumours, 30 features) in a Pipeline
with a logistic regression, scored by 5-fold cross_val_score with and without BanditSelector in front, and the
features the bandit keeps on all rows. docs/python.md.

    /usr/bin/python3 scripts/examples/breast_cancer_pipeline.py [--iterations 200] [--threads 2]
"""
import argparse
import time

from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from banditfs import BanditSelector

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--iterations", type=int, default=200, help="bandit.iterations (default 200)")
parser.add_argument("--threads", type=int, default=2, help="run.threads (default 2)")
parser.add_argument("--seed", type=int, default=1, help="run.seed (default 1)")
args = parser.parse_args()

X, y = load_breast_cancer(return_X_y=True, as_frame=True)  # y: 0 = malignant, 1 = benign
folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
logistic = LogisticRegression(max_iter=5000)
selector = BanditSelector(task="binary", metric="auc", iterations=args.iterations,
                          estimator_params={"n_estimators": 100, "max_depth": 10, "max_features": 0.33},
                          random_state=args.seed, n_jobs=args.threads)

for name, model in [("all 30 features", make_pipeline(StandardScaler(), logistic)),
                    ("BanditSelector", make_pipeline(selector, StandardScaler(), logistic))]:
    start = time.perf_counter()
    scores = cross_val_score(model, X, y, cv=folds, scoring="roc_auc")
    print(f"{name:16s} AUC {scores.mean():.4f} ± {scores.std():.4f} (5 folds, {time.perf_counter() - start:.1f} s)")

selector.fit(X, y)
kept = selector.get_feature_names_out()
print(f"selected on all rows: {len(kept)} of {X.shape[1]}: {', '.join(kept)}")
print("top 5 by importance:",
      ", ".join(f"{X.columns[j]} {selector.importances_[j]:.3f}" for j in selector.importances_.argsort()[::-1][:5]))
