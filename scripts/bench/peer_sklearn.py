#!/usr/bin/python3
"""The scikit-learn peer of banditfs: paper 000's Algorithms 2 + 3 written as a careful Python user would.

Bandit feature selection (Wu, paper 000): one Beta posterior per feature (uniform prior); each iteration draws a
super-arm with Thompson sampling (`ts`: S = {k : theta_k >= 0.5}) or top-two Thompson sampling (`ttts`: with
probability 1/2 play S, else redraw S' until S' != S -- at most --max-redraws times, falling back to S -- and play
the symmetric difference of S and S'); splits the rows 80/20 with train_test_split and bootstraps the training part
only; fits RandomForestRegressor(n_estimators=100, max_depth=10, n_jobs=1) on the super-arm's columns; scores every
played feature with sklearn.inspection.permutation_importance (R^2, n_repeats=10, n_jobs=1) on the test part; gives
reward 1(importance >= nu) (absolute) or 1(importance / |R^2_test| >= nu) (relative); and updates the played arms
only (semi-bandit feedback). Nothing here is tuned for speed: it is the baseline banditfs is measured against
(docs/performance.md, "The scikit-learn peer").

Data: friedman1 / friedman3 generated as paper 000 eq. 1 / eq. 3 (x ~ U[0,1]^p, N(0,1) noise; truth x1..x5), or an
HDF5 file in banditfs's schema (/X float32 [n, p], /y float64 [n], optional /truth int32, 0-based) so that both
tools see the very same rows, e.g.

  /work/main/build/banditfs simulate friedman1 --n 300 --p 1000 --seed 1 --out /tmp/f1.h5
  /usr/bin/python3 scripts/bench/peer_sklearn.py --data /tmp/f1.h5 --iterations 3 --out /tmp/peer.json
  /usr/bin/python3 scripts/bench/peer_sklearn.py --dgp friedman3 --n 300 --p 200 --seed 2 --iterations 20 --policy ts

Binary targets (--binary): RandomForestClassifier(n_estimators=100, max_depth=10, n_jobs=1,
max_features=--forest-max-features, default 1.0 like banditfs' forest, not scikit-learn's sqrt) instead of the
regressor, labels /y (0/1, or -1/1 mapped to 0/1) from an HDF5 file written by `banditfs simulate friedman1
--binary`, the test score is the AUC (roc_auc_score of predict_proba), permutation_importance uses
scoring='roc_auc', and the same reward rule turns the AUC drops into rewards (relative: drop / |AUC_test|), e.g.

  /work/main/build/banditfs simulate friedman1 --binary --n 300 --p 1000 --seed 1 --out /tmp/f1b.h5
  /usr/bin/python3 scripts/bench/peer_sklearn.py --binary --data /tmp/f1b.h5 --iterations 3

Per iteration the JSON result records the arm size, the test score (R^2, or AUC with --binary), and the seconds
spent in the fit, in the importance and in the whole iteration; at the end the posterior means, whether the truth
is separated (every true feature >= 0.5, every noise feature < 0.5) and the first iteration (1-based) after which
it was.
Needs Debian's python3-sklearn, numpy and h5py, i.e. /usr/bin/python3.
"""
import argparse
import json
import sys
import time

import numpy as np
from sklearn.ensemble import RandomForestClassifier, RandomForestRegressor
from sklearn.inspection import permutation_importance
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split

TRUTH = np.arange(5)  # both Friedman DGPs: x1..x5 matter, the rest is noise


def friedman(dgp, n, p, seed):
    """Simulates paper 000 eq. 1 (friedman1) or eq. 3 (friedman3): x ~ U[0,1]^p, y = f(x) + N(0, 1)."""
    if p < 5:
        raise ValueError("friedman DGPs need p >= 5")
    rng = np.random.default_rng(seed)
    X = rng.uniform(0.0, 1.0, size=(n, p))
    x1, x2, x3, x4, x5 = (X[:, j] for j in range(5))
    if dgp == "friedman1":
        f = 10 * np.sin(np.pi * x1 * x2) + 20 * (x3 - 0.5) ** 2 + 10 * x4 + 5 * x5
    elif dgp == "friedman3":
        f = 0.1 * np.exp(4 * x1) + 4 / (1 + np.exp(-20 * (x2 - 0.5))) + 4 * x3 + 3 * x4 + 2 * x5
    else:
        raise ValueError(f"unknown dgp {dgp!r}")
    y = f + rng.standard_normal(n)
    return X, y, TRUTH.copy()


def read_hdf5(path):
    """Reads /X, /y and the optional /truth (0-based indices) of a banditfs HDF5 data file."""
    import h5py

    with h5py.File(path, "r") as f:
        if "period" in f:
            print("note: /period is ignored, all rows are used (offline)", file=sys.stderr)
        X = f["X"][()]
        y = f["y"][()]
        truth = np.sort(f["truth"][()].astype(int)) if "truth" in f else None
    return X, y, truth


def binary_labels(y):
    """0/1 labels from a binary /y: {0,1} kept, {-1,1} mapped to {0,1}; anything else is refused."""
    values = set(np.unique(y).tolist())
    if values <= {0.0, 1.0}:
        return y.astype(int)
    if values <= {-1.0, 1.0}:
        return (y > 0).astype(int)
    raise ValueError(f"--binary needs labels in {{0,1}} or {{-1,1}}, got {sorted(values)[:5]}")


def oracle(alpha, beta, rng):
    """One Thompson draw theta_k ~ Beta(alpha_k, beta_k) and the median-probability oracle {k : theta_k >= 0.5}."""
    return np.flatnonzero(rng.beta(alpha, beta) >= 0.5)


def choose_arm(alpha, beta, policy, rng, max_redraws):
    """Draws a super-arm (sorted feature indices) with TS or TTTS (Algorithm 2, bounded redraws, fallback to S)."""
    S = oracle(alpha, beta, rng)
    info = {"second": False, "redraws": 0, "fallback": False}
    if policy == "ttts" and rng.uniform() > 0.5:
        for attempt in range(1, max_redraws + 1):
            S2 = oracle(alpha, beta, rng)
            info["redraws"] = attempt
            if not np.array_equal(S, S2):
                info["second"] = True
                return np.setxor1d(S, S2), info
        info["fallback"] = True
    return S, info


def cap_arm(arm, max_features, p, rng):
    """Keeps a uniform random subset of at most floor(max_features * p) arms (at least 1), as the reference does."""
    cap = max(1, int(np.floor(max_features * p + 1e-9)))
    if arm.size > cap:
        arm = np.sort(rng.choice(arm, size=cap, replace=False))
    return arm


def rewards(importance, r2_test, rule, threshold, min_abs_r2):
    """Binary rewards from permutation importance: absolute 1(pi >= nu) or relative 1(pi / |R^2_test| >= nu)."""
    if rule == "absolute":
        return (importance >= threshold).astype(int)
    if abs(r2_test) < min_abs_r2:  # relative change is meaningless when the test R^2 is ~0
        return np.zeros(importance.size, dtype=int)
    return (importance / abs(r2_test) >= threshold).astype(int)


def separated(mean, truth):
    """True when every true feature has mean >= 0.5 and every other feature < 0.5."""
    noise = np.ones(mean.size, dtype=bool)
    noise[truth] = False
    return bool(mean[truth].min() >= 0.5 and (mean[noise] < 0.5).all())


def run(X, y, truth, args):
    """Runs Algorithm 2 for args.iterations rounds; returns the per-iteration records and the final posterior."""
    n, p = X.shape
    rng = np.random.default_rng(args.seed)
    scoring = "roc_auc" if args.binary else "r2"
    metric = "auc" if args.binary else "r2"
    alpha = np.full(p, 1.0)
    beta = np.full(p, 1.0)
    records = []
    first_sep = -1
    for t in range(1, args.iterations + 1):
        t0 = time.perf_counter()
        arm, info = choose_arm(alpha, beta, args.policy, rng, args.max_redraws)
        arm = cap_arm(arm, args.max_features, p, rng)
        rec = {"iteration": t, "arm_size": int(arm.size), "fit_seconds": 0.0, "importance_seconds": 0.0,
               "test_score": None, "metric": metric, "positive": 0, **info}
        if arm.size > 0:
            train, test = train_test_split(np.arange(n), test_size=args.test_fraction,
                                           random_state=int(rng.integers(2**31 - 1)))
            boot = rng.choice(train, size=train.size, replace=True)  # bootstrap the training part only
            X_train, y_train = X[np.ix_(boot, arm)], y[boot]
            X_test, y_test = X[np.ix_(test, arm)], y[test]
            forest = RandomForestClassifier if args.binary else RandomForestRegressor
            model = forest(n_estimators=args.n_estimators, max_depth=args.max_depth, n_jobs=1,
                           max_features=args.forest_max_features, random_state=int(rng.integers(2**31 - 1)))
            t1 = time.perf_counter()
            model.fit(X_train, y_train)
            t2 = time.perf_counter()
            if args.binary and (np.unique(y_test).size < 2 or model.n_classes_ < 2):
                # AUC is undefined with one class in the test part (or a forest that saw one class): no reward
                score, r = float("nan"), np.zeros(arm.size, dtype=int)
            else:
                if args.binary:
                    score = roc_auc_score(y_test, model.predict_proba(X_test)[:, 1])
                else:
                    score = model.score(X_test, y_test)
                pi = permutation_importance(model, X_test, y_test, scoring=scoring, n_repeats=args.repeats,
                                            n_jobs=1, random_state=int(rng.integers(2**31 - 1)))
                r = rewards(pi.importances_mean, score, args.rule, args.threshold, args.min_abs_r2)
            t3 = time.perf_counter()
            alpha[arm] += r  # semi-bandit: only the played arms move
            beta[arm] += 1 - r
            rec.update(fit_seconds=t2 - t1, importance_seconds=t3 - t2, test_score=float(score),
                       positive=int(r.sum()))
        rec["wall_seconds"] = time.perf_counter() - t0
        records.append(rec)
        mean = alpha / (alpha + beta)
        if truth is not None and first_sep < 0 and separated(mean, truth):
            first_sep = t
        if not args.quiet:
            sc = "   -  " if rec["test_score"] is None else f"{rec['test_score']:6.3f}"
            print(f"iter {t:4d}  |S| {arm.size:5d}  {metric.upper()} {sc}  fit {rec['fit_seconds']:7.3f}s  "
                  f"importance {rec['importance_seconds']:7.3f}s  wall {rec['wall_seconds']:7.3f}s", flush=True)
    return records, alpha, beta, first_sep


def summarise(records, alpha, beta, truth, first_sep, args, shape, origin):
    """Builds the JSON-ready result: settings, timings, per-iteration records, posterior and separation."""
    mean = alpha / (alpha + beta)
    iters = len(records)
    tot = {k: float(sum(r[k] for r in records)) for k in ("wall_seconds", "fit_seconds", "importance_seconds")}
    out = {
        "tool": "peer_sklearn",
        "data_origin": origin,
        "n": shape[0], "p": shape[1],
        "settings": {k: getattr(args, k) for k in ("iterations", "policy", "rule", "threshold", "repeats",
                                                   "n_estimators", "max_depth", "forest_max_features",
                                                   "test_fraction", "max_features",
                                                   "max_redraws", "seed", "binary")},
        "metric": "auc" if args.binary else "r2",
        "iterations": iters,
        "timings": {**tot, **{"per_iteration_" + k: v / max(iters, 1) for k, v in tot.items()}},
        "records": records,
        "posterior_mean": mean.tolist(),
        "alpha": alpha.tolist(),
        "beta": beta.tolist(),
        "selected": np.flatnonzero(mean >= 0.5).tolist(),
    }
    if truth is not None:
        noise = np.ones(mean.size, dtype=bool)
        noise[truth] = False
        out.update(truth=truth.tolist(), true_means=mean[truth].tolist(),
                   max_noise_mean=float(mean[noise].max()) if noise.any() else None,
                   separated=separated(mean, truth), separation_iteration=first_sep)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_argument_group("data (either --data or a simulated DGP)")
    src.add_argument("--data", help="HDF5 file in banditfs's schema (/X, /y, optional /truth)")
    src.add_argument("--dgp", default="friedman1", choices=["friedman1", "friedman3"])
    src.add_argument("--n", type=int, default=300)
    src.add_argument("--p", type=int, default=1000)
    src.add_argument("--data-seed", type=int, default=None, help="simulation seed (default: --seed)")
    ap.add_argument("--binary", action="store_true",
                    help="classification: RandomForestClassifier, AUC test score, roc_auc permutation importance "
                         "(needs --data with 0/1 or -1/1 labels, e.g. from `banditfs simulate friedman1 --binary`)")
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--policy", choices=["ttts", "ts"], default="ttts")
    ap.add_argument("--rule", choices=["absolute", "relative"], default="absolute")
    ap.add_argument("--threshold", type=float, default=0.01, help="nu")
    ap.add_argument("--min-abs-r2", type=float, default=1e-6, help="relative rule: |R^2_test| below this gives 0")
    ap.add_argument("--repeats", type=int, default=10, help="B, permutation repeats")
    ap.add_argument("--n-estimators", type=int, default=100)
    ap.add_argument("--max-depth", type=int, default=10)
    ap.add_argument("--test-fraction", type=float, default=0.2)
    ap.add_argument("--max-features", type=float, default=1.0, help="cap on |S| as a fraction of p")
    ap.add_argument("--forest-max-features", type=float, default=1.0,
                    help="the forest's max_features (fraction of columns per split); 1.0 as banditfs' default, "
                         "also for the classifier, whose scikit-learn default would be sqrt")
    ap.add_argument("--max-redraws", type=int, default=100, help="TTTS: bound on redraws of S'")
    ap.add_argument("--seed", type=int, default=1, help="bandit seed (policy, splits, forests, permutations)")
    ap.add_argument("--out", help="write the result as JSON here")
    ap.add_argument("--quiet", action="store_true", help="no per-iteration lines")
    args = ap.parse_args()

    if args.binary and not args.data:
        ap.error("--binary needs --data (an HDF5 file from `banditfs simulate friedman1 --binary`)")
    if args.data:
        X, y, truth = read_hdf5(args.data)
        if args.binary:
            y = binary_labels(y)
        origin = f"hdf5:{args.data}"
    else:
        data_seed = args.seed if args.data_seed is None else args.data_seed
        X, y, truth = friedman(args.dgp, args.n, args.p, data_seed)
        origin = f"simulate:{args.dgp} (n = {args.n}, p = {args.p}, seed {data_seed})"
    records, alpha, beta, first_sep = run(X, y, truth, args)
    res = summarise(records, alpha, beta, truth, first_sep, args, X.shape, origin)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(res, f, indent=1)

    tm = res["timings"]
    print(f"peer_sklearn: {origin}, {res['metric']}, {args.policy}, {args.rule} nu = {args.threshold}, "
          f"{res['iterations']} iterations")
    print(f"  per iteration: wall {tm['per_iteration_wall_seconds']:.3f}s  fit {tm['per_iteration_fit_seconds']:.3f}s"
          f"  importance {tm['per_iteration_importance_seconds']:.3f}s")
    if truth is not None:
        tm_ = ", ".join(f"x{k + 1} {m:.3f}" for k, m in zip(res["truth"], res["true_means"]))
        print(f"  true means: {tm_}; max noise mean {res['max_noise_mean']:.3f}; "
              f"separated {'yes' if res['separated'] else 'no'} (first at iteration {res['separation_iteration']})")
    print(f"  selected (mean >= 0.5): {[k + 1 for k in res['selected']][:20]}")


if __name__ == "__main__":
    main()
