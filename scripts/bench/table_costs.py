#!/usr/bin/python3
"""What a real table costs the bandit: missing cells and categorical (one-hot) features against complete numeric
data of the same shape (docs/performance.md, "Real tables").

    scripts/bench/table_costs.py BUILD_DIR [--n 1000] [--p 100] [--iterations 40] [--repeats 3] [--threads 1]

1. Missing cells: friedman1 (x ~ U(0,1)^p, y = 10 sin(pi x1 x2) + 20 (x3 - 1/2)^2 + 10 x4 + 5 x5 + N(0,1)) as a CSV,
   complete, and the same table with 10% of its feature cells (drawn uniformly) left empty. The hgb bandit's time per
   iteration (run.json's per_iteration_seconds), median over the repeats; target: missing <= 1.1x complete.
2. One-hot groups: the same table with its last G = p/5 columns replaced by categorical columns of L = 5 levels
   ("a".."e" as text: each is one feature of 5 indicator columns), against the same G columns holding the level codes
   0..4 as numbers (one column each). Both have p features, so the bandit plays the same number of arms; the
   difference is what one categorical feature costs against one numeric column. Target: <= 1.2x.
Reported beside each time: the mean number of features per evaluated arm (result.h5's /bandit/evaluations/arm_size).
Writes only a temporary directory. Needs an otherwise quiet machine: say the load when you report.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import h5py
import numpy as np
import pandas as pd


def friedman1(n, p, rng):
    x = rng.uniform(size=(n, p))
    y = (10 * np.sin(np.pi * x[:, 0] * x[:, 1]) + 20 * (x[:, 2] - 0.5) ** 2 + 10 * x[:, 3] + 5 * x[:, 4]
         + rng.normal(size=n))
    frame = pd.DataFrame(x.astype(np.float32), columns=[f"x{j + 1}" for j in range(p)])
    frame["y"] = y
    return frame


def job_text(csv, out, iterations, threads):
    return (f'[data]\nsource = "csv"\npath = "{csv}"\ntarget = "y"\n'
            '[estimator]\nname = "hgb"\n'
            '[reward]\nrule = "relative"\nthreshold = 0.02\nrepeats = 10\n'
            f'[bandit]\npolicy = "ttts"\niterations = {iterations}\nstop = "iterations"\n'
            f'[run]\nseed = 7\nthreads = {threads}\nout = "{out}"\n')


def run(build, work, name, frame, args):
    csv = os.path.join(work, f"{name}.csv")
    frame.to_csv(csv, index=False, na_rep="")
    seconds, columns = [], []
    for r in range(args.repeats):
        out = os.path.join(work, f"out-{name}-{r}")
        job = os.path.join(work, f"{name}.toml")
        with open(job, "w") as f:
            f.write(job_text(csv, out, args.iterations, args.threads))
        done = subprocess.run([os.path.join(build, "banditfs"), "run", job, "--quiet"], capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{name}: banditfs failed: {done.stderr.strip()}")
        facts = json.load(open(os.path.join(out, "run.json")))
        seconds.append(facts["timings"]["per_iteration_seconds"])
        with h5py.File(os.path.join(out, "result.h5"), "r") as result:
            columns.append(float(np.mean(result["bandit/evaluations/arm_size"][()])))
    return statistics.median(seconds), statistics.median(columns)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build")
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--p", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    rng = np.random.default_rng(11)
    complete = friedman1(args.n, args.p, rng)
    missing = complete.copy()
    features = [c for c in complete.columns if c != "y"]
    mask = rng.uniform(size=(args.n, args.p)) < 0.10
    missing[features] = missing[features].mask(mask)

    groups, levels = args.p // 5, list("abcde")
    categorical = complete.drop(columns=features[-groups:]).copy()
    numeric = categorical.copy()
    for g in range(groups):
        codes = rng.integers(0, len(levels), size=args.n)
        categorical[f"c{g + 1}"] = [levels[c] for c in codes]
        numeric[f"c{g + 1}"] = codes.astype(np.float32)
    for frame in (categorical, numeric):
        frame.insert(len(frame.columns) - 1, "y", frame.pop("y"))

    with tempfile.TemporaryDirectory() as work:
        rows = []
        for name, frame in [("complete", complete), ("missing10", missing), ("codes", numeric),
                            ("categorical", categorical)]:
            rows.append((name, *run(args.build, work, name, frame, args)))
    print(f"hgb bandit, n = {args.n}, {args.iterations} iterations, {args.threads} thread(s), median of "
          f"{args.repeats}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("| table | ms per iteration | mean arm size (features) |")
    print("| --- | ---: | ---: |")
    for name, s, c in rows:
        print(f"| {name} | {1000 * s:.1f} | {c:.1f} |")
    t = {name: (s, c) for name, s, c in rows}
    print(f"\nmissing / complete: {t['missing10'][0] / t['complete'][0]:.2f} (target <= 1.1)")
    print(f"categorical / codes: {t['categorical'][0] / t['codes'][0]:.2f} (target <= 1.2)")


if __name__ == "__main__":
    main()
