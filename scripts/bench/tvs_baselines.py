#!/usr/bin/python3
"""LASSO with the 1-s.e. rule: a baseline of paper 003 §6.1 (Fig. 6, and Fig. 7 / Appendix C for p = 1 000).

For each seed: `banditfs simulate DGP --n N --p P --seed S --out FILE.h5` (DGP one of linear, friedman1-corr, forest,
liang), read /X, /y and /truth (0-based column indices) with h5py, then
  * columns standardised (mean 0, sd 1, as glmnet's standardize = TRUE; --no-standardize keeps them raw);
  * sklearn LassoCV over 100 alphas (alpha_min/alpha_max = 0.01 when n < p, else 1e-4, glmnet's lambda.min.ratio),
    10 folds (KFold, shuffled with the seed);
  * the 1-s.e. rule from mse_path_: per alpha the mean CV error over the folds and its standard error
    sd(ddof = 1)/sqrt(folds) (glmnet's cvsd for equal folds); alpha_1se = the largest alpha whose mean error is at
    most the minimum mean error plus the standard error at that minimum;
  * the lasso refitted on all rows at alpha_1se; selected = the nonzero coefficients.
Prints per seed FDP (false discoveries / discoveries, 0 with none), power (true discoveries / |truth|) and the
Hamming distance |selected ∆ truth|, then the mean ± standard error over the seeds; --out writes the per-seed rows
as CSV.

  /usr/bin/python3 scripts/bench/tvs_baselines.py linear --seeds 1 2 3 --out /tmp/lasso_linear.csv
Needs Debian's python3-numpy, python3-sklearn and python3-h5py, i.e. /usr/bin/python3, and a built banditfs.
"""
import argparse
import csv
import math
import os
import subprocess
import sys
import tempfile
import time

import h5py
import numpy as np
from sklearn.linear_model import Lasso, LassoCV
from sklearn.model_selection import KFold

DGPS = ('linear', 'friedman1-corr', 'forest', 'liang')
FIELDS = ('dgp', 'seed', 'n', 'p', 'selected', 'fdp', 'power', 'hamming', 'alpha_1se', 'alpha_min', 'seconds')


def simulate(banditfs, dgp, n, p, seed, path):
    cmd = [banditfs, 'simulate', dgp, '--n', str(n), '--p', str(p), '--seed', str(seed), '--out', path]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    with h5py.File(path, 'r') as f:
        return f['X'][...].astype(np.float64), f['y'][...], set(int(t) for t in f['truth'][...])


def standardise(X):
    sd = X.std(axis=0, ddof=0)
    sd[sd == 0] = 1.0
    return (X - X.mean(axis=0)) / sd


def alpha_one_se(cv):
    """The largest alpha whose mean CV error is within one standard error of the minimum (cv: a fitted LassoCV)."""
    folds = cv.mse_path_.shape[1]
    mean = cv.mse_path_.mean(axis=1)
    se = cv.mse_path_.std(axis=1, ddof=1) / math.sqrt(folds)
    best = int(np.argmin(mean))
    within = np.flatnonzero(mean <= mean[best] + se[best])
    return float(cv.alphas_[within].max()), float(cv.alphas_[best])


def lasso_1se(X, y, seed, folds):
    n, p = X.shape
    eps = 0.01 if n < p else 1e-4
    cv = LassoCV(n_alphas=100, eps=eps, cv=KFold(folds, shuffle=True, random_state=seed), max_iter=100000,
                 n_jobs=None).fit(X, y)
    alpha_1se, alpha_min = alpha_one_se(cv)
    coef = Lasso(alpha=alpha_1se, max_iter=100000).fit(X, y).coef_
    return set(np.flatnonzero(coef != 0.0).tolist()), alpha_1se, alpha_min


def selection_metrics(selected, truth):
    true_pos = len(selected & truth)
    fdp = (len(selected) - true_pos) / len(selected) if selected else 0.0
    power = true_pos / len(truth) if truth else float('nan')
    return fdp, power, len(selected ^ truth)


def mean_se(values):
    values = np.asarray(values, dtype=float)
    se = values.std(ddof=1) / math.sqrt(len(values)) if len(values) > 1 else float('nan')
    return values.mean(), se


def run_seed(args, seed, tmp):
    path = os.path.join(tmp, f'{args.dgp}_{seed}.h5')
    X, y, truth = simulate(args.banditfs, args.dgp, args.n, args.p, seed, path)
    start = time.perf_counter()
    if not args.no_standardize:
        X = standardise(X)
    selected, alpha_1se, alpha_min = lasso_1se(X, y, seed, args.folds)
    seconds = time.perf_counter() - start
    fdp, power, hamming = selection_metrics(selected, truth)
    return dict(dgp=args.dgp, seed=seed, n=args.n, p=args.p, selected=len(selected), fdp=fdp, power=power,
                hamming=hamming, alpha_1se=alpha_1se, alpha_min=alpha_min, seconds=seconds)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('dgp', choices=DGPS)
    ap.add_argument('--n', type=int, default=300)
    ap.add_argument('--p', type=int, default=1000)
    ap.add_argument('--seeds', type=int, nargs='+', default=[1, 2, 3])
    ap.add_argument('--folds', type=int, default=10)
    ap.add_argument('--no-standardize', action='store_true')
    ap.add_argument('--banditfs', default=os.path.join(os.path.dirname(__file__), '..', '..', 'build', 'banditfs'))
    ap.add_argument('--out', help='per-seed CSV')
    args = ap.parse_args()

    rows = []
    print(f'LASSO-1se on {args.dgp}, n = {args.n}, p = {args.p}, {args.folds}-fold CV')
    print(f'{"seed":>6} {"|S|":>5} {"FDP":>7} {"power":>7} {"Hamming":>8} {"alpha_1se":>10} {"alpha_min":>10} {"s":>6}')
    with tempfile.TemporaryDirectory() as tmp:
        for seed in args.seeds:
            r = run_seed(args, seed, tmp)
            rows.append(r)
            print(f'{seed:>6} {r["selected"]:>5} {r["fdp"]:>7.3f} {r["power"]:>7.3f} {r["hamming"]:>8} '
                  f'{r["alpha_1se"]:>10.4g} {r["alpha_min"]:>10.4g} {r["seconds"]:>6.2f}', flush=True)
    for key in ('fdp', 'power', 'hamming', 'selected'):
        m, se = mean_se([r[key] for r in rows])
        print(f'{key:>8}: {m:.3f} ± {se:.3f} (mean ± SE over {len(rows)} seeds)')
    if args.out:
        with open(args.out, 'w', newline='') as f:
            w = csv.DictWriter(f, fieldnames=FIELDS)
            w.writeheader()
            w.writerows(rows)
        print(f'wrote {args.out}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
