#!/usr/bin/python3
"""Writes the Wisconsin diagnostic breast cancer data (569 tumours, 30 features of the cell nuclei), as shipped by
Debian's python3-sklearn, as a CSV with a header row (scikit-learn's feature names with spaces replaced by '_') and
a `diagnosis` target column (0 = malignant, 1 = benign, as scikit-learn has it), so that
jobs/examples/breast_cancer.toml can show banditfs on a real binary target. The job appends its pure-noise columns
on the fly (data.noise_features), so none are written here.

  /usr/bin/python3 scripts/examples_breast_cancer_csv.py results/examples/breast_cancer.csv
"""
import os
import sys

import numpy as np
from sklearn.datasets import load_breast_cancer


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "results/examples/breast_cancer.csv"
    data = load_breast_cancer()  # reads sklearn/datasets/data/breast_cancer.csv: "569,30,malignant,benign" + rows
    X, y = data.data, data.target.astype(int)
    names = [str(n).replace(" ", "_") for n in data.feature_names]
    if X.shape != (569, 30) or set(np.unique(y)) != {0, 1}:
        sys.exit(f"unexpected breast cancer data: X {X.shape}, labels {np.unique(y)}")
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w") as f:
        f.write(",".join(names + ["diagnosis"]) + "\n")
        for row, label in zip(X, y):
            f.write(",".join(f"{v:.10g}" for v in row) + f",{label}\n")
    print(f"wrote {out}: {X.shape[0]} rows, {X.shape[1]} features, target 'diagnosis' "
          f"(1 = benign: {int(y.sum())}, 0 = malignant: {int((1 - y).sum())})")


if __name__ == "__main__":
    main()
