#!/usr/bin/python3
"""Checks `banditfs aggregate` against an independent computation (h5py + numpy, scipy for the intervals).

  aggregate_check.py THRESHOLD AGGREGATE_DIR RUN_DIR...

Reads every RUN_DIR/result.h5 and recomputes, per feature: the share of runs that selected it, the mean, sample sd
(ddof=1) and numpy's default (linear) 5/50/95% quantiles of the importance, the mean and sample sd of the rank, the
features with frequency >= THRESHOLD, and importance_lo/hi as the runs' quantiles at (1 -+ run.interval)/2. Compares
them with AGGREGATE_DIR/result.h5 (root and /stability) and AGGREGATE_DIR/summary.csv. Each run's own
importance_lo/hi must be scipy's Beta(alpha, beta) quantiles at run.interval, around the posterior mean.
Prints what differs and exits 1, or prints "ok".
"""
import csv
import re
import sys

import h5py
import numpy as np
from scipy.stats import beta

threshold = float(sys.argv[1])
agg_dir, run_dirs = sys.argv[2], sys.argv[3:]
problems = []


def close(name, got, want):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    if got.shape != want.shape or not np.allclose(got, want, rtol=1e-12, atol=1e-15, equal_nan=True):
        problems.append(f"{name}: got {got}, want {want}")


def interval_of(job_text):
    section = None
    for line in job_text.splitlines():
        if line.startswith("["):
            section = line.strip("[]")
        elif section == "run" and line.startswith("interval = "):
            return float(line.split(" = ")[1])
    problems.append("no run.interval in the job text")
    return 0.9


importance, rank, selected, seeds = [], [], [], []
for d in run_dirs:
    with h5py.File(f"{d}/result.h5", "r") as f:
        p = f["importance"].shape[0]
        importance.append(f["importance"][()])
        rank.append(f["rank"][()].astype(float))
        flags = np.zeros(p)
        flags[f["selected"][()]] = 1.0
        selected.append(flags)
        seeds.append(int(f.attrs["seed"]))
        level = interval_of(f.attrs["job"])
        a, b = f["bandit/alpha"][()], f["bandit/beta"][()]
        tail = (1.0 - level) / 2.0
        close(f"{d} importance_lo", f["importance_lo"][()], beta.ppf(tail, a, b))
        close(f"{d} importance_hi", f["importance_hi"][()], beta.ppf(1.0 - tail, a, b))
        mean = a / (a + b)
        if not (np.all(f["importance_lo"][()] <= mean) and np.all(mean <= f["importance_hi"][()])):
            problems.append(f"{d}: a posterior mean outside its interval")
importance, rank, selected = np.array(importance), np.array(rank), np.array(selected)

want = {
    "selection_frequency": selected.mean(axis=0),
    "importance_mean": importance.mean(axis=0),
    "importance_sd": importance.std(axis=0, ddof=1),
    "importance_q05": np.quantile(importance, 0.05, axis=0),
    "importance_q50": np.quantile(importance, 0.50, axis=0),
    "importance_q95": np.quantile(importance, 0.95, axis=0),
    "rank_mean": rank.mean(axis=0),
    "rank_sd": rank.std(axis=0, ddof=1),
}
freq = want["selection_frequency"]
want_selected = np.flatnonzero(freq >= threshold)

with h5py.File(f"{agg_dir}/result.h5", "r") as f:
    for name, values in want.items():
        close(f"/stability/{name}", f[f"stability/{name}"][()], values)
    if int(f["stability"].attrs["runs"]) != len(run_dirs):
        problems.append(f"/stability runs {f['stability'].attrs['runs']}, want {len(run_dirs)}")
    close("/stability threshold", f["stability"].attrs["threshold"], threshold)
    if sorted(f["stability/seeds"][()].tolist()) != sorted(seeds) or list(f["stability/seeds"][()]) != sorted(seeds):
        problems.append(f"/stability/seeds {f['stability/seeds'][()]}, want {sorted(seeds)}")
    close("/importance", f["importance"][()], want["importance_mean"])
    if list(f["selected"][()]) != list(want_selected):
        problems.append(f"/selected {f['selected'][()]}, want {want_selected}")
    level = float(f.attrs["interval"])
    close("/importance_lo", f["importance_lo"][()], np.quantile(importance, (1.0 - level) / 2.0, axis=0))
    close("/importance_hi", f["importance_hi"][()], np.quantile(importance, (1.0 + level) / 2.0, axis=0))
    order = sorted(range(p), key=lambda k: (-want["importance_mean"][k], k))
    want_rank = np.empty(p)
    want_rank[order] = np.arange(1, p + 1)
    close("/rank", f["rank"][()], want_rank)

with open(f"{agg_dir}/summary.csv", newline="") as fh:
    rows = list(csv.DictReader(fh))
if len(rows) != p:
    problems.append(f"summary.csv has {len(rows)} rows, want {p}")
else:
    for name, values in want.items():
        close(f"summary.csv {name}", [float(r[name]) for r in rows], values)
    close("summary.csv selected", [int(r["selected"]) for r in rows], (freq >= threshold).astype(float))

if problems:
    print("\n".join(problems))
    sys.exit(1)
print("ok")
