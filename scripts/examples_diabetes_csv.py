#!/usr/bin/python3
"""Writes the diabetes data of Efron et al. (2004), as shipped by Debian's python3-sklearn, as a CSV with a header
row (age, sex, bmi, bp, s1..s6, progression), plus pure N(0,1) noise columns (noise1..noiseN, seeded), so
jobs/examples/diabetes.toml can show banditfs on real data with known irrelevant columns.

  /usr/bin/python3 scripts/examples_diabetes_csv.py results/examples/diabetes.csv
  # the calibrated-null study (docs/null.md): 500 noise columns, a fresh draw per seed
  /usr/bin/python3 scripts/examples_diabetes_csv.py results/examples/diabetes_wide_s1.csv --noise 500 --noise-seed 1
"""
import argparse
import gzip
import os
import sys

import numpy as np

DATA = "/usr/lib/python3/dist-packages/sklearn/datasets/data"
NAMES = ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default="results/examples/diabetes.csv")
    ap.add_argument("--noise", type=int, default=20, help="noise columns (default 20)")
    ap.add_argument("--noise-seed", type=int, default=2004, help="seed of the noise columns (default 2004)")
    args = ap.parse_args()
    out, count = args.out, args.noise
    with gzip.open(os.path.join(DATA, "diabetes_data_raw.csv.gz"), "rt") as f:
        X = np.loadtxt(f)
    with gzip.open(os.path.join(DATA, "diabetes_target.csv.gz"), "rt") as f:
        y = np.loadtxt(f)
    noise = np.random.default_rng(args.noise_seed).normal(size=(X.shape[0], count))
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    header = NAMES + [f"noise{j + 1}" for j in range(count)] + ["progression"]
    np.savetxt(out, np.column_stack([X, noise, y]), delimiter=",", header=",".join(header), comments="", fmt="%.6g")
    print(f"wrote {out}: {X.shape[0]} rows, {len(NAMES)} real + {count} noise features, target 'progression'")


if __name__ == "__main__":
    main()
