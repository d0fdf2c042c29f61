#!/usr/bin/python3
"""Power on the gkx-like stand-in (docs/null.md §3): the gkx-like stand-in's planted strong predictors and the noise
columns, from a run's result.h5 and the stand-in's truth.json.

  scripts/bench/null_gkx_summary.py results/null/gkx24/data/truth.json results/null/runs/gkx24_{none,shadow,paired}
"""
import json
import os
import sys

import h5py
import numpy as np


def main():
    truth = json.load(open(sys.argv[1]))
    strong = truth["strong"]
    planted = set(truth["planted"])
    for run in sys.argv[2:]:
        with h5py.File(os.path.join(run, "result.h5"), "r") as f:
            names = [n.decode() if isinstance(n, bytes) else n for n in f["feature_names"][()]]
            mean = f["importance"][()]
        by_name = dict(zip(names, mean))
        unplanted = np.array([m for n, m in zip(names, mean) if n not in planted])
        above = int((unplanted >= 0.5).sum())
        print(f"{os.path.basename(run)}: strong {', '.join(f'{s} {by_name[s]:.3f}' for s in strong)}; "
              f"strong >= 0.5: {sum(by_name[s] >= 0.5 for s in strong)}/{len(strong)}; unplanted columns >= 0.5: "
              f"{above}/{unplanted.size} ({100.0 * above / unplanted.size:.2f}%)")


if __name__ == "__main__":
    sys.exit(main())
