#!/usr/bin/python3
"""Real tables as they come (docs/results.md, "Real tables"): banditfs against the peer a user would reach for.

The tables are scripts/data/export_r_tables.sh's CSVs (airquality, palmerpenguins' penguins, MASS's survey and
Cars93: NA cells, text and factor columns, a text label). To each, this appends 20 N(0,1) columns noise1..noise20
and 5 categorical noise columns catnoise1..catnoise5 (3-6 levels named by letters, uniform), drawn once from
--noise-seed, and writes the augmented CSV (missing cells as NA) that both sides read. A regression table also gets
a text label <target>_high ("high" above the target's median, "low" otherwise, NA where the target is), so that FUSE
(binary targets only, [FUSE]) runs on every table; every other job excludes it.

Peer: scikit-learn's HistGradientBoostingRegressor / Classifier with the hyperparameters of the banditfs side
(100 rounds, learning rate 0.1, 31 leaves, min_samples_leaf --min-leaf, no early stopping; NaN native; text columns
through OrdinalEncoder fitted on all rows, NaN kept as missing, and categorical_features), permutation_importance
(10 repeats; R² or ROC AUC) on the held-out 20% of --splits random splits (stratified for a binary target), rows
without a target dropped. Importance = the mean drop over splits x repeats; a column is selected when scikit-learn's
own example's rule (mean drop more than twice its standard deviation over the repeats) holds on most splits.

banditfs (the build's binary): the bandit with hgb (same hyperparameters), TTTS, reward.null = "shadow"
(relative 0.02 on R² for regression, absolute 0.01 on AUC for binary), FIRST (its defaults), and FUSE (binary
targets: select = "path", the most-visited path). Selected = summary.csv's `selected`.

Printed (markdown, for docs/results.md): per task the real columns' importances and ranks for each side, then one
row per method: real and noise columns selected and the Spearman rank correlation with the peer over the real
columns.

  bash scripts/data/export_r_tables.sh results/data/real
  /usr/bin/python3 scripts/bench/real_tables.py build [--tables airquality,penguins,survey,cars93] [--seed 1]
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np
import pandas as pd
from scipy.stats import spearmanr
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from sklearn.inspection import permutation_importance
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import OrdinalEncoder

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOISE, CAT_NOISE = 20, 5

# table -> its task: target, task, positive label (binary), columns that are not features (data.exclude).
TABLES = {
    "airquality": dict(target="Ozone", task="regression", exclude=[]),
    "penguins": dict(target="sex", task="binary", positive="male", exclude=[]),
    "survey": dict(target="Height", task="regression", exclude=[]),
    # Model and Make name one car per row (ids); Min_Price and Max_Price are the target's own range.
    "cars93": dict(target="Price", task="regression", exclude=["Model", "Make", "Min_Price", "Max_Price"]),
}


def augment(df, spec, seed):
    """The table with the noise columns appended (and a regression target's text label <target>_high)."""
    rng = np.random.default_rng(seed)
    out = df.copy()
    for j in range(NOISE):
        out[f"noise{j + 1}"] = rng.standard_normal(len(df))
    for j in range(CAT_NOISE):
        levels = list("abcdef"[: rng.integers(3, 7)])
        out[f"catnoise{j + 1}"] = rng.choice(levels, size=len(df))
    if spec["task"] == "regression":
        y = df[spec["target"]]
        out[spec["target"] + "_high"] = np.where(y.isna(), None, np.where(y > y.median(), "high", "low"))
    return out


def tasks_of(name, spec):
    """(label, target, task, positive, exclude, methods) of a table: its own task, and FUSE's binary one."""
    if spec["task"] == "binary":
        return [(name, spec["target"], "binary", spec["positive"], spec["exclude"], ["bandit", "first", "fuse"])]
    high = spec["target"] + "_high"
    return [(name, spec["target"], "regression", None, spec["exclude"] + [high], ["bandit", "first"]),
            (f"{name} ({high})", high, "binary", "high", spec["exclude"] + [spec["target"]], ["fuse"])]


def peer(df, target, task, positive, exclude, splits, min_leaf):
    """scikit-learn's importances (mean drop, selected) of every feature column."""
    df = df[df[target].notna()]
    feats = [c for c in df.columns if c != target and c not in exclude]
    X = df[feats].copy()
    text = [c for c in feats if X[c].dtype == object]
    if text:
        X[text] = OrdinalEncoder().fit_transform(X[text])  # NaN stays NaN: a missing category for HGB
    X = X.to_numpy(dtype=float)
    y = (df[target] == positive).to_numpy(dtype=int) if task == "binary" else df[target].to_numpy(dtype=float)
    mask = [c in text for c in feats]
    params = dict(max_iter=100, learning_rate=0.1, max_leaf_nodes=31, min_samples_leaf=min_leaf, early_stopping=False,
                  categorical_features=mask if text else None, random_state=0)
    model = HistGradientBoostingClassifier(**params) if task == "binary" else HistGradientBoostingRegressor(**params)
    means, votes, scores = [], [], []
    for s in range(splits):
        Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.2, random_state=s,
                                              stratify=y if task == "binary" else None)
        model.fit(Xtr, ytr)
        scoring = "roc_auc" if task == "binary" else "r2"
        pi = permutation_importance(model, Xte, yte, scoring=scoring, n_repeats=10, random_state=s)
        means.append(pi.importances_mean)
        votes.append(pi.importances_mean - 2 * pi.importances_std > 0)
        scores.append(model.score(Xte, yte) if task == "regression" else None)
    selected = np.sum(votes, axis=0) * 2 > splits
    facts = {"rows": len(df), "r2": np.mean(scores) if task == "regression" else None}
    return pd.DataFrame({"importance": np.mean(means, axis=0), "selected": selected}, index=feats), facts


def job_text(method, csv, target, task, positive, exclude, seed, min_leaf, iterations, rows):
    data = [f'source = "csv"', f'path = "{csv}"', f'target = "{target}"', f'task = "{task}"']
    if positive is not None:
        data.append(f'positive_label = "{positive}"')
    if exclude:
        data.append("exclude = [" + ", ".join(f'"{c}"' for c in exclude) + "]")
    parts = ["[data]", *data, ""]
    if method == "bandit":
        rule = ('rule = "relative"\nthreshold = 0.02' if task == "regression"
                else 'rule = "absolute"\nthreshold = 0.01\nmetric = "auc"')
        parts += ["[estimator]", 'name = "hgb"', "learning_rate = 0.1", "n_estimators = 100", "max_leaves = 31",
                  f"min_samples_leaf = {min_leaf}", "validation_fraction = 0", "",
                  "[reward]", rule, "repeats = 10", 'null = "shadow"', "",
                  "[bandit]", 'policy = "ttts"', f"iterations = {iterations}", ""]
    elif method == "first":
        parts += ["[method]", 'name = "first"', ""]
    else:  # fuse: [FUSE]'s |V| = 100 validation rows, at most a third of the rows here
        parts += ["[method]", 'name = "fuse"', f"iterations = {100 * iterations}", 'select = "path"',
                  f"reward_subsample = {min(100, rows // 3)}", "batch = 4", ""]
    parts += ["[run]", f"seed = {seed}", "threads = 2"]
    return "\n".join(parts) + "\n"


def run_banditfs(binary, out, text):
    os.makedirs(out, exist_ok=True)
    job = os.path.join(out, "job.toml")
    with open(job, "w") as f:
        f.write(text)
    start = time.perf_counter()
    res = subprocess.run([binary, "run", job, "--quiet", "--force", "--out", os.path.join(out, "run")],
                         capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if res.returncode != 0:
        sys.exit(f"banditfs failed on {job}:\n{res.stderr}")
    s = pd.read_csv(os.path.join(out, "run", "summary.csv"))
    s = s.set_index("name")
    return pd.DataFrame({"importance": s["importance"], "selected": s["selected"].astype(bool)}), seconds


def is_noise(name):
    return name.startswith("noise") or name.startswith("catnoise")


def rank_of(values):
    """1 = most important; ties share the best rank."""
    return values.rank(ascending=False, method="min").astype(int)


def report(label, target, task, csv, missing, peer_res, peer_facts, runs, cmd):
    real = [c for c in peer_res.index if not is_noise(c)]
    print(f"### {label}: {target} ({task}), {peer_facts['rows']} rows with a target, {len(real)} real + "
          f"{NOISE + CAT_NOISE} noise features\n")
    print(f"`{cmd}`\n")
    head = "| column | missing | scikit-learn (rank) |" + "".join(f" {m} (rank) |" for m in runs)
    print(head)
    print("|" + " --- |" * (3 + len(runs)))
    pr = rank_of(peer_res.loc[real, "importance"])
    ranks = {m: rank_of(r.loc[real, "importance"]) for m, (r, _) in runs.items()}
    for c in sorted(real, key=lambda c: pr[c]):
        mark = lambda sel: "*" if sel else ""  # noqa: E731
        cells = [f"{peer_res.loc[c, 'importance']:.3f}{mark(peer_res.loc[c, 'selected'])} ({pr[c]})"]
        cells += [f"{r.loc[c, 'importance']:.3f}{mark(r.loc[c, 'selected'])} ({ranks[m][c]})" for m, (r, _) in
                  runs.items()]
        print(f"| {c} | {missing.get(c, 0)} | " + " | ".join(cells) + " |")
    print("\n| method | real selected | noise selected (of 25) | Spearman with scikit-learn (real columns) | "
          "seconds |")
    print("| --- | --- | --- | --- | --- |")
    rows = [("scikit-learn", peer_res, None)] + [(m, r, sec) for m, (r, sec) in runs.items()]
    for m, r, sec in rows:
        noise_sel = [c for c in r.index if is_noise(c) and r.loc[c, "selected"]]
        rho = "" if m == "scikit-learn" else f"{spearmanr(r.loc[real, 'importance'], peer_res.loc[real, 'importance'])[0]:.2f}"
        names = f" ({', '.join(noise_sel)})" if noise_sel else ""
        print(f"| {m} | {int(r.loc[real, 'selected'].sum())} of {len(real)} | {len(noise_sel)}{names} | {rho} | "
              f"{'' if sec is None else f'{sec:.1f}'} |")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", help="build directory holding banditfs")
    ap.add_argument("--data", default=os.path.join(ROOT, "results", "data", "real"), help="export_r_tables.sh's dir")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "bench", "real_tables"))
    ap.add_argument("--tables", default=",".join(TABLES))
    ap.add_argument("--methods", default="bandit,first,fuse")
    ap.add_argument("--seed", type=int, default=1, help="run.seed of the banditfs jobs")
    ap.add_argument("--noise-seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=300, help="bandit iterations (FUSE: 100x)")
    ap.add_argument("--splits", type=int, default=5, help="the peer's random 80/20 splits")
    ap.add_argument("--min-leaf", type=int, default=10, help="min_samples_leaf on both sides (small tables)")
    args = ap.parse_args()
    binary = os.path.join(os.path.abspath(args.build), "banditfs")
    methods = args.methods.split(",")
    for name in args.tables.split(","):
        spec = TABLES[name]
        df = pd.read_csv(os.path.join(args.data, f"{name}.csv"), keep_default_na=True)
        aug = augment(df, spec, args.noise_seed)
        csv = os.path.join(args.out, f"{name}_noise.csv")
        os.makedirs(args.out, exist_ok=True)
        aug.to_csv(csv, index=False, na_rep="NA")
        missing = {c: int(v) for c, v in df.isna().sum().items() if v}
        for label, target, task, positive, exclude, task_methods in tasks_of(name, spec):
            peer_res, facts = peer(aug, target, task, positive, exclude, args.splits, args.min_leaf)
            runs = {}
            for m in [m for m in task_methods if m in methods]:
                out = os.path.join(args.out, f"{name}_{target}_{m}")
                text = job_text(m, csv, target, task, positive, exclude, args.seed, args.min_leaf, args.iterations,
                                facts["rows"])
                runs[m] = run_banditfs(binary, out, text)
            cmd = (f"/usr/bin/python3 scripts/bench/real_tables.py BUILD --tables {name} --seed {args.seed} "
                   f"--noise-seed {args.noise_seed}")
            report(label, target, task, csv, missing, peer_res, facts, runs, cmd)


if __name__ == "__main__":
    main()
