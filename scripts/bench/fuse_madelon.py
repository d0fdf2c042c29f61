#!/usr/bin/python3
"""FUSE on madelon-like: [FUSE] §7.1–§7.2 (Fig. 2 left, Fig. 3), the protocol of docs/fuse.md.

Paper 001 §7.1: Madelon (2600 rows = 2000 train + 600 valid, 500 columns, 20 relevant), 5-fold stratified CV,
200 000 Monte-Carlo iterations per fold, k = 5, b = 2; every feature selection judged by the same end learner, a
Gaussian SVM whose hyper-parameters are chosen by 5-fold CV on the training rows. Baselines Gini-RF (1000 trees)
and Lasso (glmnet); RAND^R = the average score of uniform 20-feature subsets. §7.2: the FUSE paths hold 5 to 15
features; FUSE^R beats Gini-RF with few features and Lasso on Madelon; FUSE^R beats FUSE (path); on the challenge
split FUSE^R reaches 6.5 % (best entry 6.22 %); Fig. 3: FUSE is flat after 10⁴ iterations, RAND^R needs about 10×
the iterations of FUSE^R.

The acceptance items this script measures (targets and results: docs/fuse.md):
  1. Fig. 2 left (study `cv`): SVM test error vs number of features for D-FUSE, D-FUSE^R, C-FUSE, C-FUSE^R,
     RAND^R, Gini-RF and Lasso, mean ± SE over the 5 folds × R runs of the first 2600 rows of
     `banditfs simulate madelon-like`.
  2. §7.2's checks (study `cv`): path lengths within 5–15; FUSE^R (D and C) vs Gini-RF at every size ≤ 10 and vs
     Lasso at every size ≤ 20 (difference and whether it exceeds 2 SE of the paired difference); FUSE^R's top 20
     vs the FUSE path.
  3. The challenge split (study `final`): train on rows 0–2599, test on rows 2600–4399; the best D-FUSE^R error
     over the sizes beside the SVM on the 20 true columns.
  4. Fig. 3 (study `iters`): top-20 SVM error of D-FUSE^R, D-FUSE (path) and RAND^R at 10², 10³, 10⁴, 10⁵, 2·10⁵
     iterations; is FUSE flat after 10⁴ (within 2 SE), and how many iterations RAND^R needs to reach FUSE^R's
     error at 10⁴.

What it runs (every command is appended to OUT/commands.log with its exit code and seconds, and its seconds to
OUT/timings.csv):
  banditfs simulate madelon-like --seed S --out OUT/data/dS/madelon.h5
  banditfs run OUT/runs/TAG/SPLIT/HEURISTIC/rR/job.toml --quiet --out OUT/runs/TAG/SPLIT/HEURISTIC/rR [--set K=V ...]
      job.toml: [method] name = "fuse", iterations, heuristic, select = "rave"; [data] source = "hdf5",
      path = SPLIT's training file, task = "binary"; [run] seed = R, threads = 1
  banditfs evaluate RUN/result.h5 --train TRAIN.h5 --test TEST.h5 --learner svm --sizes 1,...,20,30,50 \
      --out RUN/eval.csv
  banditfs evaluate RUN/path_rank.h5 --train TRAIN.h5 --test TEST.h5 --learner svm --sizes L --out RUN/path_eval.csv
  banditfs evaluate --rank-by gini-rf|lasso --train TRAIN.h5 --test TEST.h5 --learner svm --sizes ... --out ...
FUSE (path) is judged through `evaluate` too: path_rank.h5 is a minimal result file (the layout of
src/output/result_io.hpp: /feature_names, /importance, /rank, /selected, attribute method = "ranking" and an empty
group /ranking) whose /rank puts /fuse/path's columns first, in path order; only its first L = path length columns
are evaluated, so the order of the rest does not matter. The true columns are judged the same way (truth_rank.h5).
A run whose result.h5 exists is skipped (one with only a checkpoint.h5 is resumed), and so is an evaluation whose
CSV exists: an interrupted study resumes where it stopped. Runs are shared between studies: `iters` at
2·10⁵ reuses `cv`'s runs and evaluations.

  fuse_madelon.py --study cv    [--runs 2] [--iterations 200000] [--heuristics discrete,continuous,rand]
  fuse_madelon.py --study final [--runs 2] [--iterations 200000]
  fuse_madelon.py --study iters [--runs 2] [--iteration-grid 100,1000,10000,100000,200000] [--heuristics discrete,rand]
Common: --out DIR (default results/fuse_madelon), --banditfs PATH (default build/banditfs), --jobs N (processes,
default 2), --folds-used 0,1 (default all 5), --data-seed S (default 1), --fold-seed (default 0), --set KEY=VALUE
(repeatable, passed to every fuse run; the run directory's name records it). Smoke test:
  /usr/bin/python3 scripts/bench/fuse_madelon.py --study cv --iterations 500 --runs 1 --folds-used 0 --jobs 1 \
      --out /tmp/fm
Outputs in OUT/STUDY/TAG/: summary.csv, summary.md, checks.txt and fig2_left.png (cv); final.md (final);
iters_summary.csv, iters.md, checks.txt and fig3.png (iters). Needs numpy, h5py, matplotlib: /usr/bin/python3.
"""
import argparse
import concurrent.futures
import csv
import math
import os
import re
import shlex
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import h5py
import numpy as np

REPO = Path(__file__).resolve().parents[2]
SIZES = list(range(1, 21)) + [30, 50]
TABLE_SIZES = [1, 2, 3, 5, 10, 15, 20, 30, 50]
CV_ROWS, N_FOLDS = 2600, 5
RANKED = {"discrete": "D-FUSE^R", "continuous": "C-FUSE^R", "rand": "RAND^R"}
PATHED = {"discrete": "D-FUSE", "continuous": "C-FUSE"}
BASELINES = {"gini-rf": "Gini-RF", "lasso": "Lasso"}
DEFAULT_HEURISTICS = {"cv": "discrete,continuous,rand", "final": "discrete", "iters": "discrete,rand"}
COLOR = {m: f"C{i}" for i, m in enumerate(list(RANKED.values()) + list(BASELINES.values()) + list(PATHED.values()))}
PAPER_BEST_FUSE_R, PAPER_BEST_ENTRY = 0.065, 0.0622  # §7.2: FUSE^R vs Shen et al. (2008) on the challenge split


# ---------------------------------------------------------------------------------------------------- commands


class Banditfs:
    """Runs banditfs commands, logging each (OUT/commands.log) and its seconds (OUT/timings.csv)."""

    def __init__(self, binary, out):
        self.binary, self.out, self.lock = str(binary), Path(out), threading.Lock()

    def _append(self, name, line):
        with self.lock, open(self.out / name, "a") as f:
            f.write(line + "\n")

    def __call__(self, args, kind):
        cmd = [self.binary] + [str(a) for a in args]
        text = shlex.join(cmd)
        self._append("commands.log", f"[{time.strftime('%F %T')}] $ {text}")
        print(f"$ {text}", flush=True)
        start = time.monotonic()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.monotonic() - start
        self._append("commands.log", f"    exit {proc.returncode} after {seconds:.1f} s")
        self._append("timings.csv", f"{kind},{seconds:.2f},{proc.returncode},\"{text}\"")
        if proc.returncode != 0:
            raise RuntimeError(f"{text}\nexit {proc.returncode}: {proc.stderr.strip()}")
        return proc.stdout


# -------------------------------------------------------------------------------------------------------- data


def write_h5(path, X, y, names, truth=None):
    """An input file as banditfs reads it: /X float32 rows × cols, /y float64, /feature_names strings, /truth int32."""
    tmp = Path(str(path) + ".tmp")
    with h5py.File(tmp, "w") as f:
        f.create_dataset("X", data=np.asarray(X, dtype=np.float32))
        f.create_dataset("y", data=np.asarray(y, dtype=np.float64))
        f.create_dataset("feature_names", data=names, dtype=h5py.string_dtype())
        if truth is not None:
            f.create_dataset("truth", data=np.asarray(truth, dtype=np.int32))
    os.replace(tmp, path)


def read_h5(path):
    with h5py.File(path, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["feature_names"][()]]
        truth = f["truth"][()].tolist() if "truth" in f else None
        return f["X"][()], f["y"][()], names, truth


def simulate(bfs, ctx):
    path = ctx.data_dir / "madelon.h5"
    if not path.exists():
        bfs(["simulate", "madelon-like", "--seed", ctx.data_seed, "--out", path], "simulate")
    return path


def stratified_folds(y, k, seed):
    """Test rows of each of k folds: each class's rows shuffled (numpy, seeded) and dealt round-robin."""
    rng = np.random.default_rng(seed)
    fold = np.empty(len(y), dtype=int)
    for label in np.unique(y):
        rows = rng.permutation(np.flatnonzero(y == label))
        fold[rows] = np.arange(len(rows)) % k
    return [np.flatnonzero(fold == i) for i in range(k)]


def write_split(ctx, name, data, train_rows, test_rows):
    X, y, names, truth = data
    train, test = ctx.data_dir / f"{name}_train.h5", ctx.data_dir / f"{name}_test.h5"
    for path, rows in ((train, train_rows), (test, test_rows)):
        if not path.exists():
            write_h5(path, X[rows], y[rows], names, truth)
    return train, test


def cv_splits(bfs, ctx):
    """{fold: (train.h5, test.h5)} for the used folds of the first 2600 rows."""
    data = read_h5(simulate(bfs, ctx))
    y = data[1][:CV_ROWS]
    tests = stratified_folds(y, N_FOLDS, ctx.fold_seed)
    splits = {}
    for k in ctx.folds:
        train_rows = np.setdiff1d(np.arange(CV_ROWS), tests[k])
        splits[k] = write_split(ctx, f"fold{k}_fs{ctx.fold_seed}", data, train_rows, tests[k])
    return splits


def final_split(bfs, ctx):
    data = read_h5(simulate(bfs, ctx))
    n = len(data[1])
    return write_split(ctx, "final", data, np.arange(CV_ROWS), np.arange(CV_ROWS, n)), data


# ------------------------------------------------------------------------------------------------ rankings, runs


def write_ranking_h5(path, names, first):
    """A minimal result file whose /rank puts the columns `first` (0-based, in order) first, the rest after them."""
    if path.exists():
        return
    p = len(names)
    chosen = set(first)
    order = list(first) + [j for j in range(p) if j not in chosen]
    rank = np.empty(p, dtype=np.int32)
    rank[order] = np.arange(1, p + 1)
    tmp = Path(str(path) + ".tmp")
    with h5py.File(tmp, "w") as f:
        f.create_dataset("feature_names", data=names, dtype=h5py.string_dtype())
        f.create_dataset("importance", data=(p - rank).astype(np.float64))
        f.create_dataset("rank", data=rank)
        f.create_dataset("selected", data=np.sort(np.asarray(first, dtype=np.int32)))
        f.attrs["method"] = "ranking"
        f.create_group("ranking")
    os.replace(tmp, path)


def job_text(train, iterations, heuristic, seed):
    return (f'[method]\nname = "fuse"\niterations = {iterations}\nheuristic = "{heuristic}"\nselect = "rave"\n'
            f'[data]\nsource = "hdf5"\npath = "{Path(train).resolve()}"\ntask = "binary"\n'
            f"[run]\nseed = {seed}\nthreads = 1\n")


def fuse_run(bfs, ctx, split, train, heuristic, r, iterations):
    """The run directory of one FUSE run (result.h5 made unless it exists; a checkpoint is resumed)."""
    d = ctx.runs_dir(iterations) / split / heuristic / f"r{r}"
    if (d / "result.h5").exists():
        return d
    d.mkdir(parents=True, exist_ok=True)
    (d / "job.toml").write_text(job_text(train, iterations, heuristic, r))
    args = ["run", d / "job.toml", "--quiet", "--out", d]
    if (d / "checkpoint.h5").exists():
        args.append("--resume")
    for s in ctx.sets:
        args += ["--set", s]
    bfs(args, f"fuse_run:{heuristic}:{iterations}")
    return d


def read_eval(path):
    with open(path) as f:
        return [{"size": int(r["size"]), "error": float(r["test_error"]), "auc": float(r["test_auc"])}
                for r in csv.DictReader(f)]


def evaluate(bfs, out_csv, train, test, sizes, result=None, rank_by=None):
    """`banditfs evaluate` with the svm (skipped when out_csv exists); its rows as dicts."""
    if not out_csv.exists():
        source = [result] if result is not None else ["--rank-by", rank_by]
        bfs(["evaluate", *source, "--train", train, "--test", test, "--learner", "svm",
             "--sizes", ",".join(map(str, sizes)), "--out", out_csv],
            f"evaluate:{rank_by or 'result'}:{len(sizes)}_sizes")
    return read_eval(out_csv)


def evaluate_rank(bfs, d, train, test, sizes):
    """FUSE^R: the result's /rank at `sizes` (eval.csv holds all of SIZES; reused when it covers them)."""
    full = d / "eval.csv"
    if full.exists() or sizes == SIZES:
        rows = evaluate(bfs, full, train, test, SIZES, result=d / "result.h5")
    else:
        rows = evaluate(bfs, d / f"eval_k{'-'.join(map(str, sizes))}.csv", train, test, sizes, result=d / "result.h5")
    return [row for row in rows if row["size"] in sizes]


def evaluate_path(bfs, d, train, test):
    """FUSE: the SVM on the most-visited path's columns; None when the path is empty."""
    with h5py.File(d / "result.h5", "r") as f:
        path = f["fuse/path"][()].tolist()
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["feature_names"][()]]
    if not path:
        return None
    write_ranking_h5(d / "path_rank.h5", names, path)
    row = evaluate(bfs, d / "path_eval.csv", train, test, [len(path)], result=d / "path_rank.h5")[0]
    return dict(row, length=len(path))


def fuse_chain(bfs, ctx, split, fold, train, test, heuristic, r, iterations, sizes):
    """One FUSE run and its evaluations, as records (one per size of FUSE^R, one for the path)."""
    d = fuse_run(bfs, ctx, split, train, heuristic, r, iterations)
    base = {"iterations": iterations, "fold": fold, "run": r}
    records = [dict(base, method=RANKED[heuristic], size=row["size"], error=row["error"], auc=row["auc"])
               for row in evaluate_rank(bfs, d, train, test, sizes)]
    if heuristic in PATHED:
        path = evaluate_path(bfs, d, train, test)
        if path is None:
            print(f"note: {d} has an empty path", flush=True)
        else:
            records.append(dict(base, method=PATHED[heuristic], size="path", error=path["error"], auc=path["auc"],
                                length=path["length"]))
    return records


def baseline_chain(bfs, ctx, split, fold, train, test, rank_by, sizes):
    out = ctx.baselines_dir / split
    out.mkdir(parents=True, exist_ok=True)
    rows = evaluate(bfs, out / f"{rank_by}.csv", train, test, sizes, rank_by=rank_by)
    return [{"iterations": 0, "fold": fold, "run": 0, "method": BASELINES[rank_by], "size": row["size"],
             "error": row["error"], "auc": row["auc"]} for row in rows]


def run_all(ctx, tasks):
    """Runs the (callable) tasks on ctx.jobs threads, each driving one banditfs process at a time; their records."""
    records, failures = [], []
    with concurrent.futures.ThreadPoolExecutor(max_workers=ctx.jobs) as pool:
        for future in concurrent.futures.as_completed([pool.submit(t) for t in tasks]):
            try:
                records += future.result()
            except Exception as e:  # report every failure, not just the first
                failures.append(str(e))
    if failures:
        sys.exit("failed:\n" + "\n".join(failures))
    return records


# --------------------------------------------------------------------------------------------------- statistics


def mean_se(values):
    v = np.asarray(values, dtype=float)
    se = v.std(ddof=1) / math.sqrt(len(v)) if len(v) > 1 else float("nan")
    return len(v), float(v.mean()), se


def pick(records, method, size, iterations=None):
    return [r for r in records if r["method"] == method and r["size"] == size
            and (iterations is None or r["iterations"] in (iterations, 0))]


def paired_diff(records, a, b, size_a, size_b=None, iterations_a=None, iterations_b=None):
    """a − b paired by (fold, run) (a baseline, run 0, pairs with every run of its fold): mean, SE over the
    fold × run pairs, and SE over folds of the per-fold mean difference (the runs of one fold are not independent)."""
    size_b = size_a if size_b is None else size_b
    bs = {(r["fold"], r["run"]): r["error"] for r in pick(records, b, size_b, iterations_b)}
    diffs = defaultdict(list)
    for r in pick(records, a, size_a, iterations_a):
        other = bs.get((r["fold"], r["run"]), bs.get((r["fold"], 0)))
        if other is not None:
            diffs[r["fold"]].append(r["error"] - other)
    pairs = [d for ds in diffs.values() for d in ds]
    if not pairs:
        return None
    n, mean, se = mean_se(pairs)
    se_folds = mean_se([np.mean(ds) for ds in diffs.values()])[2]
    return {"n": n, "mean": mean, "se": se, "se_folds": se_folds}


def verdict(d):
    if not (d["se"] > 0):
        return "SE undefined" if math.isnan(d["se"]) else ("lower" if d["mean"] < 0 else "not lower")
    if d["mean"] < -2 * d["se"]:
        return "lower by > 2 SE"
    return "higher by > 2 SE" if d["mean"] > 2 * d["se"] else "within 2 SE"


def describe_diff(label, d):
    if d is None:
        return f"{label}: no pairs"
    return (f"{label}: {100 * d['mean']:+.2f} pts (SE {100 * d['se']:.2f} over {d['n']} fold×run pairs, "
            f"{100 * d['se_folds']:.2f} over folds) -> {verdict(d)}")


def summarize(records):
    """One row per (method, size): n, mean and SE of the error and AUC; path rows add the length's mean/min/max."""
    groups = defaultdict(list)
    for r in records:
        groups[(r["method"], r["size"])].append(r)
    rows = []
    for (method, size), rs in groups.items():
        n, err, err_se = mean_se([r["error"] for r in rs])
        _, auc, auc_se = mean_se([r["auc"] for r in rs])
        row = {"method": method, "size": size, "n": n, "mean_error": err, "se_error": err_se, "mean_auc": auc,
               "se_auc": auc_se}
        if size == "path":
            lengths = [r["length"] for r in rs]
            row.update(path_len_mean=float(np.mean(lengths)), path_len_min=min(lengths), path_len_max=max(lengths))
        rows.append(row)
    order = list(RANKED.values()) + list(BASELINES.values()) + list(PATHED.values())
    return sorted(rows, key=lambda r: (order.index(r["method"]), r["size"] == "path",
                                       0 if r["size"] == "path" else r["size"]))


def write_csv(path, rows):
    fields = list(dict.fromkeys(k for r in rows for k in r))
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        w.writerows(rows)


def pct(mean, se):
    return f"{100 * mean:.2f} ± {100 * se:.2f}" if not math.isnan(se) else f"{100 * mean:.2f}"


# ---------------------------------------------------------------------------------------------------- study cv


def cv_markdown(summary, ctx):
    by = {(r["method"], r["size"]): r for r in summary}
    methods = [m for m in list(RANKED.values()) + list(BASELINES.values()) if any(k[0] == m for k in by)]
    lines = [f"Test error (%) of the SVM, mean ± SE over folds {ctx.folds} × runs (baselines: over folds); "
             f"madelon-like seed {ctx.data_seed}, first {CV_ROWS} rows.", "",
             "| size | " + " | ".join(methods) + " |", "|---:|" + "---:|" * len(methods)]
    for size in TABLE_SIZES:
        cells = [pct(by[(m, size)]["mean_error"], by[(m, size)]["se_error"]) if (m, size) in by else "–"
                 for m in methods]
        lines.append(f"| {size} | " + " | ".join(cells) + " |")
    lines += ["", "| path method | n | mean length [min–max] | test error (%) |", "|---|---:|---:|---:|"]
    for m in PATHED.values():
        if (m, "path") in by:
            r = by[(m, "path")]
            lines.append(f"| {m} | {r['n']} | {r['path_len_mean']:.1f} [{r['path_len_min']}–{r['path_len_max']}] | "
                         f"{pct(r['mean_error'], r['se_error'])} |")
    return "\n".join(lines) + "\n"


def cv_checks(records, summary):
    lines = ["§7.2 checks (differences in error points, FUSE^R minus the other; 'lower' = FUSE^R better)."]
    for r in summary:
        if r["size"] == "path":
            inside = sum(5 <= x["length"] <= 15 for x in records if x["method"] == r["method"] and x["size"] == "path")
            lines.append(f"{r['method']} path length: mean {r['path_len_mean']:.1f}, min {r['path_len_min']}, "
                         f"max {r['path_len_max']}; {inside}/{r['n']} within 5–15 (paper: 5 to 15)")
    for fuse_r in ("D-FUSE^R", "C-FUSE^R"):
        for base, top in (("Gini-RF", 10), ("Lasso", 20)):
            for size in range(1, top + 1):
                d = paired_diff(records, fuse_r, base, size)
                if d is not None:
                    lines.append(describe_diff(f"{fuse_r} − {base} at {size}", d))
    for fuse_r, fuse in (("D-FUSE^R", "D-FUSE"), ("C-FUSE^R", "C-FUSE")):
        d = paired_diff(records, fuse_r, fuse, 20, "path")
        if d is not None:
            lines.append(describe_diff(f"{fuse_r} top 20 − {fuse} path", d))
    return "\n".join(lines) + "\n"


def plot_fig2(summary, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for m in list(RANKED.values()) + list(BASELINES.values()):
        rows = [r for r in summary if r["method"] == m and r["size"] != "path"]
        if rows:
            ax.errorbar([r["size"] for r in rows], [100 * r["mean_error"] for r in rows],
                        yerr=[100 * np.nan_to_num(r["se_error"]) for r in rows], label=m, marker=".", capsize=2,
                        color=COLOR[m])
    for m in PATHED.values():
        for r in (r for r in summary if r["method"] == m and r["size"] == "path"):
            x = r["path_len_mean"]
            ax.errorbar([x], [100 * r["mean_error"]], yerr=[100 * np.nan_to_num(r["se_error"])],
                        xerr=[[x - r["path_len_min"]], [r["path_len_max"] - x]], fmt="s", capsize=3, color=COLOR[m],
                        label=f"{m} (path length mean, min–max)")
    ax.set_xscale("log")
    ax.set_xlabel("number of features")
    ax.set_ylabel("test error (%)")
    ax.set_title("madelon-like, SVM test error (cf. paper 001 Fig. 2 left)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def study_cv(bfs, ctx):
    splits = cv_splits(bfs, ctx)
    tasks = []
    for fold, (train, test) in splits.items():
        for heuristic in ctx.heuristics:
            for r in range(1, ctx.runs + 1):
                tasks.append(lambda a=(f"fold{fold}_fs{ctx.fold_seed}", fold, train, test, heuristic, r):
                             fuse_chain(bfs, ctx, *a, ctx.iterations, SIZES))
        for rank_by in BASELINES:
            tasks.append(lambda a=(f"fold{fold}_fs{ctx.fold_seed}", fold, train, test, rank_by):
                         baseline_chain(bfs, ctx, *a, SIZES))
    records = run_all(ctx, tasks)
    out = ctx.study_dir("cv", ctx.iterations)
    summary = summarize(records)
    write_csv(out / "summary.csv", summary)
    (out / "summary.md").write_text(cv_markdown(summary, ctx))
    (out / "checks.txt").write_text(cv_checks(records, summary))
    plot_fig2(summary, out / "fig2_left.png")
    print((out / "summary.md").read_text() + "\n" + (out / "checks.txt").read_text())
    print(f"written: {out}/summary.csv, summary.md, checks.txt, fig2_left.png")


# ------------------------------------------------------------------------------------------------- study final


def study_final(bfs, ctx):
    (train, test), (_, _, names, truth) = final_split(bfs, ctx)
    tasks = [lambda h=h, r=r: fuse_chain(bfs, ctx, "final", 0, train, test, h, r, ctx.iterations, SIZES)
             for h in ctx.heuristics for r in range(1, ctx.runs + 1)]
    records = run_all(ctx, tasks)
    out = ctx.study_dir("final", ctx.iterations)
    lines = [f"Challenge split: train rows 0–{CV_ROWS - 1}, test rows {CV_ROWS}–; madelon-like seed {ctx.data_seed}, "
             f"{ctx.iterations} iterations, runs 1–{ctx.runs}.", ""]
    for h in ctx.heuristics:
        lines += final_lines(records, RANKED[h], PATHED.get(h))
    if truth:
        truth_file = ctx.baselines_dir / "final" / "truth_rank.h5"
        truth_file.parent.mkdir(parents=True, exist_ok=True)
        write_ranking_h5(truth_file, names, truth)
        row = evaluate(bfs, truth_file.with_name("truth.csv"), train, test, [len(truth)], result=truth_file)[0]
        lines.append(f"SVM on the {len(truth)} true columns: {100 * row['error']:.2f} % (AUC {row['auc']:.4f})")
    lines.append(f"paper §7.2 (real Madelon, challenge test set): FUSE^R {100 * PAPER_BEST_FUSE_R:.1f} %, "
                 f"best entry {100 * PAPER_BEST_ENTRY:.2f} %")
    (out / "final.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"written: {out}/final.md")


def final_lines(records, ranked, pathed):
    means = {s: mean_se([r["error"] for r in pick(records, ranked, s)]) for s in SIZES}
    best = min(SIZES, key=lambda s: means[s][1])
    n, m, se = means[best]
    per_run = defaultdict(list)
    for r in records:
        if r["method"] == ranked:
            per_run[r["run"]].append((r["error"], r["size"]))
    runs = ", ".join(f"r{k}: {100 * min(v)[0]:.2f} % at {min(v)[1]}" for k, v in sorted(per_run.items()))
    lines = [f"{ranked}: best mean error over sizes {pct(m, se)} % at {best} features (n = {n}); "
             f"per run best: {runs}",
             f"{ranked} at 20 features: {pct(*means[20][1:])} %"]
    if pathed:
        paths = pick(records, pathed, "path")
        if paths:
            n, m, se = mean_se([r["error"] for r in paths])
            lines.append(f"{pathed} (path, lengths {[r['length'] for r in paths]}): {pct(m, se)} %")
    return lines


# ------------------------------------------------------------------------------------------------- study iters


def iters_summary(records, grid):
    rows = []
    for method in list(RANKED.values()) + list(PATHED.values()):
        size = "path" if method in PATHED.values() else 20
        for it in grid:
            rs = pick(records, method, size, it)
            if rs:
                n, m, se = mean_se([r["error"] for r in rs])
                row = {"method": method, "iterations": it, "n": n, "mean_error": m, "se_error": se}
                if size == "path":
                    row["path_len_mean"] = float(np.mean([r["length"] for r in rs]))
                rows.append(row)
    return rows


def iters_checks(records, rows, grid):
    lines = ["Fig. 3 checks (top-20 error for FUSE^R and RAND^R, path error for FUSE; error points)."]
    if 10000 not in grid:
        lines.append("10^4 is not in the grid: no flatness or RAND^R check")
        return "\n".join(lines) + "\n"
    for fuse in PATHED.values():
        for it in (n for n in grid if n > 10000):
            d = paired_diff(records, fuse, fuse, "path", iterations_a=it, iterations_b=10000)
            if d is not None:
                lines.append(describe_diff(f"{fuse} at {it} − at 10^4 (flat if within 2 SE)", d))
    for fuse_r, fuse in (("D-FUSE^R", "D-FUSE"), ("C-FUSE^R", "C-FUSE")):
        for it in (n for n in grid if n >= 10000):
            d = paired_diff(records, fuse_r, fuse, 20, "path", iterations_a=it, iterations_b=it)
            if d is not None:
                label = f"{fuse_r} top 20 − {fuse} path at {it} (paper: FUSE^R better after 10^4)"
                lines.append(describe_diff(label, d))
    mean = {(r["method"], r["iterations"]): r["mean_error"] for r in rows}
    for fuse_r in ("D-FUSE^R", "C-FUSE^R"):
        target = mean.get((fuse_r, 10000))
        if target is None or not any(k[0] == "RAND^R" for k in mean):
            continue
        reached = [it for it in grid if mean.get(("RAND^R", it), 1.0) <= target]
        last = 100 * mean.get(("RAND^R", grid[-1]), float("nan"))
        lines.append(f"{fuse_r} at 10^4: {100 * target:.2f} %; RAND^R reaches it at "
                     + (f"{reached[0]} iterations ({reached[0] / 10000:g}× as many; paper: about 10×)" if reached
                        else f"no grid point (RAND^R at {grid[-1]}: {last:.2f} %)"))
    return "\n".join(lines) + "\n"


def plot_fig3(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    for method in dict.fromkeys(r["method"] for r in rows):
        rs = [r for r in rows if r["method"] == method]
        label = method + ("" if method in PATHED.values() else " (top 20)")
        a.errorbar([r["iterations"] for r in rs], [100 * r["mean_error"] for r in rs],
                   yerr=[100 * np.nan_to_num(r["se_error"]) for r in rs], marker="o", capsize=2, label=label,
                   color=COLOR[method])
        if method in PATHED.values():
            b.plot([r["iterations"] for r in rs], [r["path_len_mean"] for r in rs], marker="o", label=method,
                   color=COLOR[method])
    for ax, ylabel, title in ((a, "test error (%)", "(a) test error"), (b, "path length", "(b) size of FUSE subset")):
        ax.set_xscale("log")
        ax.set_xlabel("iterations N")
        ax.set_ylabel(ylabel)
        ax.set_title(title + " (cf. paper 001 Fig. 3)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def study_iters(bfs, ctx):
    splits = cv_splits(bfs, ctx)
    tasks = [lambda a=(f"fold{fold}_fs{ctx.fold_seed}", fold, train, test, h, r, it):
             fuse_chain(bfs, ctx, *a, [20])
             for it in ctx.grid for fold, (train, test) in splits.items() for h in ctx.heuristics
             for r in range(1, ctx.runs + 1)]
    records = run_all(ctx, tasks)
    out = ctx.study_dir("iters", None)
    rows = iters_summary(records, ctx.grid)
    write_csv(out / "iters_summary.csv", rows)
    md = ["| method | " + " | ".join(str(n) for n in ctx.grid) + " |", "|---|" + "---:|" * len(ctx.grid)]
    for method in dict.fromkeys(r["method"] for r in rows):
        cell = {r["iterations"]: pct(r["mean_error"], r["se_error"]) for r in rows if r["method"] == method}
        md.append(f"| {method} | " + " | ".join(cell.get(n, "–") for n in ctx.grid) + " |")
    title = "Test error (%) vs iterations (FUSE^R, RAND^R: top 20; FUSE: path), mean ± SE over folds × runs"
    (out / "iters.md").write_text(title + "\n\n" + "\n".join(md) + "\n")
    (out / "checks.txt").write_text(iters_checks(records, rows, ctx.grid))
    plot_fig3(rows, out / "fig3.png")
    print((out / "iters.md").read_text() + "\n" + (out / "checks.txt").read_text())
    print(f"written: {out}/iters_summary.csv, iters.md, checks.txt, fig3.png")


# ----------------------------------------------------------------------------------------------------- context


class Context:
    """The options and the directory layout: OUT/data/dS, OUT/runs/TAG, OUT/baselines/dS, OUT/STUDY/TAG."""

    def __init__(self, a):
        self.out = Path(a.out).resolve()
        self.iterations, self.runs, self.jobs = a.iterations, a.runs, a.jobs
        self.grid = sorted(int(float(x)) for x in a.iteration_grid.split(","))
        self.folds = sorted(int(x) for x in a.folds_used.split(",")) if a.folds_used else list(range(N_FOLDS))
        self.data_seed, self.fold_seed, self.sets = a.data_seed, a.fold_seed, a.set or []
        self.heuristics = (a.heuristics or DEFAULT_HEURISTICS[a.study]).split(",")
        if any(f not in range(N_FOLDS) for f in self.folds) or any(h not in RANKED for h in self.heuristics):
            sys.exit(f"--folds-used must be in 0..{N_FOLDS - 1} and --heuristics in {','.join(RANKED)}")
        self.data_dir = self.out / "data" / f"d{self.data_seed}"
        self.baselines_dir = self.out / "baselines" / f"d{self.data_seed}"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.set_tag = "".join("__" + re.sub(r"[^A-Za-z0-9_.=-]", "_", s) for s in self.sets)

    def runs_dir(self, iterations):
        return self.out / "runs" / f"d{self.data_seed}_it{iterations}{self.set_tag}"

    def study_dir(self, study, iterations):
        tag = f"d{self.data_seed}" + (f"_it{iterations}" if iterations else "") + self.set_tag
        d = self.out / study / tag
        d.mkdir(parents=True, exist_ok=True)
        return d


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--study", choices=["cv", "final", "iters"], default="cv")
    p.add_argument("--banditfs", default=str(REPO / "build" / "banditfs"))
    p.add_argument("--out", default=str(REPO / "results" / "fuse_madelon"))
    p.add_argument("--iterations", type=int, default=200000, help="FUSE iterations (cv, final)")
    p.add_argument("--iteration-grid", default="100,1000,10000,100000,200000", help="iterations of study iters")
    p.add_argument("--runs", type=int, default=2, help="FUSE runs (seeds 1..R) per fold and heuristic")
    p.add_argument("--folds-used", default="", help="comma-separated folds 0..4 (default all)")
    p.add_argument("--jobs", type=int, default=2, help="banditfs processes at a time")
    p.add_argument("--data-seed", type=int, default=1, help="seed of banditfs simulate madelon-like")
    p.add_argument("--fold-seed", type=int, default=0, help="seed of the stratified folds")
    p.add_argument("--heuristics", default=None,
                   help="comma-separated of discrete,continuous,rand (default: " +
                        "; ".join(f"{k}: {v}" for k, v in DEFAULT_HEURISTICS.items()) + ")")
    p.add_argument("--sizes", default=",".join(map(str, SIZES)),
                   help="top-k sizes the SVM judges (default 1..20,30,50; each size costs 75 libsvm fits)")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="passed to every fuse run (repeatable)")
    return p.parse_args(argv)


def main(argv):
    global SIZES, TABLE_SIZES
    a = parse_args(argv)
    SIZES = sorted({int(x) for x in a.sizes.split(",")})
    TABLE_SIZES = [s for s in TABLE_SIZES if s in SIZES]
    ctx = Context(a)
    bfs = Banditfs(a.banditfs, ctx.out)
    {"cv": study_cv, "final": study_final, "iters": study_iters}[a.study](bfs, ctx)


if __name__ == "__main__":
    main(sys.argv[1:])
