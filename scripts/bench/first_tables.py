#!/usr/bin/python3
"""Tables 3 and 4 of [FIRST] (§5.3 and §6.2) on the data sets Debian packages (docs/first-real-data.md).

For each data set: R random 80/20 splits (split r uses numpy seed --seed + r; floor(0.8 N) train rows, not
stratified). On each split the train part is written to a CSV, `banditfs run` selects features with
`[method] name = "first"` on it (regression: inner_samples = 0, i.e. N_I = 2; binary: task = "binary" and
inner_samples = 3, as the paper's §6; N_O = all train rows; one thread), and /selected + /feature_names of its
result.h5 give the selected columns. Then a scikit-learn random forest with ranger's defaults (the paper names no
settings): --trees trees (500), max_features = floor(sqrt(p')) of the p' columns it is given, bootstrap,
min_samples_leaf 5 (regression) or 1 (classification) -- is fitted on the train part twice, on the selected columns
and on all columns, and scored on the test part: MSE (regression) or accuracy (classification). If FIRST selects
nothing, the "selected" model predicts the train mean (regression) or the train majority class (counted, reported).
Reported per data set: the median [20%, 80%] quantiles (numpy's linear rule = R's type 7) of the number selected
and of the ratio selected/all (test MSE, or accuracy), beside the paper's, and whether each median lies inside the
paper's [20%, 80%] band.

  Rscript scripts/data/export_r.R results/data/first
  nice -n 5 /usr/bin/python3 scripts/bench/first_tables.py --data-dir results/data/first \
      --out results/bench/first_tables

Writes OUT/splits.csv (one row per data set and split), OUT/table.md (the markdown table, also printed) and
OUT/table.json. Needs numpy, pandas, h5py and scikit-learn (Debian's, i.e. /usr/bin/python3) and a built banditfs.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np
import pandas as pd
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor

# name, file, target, task, paper's (count median, q20, q80), paper's (ratio median, q20, q80)
DATASETS = [
    ("Boston Housing", "boston_housing.csv", "medv", "regression", (8, 6, 9), (1.02, 0.93, 1.14)),
    ("Concrete", "concrete.csv", "compressive_strength", "regression", (6, 6, 7), (0.93, 0.88, 0.97)),
    ("Meat", "meats.csv", "fat", "regression", (4, 2, 6), (0.93, 0.77, 1.07)),
    ("Letter A/S", "letter_a_s.csv", "letter_S", "binary", (8, 7, 9), (0.99, 0.99, 1.00)),
    ("Breast Cancer", "breast_cancer.csv", "malignant", "binary", (5, 4, 6), (0.99, 0.98, 1.00)),
    ("Pima", "pima_diabetes2.csv", "diabetes_pos", "binary", (3, 2, 4), (0.98, 0.94, 1.03)),
]


def run_first(banditfs, train_csv, target, task, seed, workdir):
    """banditfs FIRST on one train CSV; returns the selected column names (in the CSV's order)."""
    out = os.path.join(workdir, "out")
    shutil.rmtree(out, ignore_errors=True)
    job = os.path.join(workdir, "job.toml")
    lines = ["[data]", 'source = "csv"', f'path = "{train_csv}"', f'target = "{target}"', f'task = "{task}"', "",
             "[method]", 'name = "first"']
    if task == "binary":
        lines.append("inner_samples = 3")  # the paper's §6; banditfs's 0 would pick 3 as well
    lines += ["", "[run]", f"seed = {seed}", "threads = 1", f'out = "{out}"', ""]
    with open(job, "w") as f:
        f.write("\n".join(lines))
    proc = subprocess.run([banditfs, "run", job], capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"banditfs failed on {train_csv} (exit {proc.returncode}):\n{proc.stderr}")
    with h5py.File(os.path.join(out, "result.h5"), "r") as h5:
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in h5["/feature_names"][:]]
        sel = sorted(int(i) for i in h5["/selected"][:])
        n_i = int(h5["/first"].attrs["N_I"])
    return [names[i] for i in sel], n_i


def forest(task, n_cols, trees, seed):
    common = dict(n_estimators=trees, max_features=max(1, math.floor(math.sqrt(n_cols))), bootstrap=True,
                  n_jobs=1, random_state=seed)
    if task == "regression":
        return RandomForestRegressor(min_samples_leaf=5, **common)
    return RandomForestClassifier(min_samples_leaf=1, **common)


def score(task, model, x_test, y_test):
    pred = model.predict(x_test)
    if task == "regression":
        return float(np.mean((y_test - pred) ** 2))
    return float(np.mean(pred == y_test))


def constant_score(task, y_train, y_test):
    if task == "regression":
        return float(np.mean((y_test - y_train.mean()) ** 2))
    majority = 1.0 if y_train.mean() > 0.5 else 0.0
    return float(np.mean(y_test == majority))


def q(values):
    v = np.asarray(values, dtype=float)
    return float(np.median(v)), float(np.quantile(v, 0.2)), float(np.quantile(v, 0.8))


def inside(x, band):
    return band[1] <= x <= band[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", default="results/data/first", help="the CSVs of scripts/data/export_r.R")
    ap.add_argument("--out", default="results/bench/first_tables")
    ap.add_argument("--banditfs", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "..", "..", "build", "banditfs"))
    ap.add_argument("--splits", type=int, default=100)
    ap.add_argument("--trees", type=int, default=500)
    ap.add_argument("--seed", type=int, default=1, help="split r uses seed + r")
    ap.add_argument("--datasets", default="", help="comma-separated file stems (default: all six)")
    args = ap.parse_args()

    banditfs = os.path.abspath(args.banditfs)
    os.makedirs(args.out, exist_ok=True)
    wanted = [s for s in args.datasets.split(",") if s]
    rows, table = [], []
    t_all = time.time()
    for name, fname, target, task, paper_n, paper_r in DATASETS:
        if wanted and fname[:-4] not in wanted:
            continue
        df = pd.read_csv(os.path.join(args.data_dir, fname))
        features = [c for c in df.columns if c != target]
        n, p = len(df), len(features)
        n_train = int(math.floor(0.8 * n))
        t0 = time.time()
        t_first = 0.0
        counts, ratios, empty = [], [], 0
        n_i_seen = set()
        with tempfile.TemporaryDirectory(prefix="first_tables_") as work:
            for r in range(args.splits):
                seed = args.seed + r
                perm = np.random.default_rng(seed).permutation(n)
                train, test = df.iloc[perm[:n_train]], df.iloc[perm[n_train:]]
                train_csv = os.path.join(work, "train.csv")
                train.to_csv(train_csv, index=False)
                t1 = time.time()
                selected, n_i = run_first(banditfs, train_csv, target, task, seed, work)
                t_first += time.time() - t1
                n_i_seen.add(n_i)
                y_tr, y_te = train[target].to_numpy(), test[target].to_numpy()
                full = forest(task, p, args.trees, seed).fit(train[features].to_numpy(), y_tr)
                s_all = score(task, full, test[features].to_numpy(), y_te)
                if selected:
                    sub = forest(task, len(selected), args.trees, seed).fit(train[selected].to_numpy(), y_tr)
                    s_sel = score(task, sub, test[selected].to_numpy(), y_te)
                else:
                    empty += 1
                    s_sel = constant_score(task, y_tr, y_te)
                ratio = s_sel / s_all if s_all > 0 else float("nan")
                counts.append(len(selected))
                ratios.append(ratio)
                rows.append(dict(dataset=name, split=r, seed=seed, n_train=n_train, n_test=n - n_train,
                                 n_selected=len(selected), selected=";".join(selected), score_selected=s_sel,
                                 score_all=s_all, ratio=ratio))
        secs = time.time() - t0
        mc, mr = q(counts), q(ratios)
        table.append(dict(dataset=name, task=task, n=n, p=p, N_I=sorted(n_i_seen), splits=args.splits,
                          trees=args.trees, count=mc, ratio=mr, paper_count=paper_n, paper_ratio=paper_r,
                          count_ok=inside(mc[0], paper_n), ratio_ok=inside(mr[0], paper_r), empty=empty,
                          seconds=secs, first_seconds=t_first))
        print(f"{name}: count {mc[0]:g} [{mc[1]:g}, {mc[2]:g}], ratio {mr[0]:.3f} [{mr[1]:.3f}, {mr[2]:.3f}], "
              f"{secs:.0f} s (FIRST {t_first:.1f} s)", file=sys.stderr, flush=True)

    pd.DataFrame(rows).to_csv(os.path.join(args.out, "splits.csv"), index=False)
    total = time.time() - t_all

    def fmt(t, digits):
        return f"{t[0]:.{digits}f} [{t[1]:.{digits}f}, {t[2]:.{digits}f}]"

    md = ["| data set | N × p | N_I | # selected (ours) | # selected (paper) | count in band | ratio (ours) "
          "| ratio (paper) | ratio in band | empty sel. | time (s) |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]
    for t in table:
        kind = "MSE" if t["task"] == "regression" else "acc."
        md.append(f"| {t['dataset']} | {t['n']} × {t['p']} | {','.join(map(str, t['N_I']))} "
                  f"| {fmt(t['count'], 1)} | {t['paper_count'][0]} [{t['paper_count'][1]}, {t['paper_count'][2]}] "
                  f"| {'yes' if t['count_ok'] else 'NO'} | {kind} {fmt(t['ratio'], 3)} "
                  f"| {fmt(t['paper_ratio'], 2)} | {'yes' if t['ratio_ok'] else 'NO'} | {t['empty']} "
                  f"| {t['seconds']:.0f} |")
    md.append("")
    md.append(f"{args.splits} splits per data set, {args.trees} trees per forest, seeds {args.seed}.."
              f"{args.seed + args.splits - 1}; total {total:.0f} s.")
    text = "\n".join(md)
    print(text)
    with open(os.path.join(args.out, "table.md"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(args.out, "table.json"), "w") as f:
        json.dump(dict(tables=table, total_seconds=total, splits=args.splits, trees=args.trees, seed=args.seed),
                  f, indent=1)


if __name__ == "__main__":
    main()
