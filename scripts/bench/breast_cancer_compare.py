#!/usr/bin/python3
"""Puts banditfs's ranking of the breast cancer features beside scikit-learn's permutation importance
(docs/results.md §5).

banditfs side: the posterior means of the 30 real features (result.h5 /importance, /posterior_mean in the older
bandit-only layout; matched by /feature_names), averaged over the given runs (e.g. the seeds of
jobs/examples/breast_cancer.toml), plus per run the number of selected real features, of selected noise columns
(noise1..noise300, mean >= 0.5) and the largest noise mean. scikit-learn side: RandomForestClassifier(n_estimators=100,
max_depth=10, random_state=0) (max_features 'sqrt', scikit-learn's default, unless --max-features says otherwise) fitted
on all 330 columns (the 30 real features + 300 N(0,1) columns of its own, seeded by --noise-seed), 80/20
train_test_split (random_state=0, stratified), permutation_importance(scoring='roc_auc', n_repeats=10, random_state=0)
on the test part; also the same forest's impurity importance (MDI, feature_importances_) for reference. It prints a
table (feature, banditfs mean, banditfs rank, sklearn importance, sklearn rank, MDI rank; ranks among the 30 real
features, 1 = most important), the Spearman rank correlation over the 30 real features (with the permutation importance,
and with MDI), and how many of sklearn's noise columns have an importance above the smallest importance of the real
features banditfs selected (averaged mean >= 0.5).

  /usr/bin/python3 scripts/bench/breast_cancer_compare.py results/bench/breast_cancer/seed*/result.h5
"""
import argparse
import sys

import h5py
import numpy as np
from scipy.stats import rankdata, spearmanr
from sklearn.datasets import load_breast_cancer
from sklearn.ensemble import RandomForestClassifier
from sklearn.inspection import permutation_importance
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split


def read_run(path, names):
    """Posterior means of the real features (in sklearn's order) and the facts about the noise columns of one run."""
    with h5py.File(path, "r") as f:
        mean = f["importance" if "importance" in f else "posterior_mean"][()]  # new / older layout
        fnames = [n.decode() if isinstance(n, bytes) else str(n) for n in f["feature_names"][()]]
    index = {n: k for k, n in enumerate(fnames)}
    missing = [n for n in names if n not in index]
    if missing:
        sys.exit(f"{path}: features not found: {missing[:5]}")
    real = np.array([mean[index[n]] for n in names])
    noise = np.array([m for n, m in zip(fnames, mean) if n.startswith("noise")])
    return real, {"path": path, "selected_real": int((real >= 0.5).sum()),
                  "selected_noise": int((noise >= 0.5).sum()) if noise.size else 0,
                  "max_noise": float(noise.max()) if noise.size else float("nan"), "noise_columns": int(noise.size)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="+", help="banditfs result.h5 files (averaged)")
    ap.add_argument("--noise", type=int, default=300, help="N(0,1) columns appended on the sklearn side")
    ap.add_argument("--noise-seed", type=int, default=1, help="seed of the sklearn side's noise columns")
    ap.add_argument("--repeats", type=int, default=10, help="permutation repeats")
    ap.add_argument("--top", type=int, default=30, help="table rows (by banditfs rank)")
    ap.add_argument("--max-features", default="sqrt",
                    help="the classifier's max_features: 'sqrt' (scikit-learn's default) or a fraction, e.g. 0.33 "
                         "as in jobs/examples/breast_cancer.toml")
    args = ap.parse_args()

    data = load_breast_cancer()
    names = [str(n).replace(" ", "_") for n in data.feature_names]
    p = len(names)

    runs = [read_run(path, names) for path in args.results]
    bfs = np.mean([r[0] for r in runs], axis=0)
    print("banditfs runs (selected = posterior mean >= 0.5)")
    print(f"{'run':60s}{'real sel':>9s}{'noise sel':>10s}{'max noise':>10s}")
    for _, facts in runs:
        print(f"{facts['path']:60s}{facts['selected_real']:9d}{facts['selected_noise']:10d}{facts['max_noise']:10.3f}")

    max_features = args.max_features if args.max_features in ("sqrt", "log2") else float(args.max_features)
    X = np.column_stack([data.data, np.random.default_rng(args.noise_seed).standard_normal((data.data.shape[0],
                                                                                           args.noise))])
    y = data.target
    X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    model = RandomForestClassifier(n_estimators=100, max_depth=10, random_state=0, n_jobs=1,
                                   max_features=max_features).fit(X_tr, y_tr)
    auc = roc_auc_score(y_te, model.predict_proba(X_te)[:, 1])
    pi = permutation_importance(model, X_te, y_te, scoring="roc_auc", n_repeats=args.repeats, random_state=0,
                                n_jobs=1).importances_mean
    skl, skl_noise = pi[:p], pi[p:]
    mdi = model.feature_importances_[:p]

    bfs_rank = rankdata(-bfs, method="min").astype(int)
    skl_rank = rankdata(-skl, method="min").astype(int)
    mdi_rank = rankdata(-mdi, method="min").astype(int)
    rho, pval = spearmanr(bfs, skl)
    rho_mdi, pval_mdi = spearmanr(bfs, mdi)
    print(f"\nsklearn: RandomForestClassifier(100 trees, depth 10, max_features {max_features}) on {p} real + "
          f"{args.noise} noise columns, test AUC {auc:.4f}; permutation importance (roc_auc, {args.repeats} repeats) "
          f"on {len(y_te)} test rows")
    print(f"\n{'feature':26s}{'banditfs mean':>14s}{'bfs rank':>9s}{'sklearn imp':>13s}{'skl rank':>9s}"
          f"{'MDI rank':>9s}")
    for k in np.argsort(bfs_rank, kind="stable")[:args.top]:
        print(f"{names[k]:26s}{bfs[k]:14.3f}{bfs_rank[k]:9d}{skl[k]:13.5f}{skl_rank[k]:9d}{mdi_rank[k]:9d}")
    print(f"\nSpearman rank correlation over the {p} real features: rho = {rho:.3f} (p = {pval:.2g}); "
          f"banditfs means averaged over {len(runs)} run(s)")
    print(f"Spearman with the forest's impurity importance (MDI) instead: rho = {rho_mdi:.3f} (p = {pval_mdi:.2g})")

    sel = np.flatnonzero(bfs >= 0.5)
    if sel.size:
        floor = skl[sel].min()
        above = int((skl_noise > floor).sum())
        print(f"banditfs selects {sel.size} real features (averaged mean >= 0.5): "
              f"{', '.join(names[k] for k in sel[np.argsort(-bfs[sel])])}")
        print(f"their smallest sklearn importance: {floor:.5f}; sklearn noise columns above it: {above} of "
              f"{args.noise} (largest noise importance {skl_noise.max():.5f}; noise columns with importance > 0: "
              f"{int((skl_noise > 0).sum())})")
    else:
        print("banditfs selects no real feature on average (no mean >= 0.5)")


if __name__ == "__main__":
    main()
