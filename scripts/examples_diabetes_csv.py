#!/usr/bin/python3
"""Writes the diabetes data of Efron et al. (2004), as shipped by Debian's python3-sklearn, as a CSV with a header
row (age, sex, bmi, bp, s1..s6, progression), plus 20 pure-noise columns (noise1..noise20, seeded), so
jobs/examples/diabetes.toml can show banditfs on real data with known irrelevant columns.

  /usr/bin/python3 scripts/examples_diabetes_csv.py results/examples/diabetes.csv
"""
import gzip
import os
import sys

import numpy as np

DATA = "/usr/lib/python3/dist-packages/sklearn/datasets/data"
NAMES = ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "results/examples/diabetes.csv"
    with gzip.open(os.path.join(DATA, "diabetes_data_raw.csv.gz"), "rt") as f:
        X = np.loadtxt(f)
    with gzip.open(os.path.join(DATA, "diabetes_target.csv.gz"), "rt") as f:
        y = np.loadtxt(f)
    noise = np.random.default_rng(2004).normal(size=(X.shape[0], 20))
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    header = NAMES + [f"noise{j + 1}" for j in range(20)] + ["progression"]
    np.savetxt(out, np.column_stack([X, noise, y]), delimiter=",", header=",".join(header), comments="", fmt="%.6g")
    print(f"wrote {out}: {X.shape[0]} rows, {len(NAMES)} real + 20 noise features, target 'progression'")


if __name__ == "__main__":
    main()
