#!/usr/bin/python3
"""The peer for cmab-scores at scale (docs/performance.md, "cmab-scores at scale"): HIE and HDD per feature the way
causalml's filters compute them (pandas qcut into quantile bins, a groupby over (bin, arm) for the reward counts, then
the scores), reading each feature's column from the HDF5 log with h5py. One thread, one run; prints the seconds per
feature (reading included) over the first --features columns, and the scores for a spot check against banditfs's
/cmab/hie and /cmab/hdd.

  /usr/bin/python3 scripts/bench/cmab_peer.py LOG.h5 [--features 100] [--bins 10] [--result RESULT.h5]
"""
import argparse
import sys
import time

import h5py
import numpy as np
import pandas as pd

CLIP = 1e-6


def kl(p, q):
    q = np.clip(q, CLIP, 1 - CLIP)
    p = np.clip(p, 0.0, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = np.where(p > 0, p * np.log(p / q), 0.0)
        b = np.where(p < 1, (1 - p) * np.log((1 - p) / (1 - q)), 0.0)
    return a + b


def scores(x, arm, reward, arms, bins):
    frame = pd.DataFrame({"x": x, "arm": arm, "reward": reward})
    if frame["x"].nunique() <= bins:
        frame["bin"] = frame["x"]
    else:
        frame["bin"] = pd.qcut(frame["x"], bins, labels=False, duplicates="drop")
    frame["bin"] = frame["bin"].fillna(-1)  # NaN: its own bin
    counts = frame.groupby(["bin", "arm"])["reward"].agg(["count", "sum"]).unstack(fill_value=0)
    n_cell = counts["count"].reindex(columns=range(arms), fill_value=0).to_numpy(float)
    ones = counts["sum"].reindex(columns=range(arms), fill_value=0).to_numpy(float)
    zeros = n_cell - ones
    p_cell = np.maximum(ones, 1) / (np.maximum(ones, 1) + np.maximum(zeros, 1))  # smoothed (causalml smooth=True)
    n_bin = n_cell.sum(axis=1)
    n = n_bin.sum()
    n_arm = n_cell.sum(axis=0)
    p_arm = ones.sum(axis=0) / np.maximum(n_arm, 1)
    raw = np.where(n_cell > 0, ones / np.maximum(n_cell, 1), -np.inf)
    w_star = int(np.argmax(p_arm))
    hie = 0.0
    for b in range(len(n_bin)):
        if n_cell[b, w_star] > 0:
            hie += n_bin[b] / n * (raw[b].max() - raw[b, w_star])
    within = 0.0
    for b in range(len(n_bin)):
        w = n_cell[b][:, None] * n_cell[b][None, :] / n_bin[b] ** 2
        within += n_bin[b] / n * float((w * kl(p_cell[b][:, None], p_cell[b][None, :])).sum())
    p_all = np.maximum(ones.sum(0), 1) / (np.maximum(ones.sum(0), 1) + np.maximum(zeros.sum(0), 1))
    w_all = n_arm[:, None] * n_arm[None, :] / n ** 2
    hdd = within - float((w_all * kl(p_all[:, None], p_all[None, :])).sum())
    return hie, hdd


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("--features", type=int, default=100)
    ap.add_argument("--bins", type=int, default=10)
    ap.add_argument("--result", help="a banditfs result.h5 of the same log, for a spot check of the scores")
    args = ap.parse_args()
    start = time.perf_counter()
    with h5py.File(args.log, "r") as f:
        arm = f["arm"][()]
        reward = f["reward"][()].astype(np.int64)
        arms = len(f["arm_labels"])
        p = min(args.features, f["X"].shape[1])
        out = []
        for j in range(p):
            x = f["X"][:, j].astype(np.float64)
            out.append(scores(x, arm, reward, arms, args.bins))
    seconds = time.perf_counter() - start
    print(f"peer: {p} features of {len(arm)} rows in {seconds:.2f} s = {seconds / p:.4f} s per feature (reading "
          f"included)")
    if args.result:
        with h5py.File(args.result, "r") as r:
            hie, hdd = r["cmab/hie"][:p], r["cmab/hdd"][:p]
        got = np.array(out)
        print(f"spot check vs {args.result}: max |HIE diff| {np.max(np.abs(got[:, 0] - hie)):.3g}, "
              f"max |HDD diff| {np.max(np.abs(got[:, 1] - hdd)):.3g} (pandas qcut's edges are numpy's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
