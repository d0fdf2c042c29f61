#!/usr/bin/env python3
"""[TVS] Table 1 (§5.2, Fig. 3), BART alone: the Liang design with n = s rows and p = 1 000 columns, BART with
50 trees and DART (sparse = TRUE) on all columns, M sweeps; a variable is selected when its mean split count over
the sweeps is at least 1 (the paper's "used at least once on average"). Prints per seed the selected set and its
Hamming distance to the truth {x1..x5}, then the median. The target (docs/results.md §9): s = 1 000, M = 5 000, median
Hamming within 1 of the paper's 2.

    /usr/bin/python3 scripts/bench/bart_table1.py --seeds 1-10 [--n 1000] [--sweeps 5000] [--build build]

Data from `banditfs simulate liang`; the fit is scripts/bench/bart_bench.cpp (built by build_bench.sh), seed 1.
"""
import argparse
import os
import statistics
import subprocess
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def seeds_of(text):
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--p", type=int, default=1000)
    ap.add_argument("--trees", type=int, default=50)
    ap.add_argument("--sweeps", type=int, default=5000)
    ap.add_argument("--build", default="build")
    args = ap.parse_args()
    work = tempfile.mkdtemp()
    bench = os.path.join(work, "bart_bench")
    subprocess.run(["bash", os.path.join(ROOT, "scripts/bench/build_bench.sh"),
                    os.path.join(ROOT, "scripts/bench/bart_bench.cpp"), bench, args.build], check=True)
    hams = []
    for seed in seeds_of(args.seeds):
        h5 = os.path.join(work, f"liang{seed}.h5")
        subprocess.run([os.path.join(ROOT, args.build, "banditfs"), "simulate", "liang", "--n", str(args.n),
                        "--p", str(args.p), "--seed", str(seed), "--out", h5], check=True, capture_output=True)
        with h5py.File(h5) as f:
            X, y, truth = f["X"][()].astype(np.float32), f["y"][()].astype(np.float64), set(map(int, f["truth"][()]))
        raw = os.path.join(work, f"liang{seed}.bin")
        with open(raw, "wb") as out:
            np.array(X.shape, dtype="<i8").tofile(out)
            X.astype("<f4").tofile(out)
            y.astype("<f8").tofile(out)
        text = subprocess.run([bench, raw, str(args.trees), str(args.sweeps), "1"], check=True, capture_output=True,
                              text=True, env=dict(os.environ, OMP_NUM_THREADS="1")).stdout
        lines = dict(line.split(" ", 1) for line in text.splitlines() if " " in line)
        mean = np.array([float(v) for v in lines["mean_splits"].split()])
        selected = set(int(k) for k in np.flatnonzero(mean >= 1.0))
        ham = len(selected ^ truth)
        hams.append(ham)
        print(f"seed {seed}: selected {sorted(selected)} Hamming {ham} fit {float(lines['bart_fit_seconds']):.1f} s",
              flush=True)
    print(f"n = {args.n}, p = {args.p}, {args.trees} trees, M = {args.sweeps}: median Hamming "
          f"{statistics.median(hams):g} over {len(hams)} seeds (paper 003 Table 1 at s = 1000, T = 5000: 2)")


if __name__ == "__main__":
    main()
