#!/usr/bin/python3
"""Calibration check of `banditfs simulate gkx-like`: is the planted signal as weak as real monthly returns, and is
every planted strong predictor still clearly visible to a permutation test?

For each of the first --months months of a gkx-like directory (characteristics.csv + returns.csv + riskfree.csv, or a
prepared panel with --panel), the script does what one bandit evaluation does on the full feature set:
  * the 94 characteristics ranked within the month to 2 r / (N + 1) - 1 (average ranks for ties), missing -> 0 —
    the transform of prepare-gkx — plus sic2 one-hot dummies and --noise N(0,1) noise columns;
  * y = ret - rf of the same month (the published GKX file is already lagged);
  * scikit-learn's HistGradientBoostingRegressor with the paper's hyper-parameters (learning rate 0.05, 200
    trees, 50 leaves, depth 10, >= 20 rows per leaf, l2 0.01, early stopping; scikit-learn 1.2 has no column
    subsampling, so colsample 0.5 is not reproduced) fitted on a random 80% of the month (--test holdout) or on
    the whole month t and tested on month t+1 (--test next);
  * out-of-sample R^2 (about the test mean, as banditfs) and, per feature, the permutation drop in R^2 divided by
    |R^2_test| — the quantity the relative reward rule compares with 0.02.
It prints the mean R^2 and, for the planted features of truth.json and a few others, the mean relative drop and the
share of months whose relative drop exceeds the threshold (the reward probability when the feature is played).

Usage: gkx_signal_check.py DIR [--months 6] [--test holdout|next] [--noise 0] [--repeats 1] [--threshold 0.02]
       gkx_signal_check.py --panel panel.h5 --truth DIR/truth.json ...
"""
import argparse
import json
import os
import sys
import time

import numpy as np

HP = dict(learning_rate=0.05, max_iter=200, max_leaf_nodes=50, max_depth=10, min_samples_leaf=20,
          l2_regularization=0.01, early_stopping=True, validation_fraction=0.1, n_iter_no_change=10)
OTHERS = ["retvol", "maxret", "mom6m", "dolvol", "beta", "betasq", "sp"]  # unplanted correlates


def rank_unit(col):
    """prepare-gkx's transform: 2 r / (N + 1) - 1 with average ranks over the non-missing values, missing -> 0."""
    from scipy.stats import rankdata
    out = np.zeros(col.shape[0], dtype=np.float64)
    ok = ~np.isnan(col)
    n = int(ok.sum())
    if n >= 2:
        out[ok] = 2.0 * rankdata(col[ok]) / (n + 1.0) - 1.0
    return out


def load_csv_months(directory, months):
    """The first `months` DATE months of a gkx-like directory as [(yyyymm, X, y, names)], X rank-transformed."""
    import pandas as pd
    chars, seen = [], set()
    for chunk in pd.read_csv(os.path.join(directory, "characteristics.csv"), chunksize=100_000):
        chunk["yyyymm"] = chunk["DATE"] // 100
        chars.append(chunk)
        seen.update(int(v) for v in chunk["yyyymm"].unique())
        if len(seen) > months:  # the file is written month by month
            break
    frame = pd.concat(chars)
    first_months = sorted(frame["yyyymm"].unique())[:months]
    frame = frame[frame["yyyymm"].isin(first_months)]
    rets = pd.read_csv(os.path.join(directory, "returns.csv"))
    rf = pd.read_csv(os.path.join(directory, "riskfree.csv")).set_index("yyyymm")["rf"]
    frame = frame.merge(rets, on=["permno", "yyyymm"], how="inner")
    frame = frame[frame["ret"].notna()]
    frame["y"] = frame["ret"] - frame["yyyymm"].map(rf)
    skip = {"permno", "DATE", "yyyymm", "sic2", "RET", "prc", "SHROUT", "ret", "y"}
    char_names = [c for c in frame.columns if c not in skip]
    levels = sorted(int(v) for v in frame["sic2"].dropna().unique())
    out = []
    for month in first_months:
        g = frame[frame["yyyymm"] == month]
        X = np.column_stack([rank_unit(g[c].to_numpy(dtype=np.float64)) for c in char_names])
        sic = g["sic2"].to_numpy()
        D = np.column_stack([(sic == lv).astype(np.float64) for lv in levels])
        out.append((int(month), np.hstack([X, D]), g["y"].to_numpy(dtype=np.float64),
                    char_names + [f"sic2_{lv}" for lv in levels]))
    return out


def load_panel_months(path, months):
    import h5py
    with h5py.File(path, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["feature_names"][...]]
        offsets = f["period_offsets"][...]
        periods = f["period"][...] if "period" in f else None
        out = []
        for k in range(min(months, len(offsets) - 1)):
            lo, hi = int(offsets[k]), int(offsets[k + 1])
            label = int(periods[lo]) if periods is not None else k
            out.append((label, np.asarray(f["X"][lo:hi], dtype=np.float64), np.asarray(f["y"][lo:hi]), names))
    return out


def r2(y, yhat):
    return 1.0 - np.sum((y - yhat) ** 2) / np.sum((y - y.mean()) ** 2)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", nargs="?", help="gkx-like directory (characteristics.csv, returns.csv, ...)")
    parser.add_argument("--panel", help="a prepared HDF5 panel instead of the CSVs")
    parser.add_argument("--truth", help="truth.json (default DIR/truth.json)")
    parser.add_argument("--months", type=int, default=6)
    parser.add_argument("--test", choices=["holdout", "next"], default="holdout")
    parser.add_argument("--noise", type=int, default=0, help="N(0,1) noise columns added (the study adds 5000)")
    parser.add_argument("--repeats", type=int, default=1, help="permutations per feature")
    parser.add_argument("--threshold", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from sklearn.ensemble import HistGradientBoostingRegressor

    truth_path = args.truth or (os.path.join(args.dir, "truth.json") if args.dir else None)
    truth = json.load(open(truth_path)) if truth_path and os.path.exists(truth_path) else {}
    strong = truth.get("strong", [])
    planted = truth.get("planted", strong)
    start = time.time()
    need = args.months + (1 if args.test == "next" else 0)
    data = load_panel_months(args.panel, need) if args.panel else load_csv_months(args.dir, need)
    print(f"loaded {len(data)} months in {time.time() - start:.1f}s; rows/month "
          f"{min(len(d[2]) for d in data)}..{max(len(d[2]) for d in data)}; features {data[0][1].shape[1]}"
          f" + {args.noise} noise", flush=True)
    names = data[0][3]
    probe = [n for n in planted + OTHERS if n in names]
    rng = np.random.default_rng(args.seed)
    noise_names = [f"noise_{k}" for k in range(min(args.noise, 3))]
    r2s, rel = [], {n: [] for n in probe + noise_names}
    for k in range(args.months):
        month, X, y, _ = data[k]
        if args.noise:
            X = np.hstack([X, rng.standard_normal((X.shape[0], args.noise))])
        if args.test == "holdout":
            idx = rng.permutation(len(y))
            cut = int(0.8 * len(y))
            Xtr, ytr, Xte, yte = X[idx[:cut]], y[idx[:cut]], X[idx[cut:]], y[idx[cut:]]
        else:
            _, X2, y2, _ = data[k + 1]
            if args.noise:
                X2 = np.hstack([X2, rng.standard_normal((X2.shape[0], args.noise))])
            Xtr, ytr, Xte, yte = X, y, X2, y2
        model = HistGradientBoostingRegressor(random_state=args.seed + k, **HP).fit(Xtr, ytr)
        score = r2(yte, model.predict(Xte))
        r2s.append(score)
        cols = {n: names.index(n) for n in probe}
        cols.update({n: len(names) + j for j, n in enumerate(noise_names)})
        line = []
        for n, j in cols.items():
            drops = []
            for _ in range(args.repeats):
                Xp = Xte.copy()
                Xp[:, j] = rng.permutation(Xp[:, j])
                drops.append(score - r2(yte, model.predict(Xp)))
            rel[n].append(np.mean(drops) / abs(score) if score != 0 else 0.0)
            line.append(f"{n} {rel[n][-1]:+.3f}")
        print(f"month {month}: trees {model.n_iter_}, R2_test {100 * score:+.3f}%  | " + ", ".join(line[:len(strong)]),
              flush=True)
    r2s = np.asarray(r2s)
    print(f"\nOOS R^2 ({args.test}, {args.months} months): mean {100 * r2s.mean():+.3f}%, median "
          f"{100 * np.median(r2s):+.3f}%, months with R^2 > 0: {np.mean(r2s > 0):.2f}   [{time.time() - start:.0f}s]")
    print(f"\n| feature | planted | mean drop / abs(R2) | median | share > {args.threshold} |")
    print("|---|---|---|---|---|")
    for n in probe + noise_names:
        v = np.asarray(rel[n])
        kind = "strong" if n in strong else "weak" if n in planted else "no"
        print(f"| {n} | {kind} | {v.mean():+.3f} | {np.median(v):+.3f} | {np.mean(v > args.threshold):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
