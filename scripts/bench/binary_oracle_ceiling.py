#!/usr/bin/python3
"""An oracle ceiling for friedman1 --binary, n = 500, p = 1000 (docs/results.md §6).

For each seed, simulates the data set the bandit job sees (`banditfs simulate friedman1 --binary`) and asks whether
even an oracle that knows friedman1's terms could tell the weak true features from the noise on these rows: the
partial correlation with y of x5 and of (x3 - 0.5)^2, each adjusted for the other true terms, against the largest
partial correlation of any noise column, linear or quadratic ((x_j - 0.5)^2), adjusted for all true terms. A seed
where some noise column beats x3 or x5 has a sample in which the noise looks as relevant as the truth.

  scripts/bench/binary_oracle_ceiling.py --seeds 1-10 [--n 500 --p 1000 --binary build/banditfs]
"""
import argparse
import os
import subprocess
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def residual(v, Z):
    Z1 = np.column_stack([np.ones(len(v)), Z])
    beta, *_ = np.linalg.lstsq(Z1, v, rcond=None)
    return v - Z1 @ beta


def partial_corr(v, y, Z):
    a, b = residual(v, Z), residual(y, Z)
    return abs(float(a @ b / np.sqrt((a @ a) * (b @ b))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--p", type=int, default=1000)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "banditfs"))
    args = ap.parse_args()
    lo, hi = (int(x) for x in args.seeds.split("-"))
    separable = 0
    print("seed  x3-term  x5     best-noise  noise-above  separable")
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(lo, hi + 1):
            path = os.path.join(tmp, f"s{seed}.h5")
            subprocess.run([args.binary, "simulate", "friedman1", "--binary", "--n", str(args.n), "--p", str(args.p),
                            "--seed", str(seed), "--out", path], check=True, stdout=subprocess.DEVNULL)
            with h5py.File(path, "r") as f:
                X = np.asarray(f["X"][()], dtype=np.float64)
                y = np.asarray(f["y"][()], dtype=np.float64)
            t1 = np.sin(np.pi * X[:, 0] * X[:, 1])
            t3 = (X[:, 2] - 0.5) ** 2
            t4, t5 = X[:, 3], X[:, 4]
            truth = np.column_stack([t1, t3, t4, t5])
            r3 = partial_corr(t3, y, np.column_stack([t1, t4, t5]))
            r5 = partial_corr(t5, y, np.column_stack([t1, t3, t4]))
            noise = []
            for j in range(5, X.shape[1]):
                noise.append(max(partial_corr(X[:, j], y, truth), partial_corr((X[:, j] - 0.5) ** 2, y, truth)))
            noise = np.array(noise)
            above = int(np.sum(noise >= min(r3, r5)))
            ok = above == 0
            separable += ok
            print(f"{seed:4d}  {r3:.3f}    {r5:.3f}  {noise.max():.3f}       {above:5d}        {'yes' if ok else 'no'}")
    print(f"oracle-separable seeds: {separable}/{hi - lo + 1}")


if __name__ == "__main__":
    main()
