#!/usr/bin/python3
"""Calibration (docs/null.md §4): the share of rewards of 1 paid on noise-only arms, for each reward.null.

The late TTTS arms of paper 000 §4.1 hold only noise columns (docs/results.md §1). This measures exactly that case:
friedman1's rows (n = 300, p = 1000) with y shuffled against X (so every column is noise), the §4.1 job (random
forest 100 trees depth 10, absolute nu = 0.01, B = 10), arms capped at 5 features (bandit.max_features = 0.005),
200 iterations, seeds 1-10. Every reward is paid to a noise column, so the share of ones is the null's false-reward
rate on small noise-only arms.

  scripts/bench/null_noise_only.py --seeds 1-10 --nulls none,shadow,paired
"""
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_seeds import parse_int_list  # noqa: E402


def noise_csv(binary, seed):
    out = os.path.join(ROOT, "results", "null", f"noise_only_s{seed}.csv")
    if os.path.exists(out):
        return out
    h5 = out[:-4] + ".h5"
    subprocess.run([binary, "simulate", "friedman1", "--seed", str(seed), "--out", h5], check=True,
                   capture_output=True)
    with h5py.File(h5, "r") as f:
        X, y = f["X"][()], f["y"][()]
    y = np.random.default_rng(seed).permutation(y)  # breaks every link between X and y
    header = ",".join([f"n{j + 1}" for j in range(X.shape[1])] + ["y"])
    np.savetxt(out, np.column_stack([X, y]), delimiter=",", header=header, comments="", fmt="%.9g")
    os.remove(h5)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--nulls", default="none,shadow,paired")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "banditfs"))
    args = ap.parse_args()
    for null in args.nulls.split(","):
        ones = plays = 0
        for seed in parse_int_list(args.seeds):
            out = os.path.join(ROOT, "results", "null", "runs", f"noise_only_{null}_s{seed}")
            subprocess.run([args.binary, "run", os.path.join(ROOT, "jobs", "paper000", "friedman1_rf_ttts.toml"),
                            "--quiet", "--out", out, "--set", f"run.seed={seed}", "--set", 'data.source="csv"',
                            "--set", f'data.path="{noise_csv(args.binary, seed)}"', "--set", 'data.target="y"',
                            "--set", "bandit.max_features=0.005", "--set", f'reward.null="{null}"'],
                           check=True, capture_output=True)
            with h5py.File(os.path.join(out, "result.h5"), "r") as f:
                ones += int(f["bandit/evaluations/rewards"][()].sum())
                plays += int(f["bandit/evaluations/arm_size"][()].sum())
        print(f"{null:7s}: rewards of 1 on noise-only arms of <= 5 columns: {ones}/{plays} = "
              f"{100.0 * ones / plays:.1f}% of the plays", flush=True)


if __name__ == "__main__":
    sys.exit(main())
