#!/usr/bin/env python3
"""Selection by signal (select = "shadow": Boruta's shadows with a permutation p-value) for FUSE and cmab-scores: the
acceptance figures of docs/fuse.md and docs/cmab.md ("Selection by signal", "Measured").

  FUSE: `banditfs simulate ishigami --n 500 --p 30 --binary --seed s` (3 real features x1..x3, 27 noise), one
        `banditfs run` of method fuse with the defaults (select = "shadow", 200 000 iterations shared by two
        searches, one shadow per feature in each: above the maximum in both) per seed; --searches R sets
        method.searches (1: one search and its maximum).
        Target: at most 4 selected, the 3 among them.
        --fuse-design madelon: scikit-learn's make_classification(n_samples=500, n_features=30, n_informative=3,
        n_redundant=0, random_state=s) instead (its defaults otherwise: 2 clusters per class, class_sep 1,
        flip_y 0.01, rows and columns shuffled; the 3 informative columns found by matching each column's sorted
        values against the unshuffled draw), written as data.h5 with truth. (`banditfs simulate madelon-like` builds
        this kind of table with 16 clusters per class, so it needs at least 5 informative features.)
        Oracle: whether any threshold on the run's `importance` (g-RAVE, the mean over the searches) meets the
        target, i.e. at most 4 features have an importance at or above the lowest of the 3.
  cmab: `banditfs simulate cmab-hte --n N --p 50 --seed s` (5 effect modifiers x1..x5, x6, x7 correlational, 43 more
        without effect), one run of cmab-scores with the defaults (select = "shadow", 5 shadows per feature,
        alpha = 0.5: the 2nd largest of 250) per seed.
        Target: the 5 selected, at most 1 other.

Usage: scripts/bench/shadow_select.py [--banditfs build/banditfs] [--out results/shadow_select] [--seeds 1-5]
           [--cmab-n 10000] [--study fuse,cmab] [--fuse-design ishigami|madelon] [--threads N] [--searches R]
Writes OUT/<study>.csv (OUT/fuse-madelon.csv for the madelon design; seed, selected, hits, others, threshold,
oracle (FUSE), seconds) and prints a markdown table. --threads sets run.threads (unset: the job's default).
"""
import argparse
import csv
import json
import os
import subprocess
import time

import h5py
import numpy as np


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def make_classification_h5(path, seed):
    """make_classification's table with its defaults (rows and columns shuffled) and the informative columns as truth:
    with shuffle=False the informative ones are columns 0..2 and the draws before the shuffle are the same, so each
    shuffled column is the unshuffled column with the same sorted values."""
    from sklearn.datasets import make_classification
    kw = dict(n_samples=500, n_features=30, n_informative=3, n_redundant=0, random_state=seed)
    x, y = make_classification(**kw)
    x0, _ = make_classification(shuffle=False, **kw)
    keys = {np.sort(x0[:, j]).tobytes(): j for j in range(x0.shape[1])}
    origin = [keys[np.sort(x[:, j]).tobytes()] for j in range(x.shape[1])]
    truth = sorted(j for j, o in enumerate(origin) if o < 3)
    assert len(truth) == 3 and len(set(origin)) == x.shape[1]
    with h5py.File(path, "w") as f:
        f["X"] = x.astype(np.float32)
        f["y"] = y.astype(np.float64)
        f["feature_names"] = np.array([f"x{j + 1}" for j in range(x.shape[1])], dtype=h5py.string_dtype())
        f["truth"] = np.array(truth, dtype=np.int32)


def oracle(importance, truth):
    """Whether some threshold on the g-RAVE meets the FUSE target: at most 4 features at or above the lowest true one
    (ties count against it; a missing g-RAVE ranks last)."""
    g = np.asarray(importance, dtype=float)
    g = np.where(np.isnan(g), -np.inf, g)
    return int(np.sum(g >= min(g[j] for j in truth))) <= 4


def one(banditfs, out, study, seed, cmab_n, design, threads, searches=None):
    d = os.path.join(out, study if design == "ishigami" else f"{study}-{design}", f"seed-{seed}")
    os.makedirs(d, exist_ok=True)
    data = os.path.join(d, "data.h5")
    run_keys = f"[run]\nseed = {seed}\n" + (f"threads = {threads}\n" if threads is not None else "")
    if study == "fuse":
        if design == "madelon":
            make_classification_h5(data, seed)
        else:
            run([banditfs, "simulate", "ishigami", "--n", "500", "--p", "30", "--binary", "--seed", str(seed),
                 "--out", data])
        method_keys = f"searches = {searches}\n" if searches is not None else ""
        job = f'[method]\nname = "fuse"\n{method_keys}[data]\nsource = "hdf5"\npath = "{data}"\ntask = "binary"\n{run_keys}'
    else:
        run([banditfs, "simulate", "cmab-hte", "--n", str(cmab_n), "--p", "50", "--seed", str(seed), "--out", data])
        job = f'[method]\nname = "cmab-scores"\n[data]\nsource = "hdf5"\npath = "{data}"\n{run_keys}'
    with open(os.path.join(d, "job.toml"), "w") as f:
        f.write(job)
    start = time.time()
    run([banditfs, "run", os.path.join(d, "job.toml"), "--quiet", "--out", os.path.join(d, "out")])
    seconds = time.time() - start
    with h5py.File(os.path.join(d, "out", "result.h5"), "r") as f:
        selected = [int(j) for j in f["selected"][()]]
        truth = set(int(j) for j in f["truth"][()])
        group = "fuse" if study == "fuse" else "cmab"
        if "shadow_threshold" in f[group].attrs:
            threshold = str(round(float(f[group].attrs["shadow_threshold"]), 6))
        else:  # FUSE with several searches: one threshold per search
            threshold = " / ".join(str(round(float(t), 6)) for t in f[group]["search_threshold"][()])
        names = [n.decode() if isinstance(n, bytes) else n for n in f["feature_names"][()]]
        best = oracle(f["importance"][()], truth) if study == "fuse" else None
    hits = sum(1 for j in selected if j in truth)
    return dict(seed=seed, selected=" ".join(names[j] for j in selected), count=len(selected), hits=hits,
                truth=len(truth), truth_names=" ".join(names[j] for j in sorted(truth)), others=len(selected) - hits,
                threshold=threshold, oracle="" if best is None else ("yes" if best else "no"),
                seconds=round(seconds, 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--banditfs", default="build/banditfs")
    ap.add_argument("--out", default="results/shadow_select")
    ap.add_argument("--seeds", default="1-5")
    ap.add_argument("--cmab-n", type=int, default=10000)
    ap.add_argument("--study", default="fuse,cmab")
    ap.add_argument("--fuse-design", choices=["ishigami", "madelon"], default="ishigami")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--searches", type=int, default=None)
    a = ap.parse_args()
    lo, _, hi = a.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    for study in a.study.split(","):
        design = a.fuse_design if study == "fuse" else "ishigami"
        rows = [one(a.banditfs, a.out, study, s, a.cmab_n, design, a.threads, a.searches) for s in seeds]
        name = study if design == "ishigami" else f"{study}-{design}"
        with open(os.path.join(a.out, f"{name}.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        target = (lambda r: r["hits"] == 3 and r["count"] <= 4) if study == "fuse" else \
                 (lambda r: r["hits"] == 5 and r["others"] <= 1)
        table = {"ishigami": "ishigami 500 x 30, binary", "madelon": "make_classification 500 x 30, 3 informative"}
        print(f"\n{study} ({table[design] if study == 'fuse' else f'cmab-hte {a.cmab_n} x 50'}):\n")
        print("| seed | truth | selected | true of truth | others | threshold | target met | any threshold | s |")
        print("|---:|---|---|---:|---:|---:|---|---|---:|")
        for r in rows:
            print(f"| {r['seed']} | {r['truth_names']} | {r['selected']} | {r['hits']}/{r['truth']} | {r['others']} | "
                  f"{r['threshold']} | {'yes' if target(r) else 'no'} | {r['oracle'] or '—'} | {r['seconds']} |")
        met = sum(map(target, rows))
        best = sum(r["oracle"] == "yes" for r in rows)
        oracle_note = f" (any threshold: {best}/{len(rows)})" if study == "fuse" else ""
        print(f"\ntarget met in {met}/{len(rows)}{oracle_note}; mean others {sum(r['others'] for r in rows) / len(rows):.2f}")
        print(json.dumps({"study": name, "met": met, "oracle": best if study == "fuse" else None, "runs": len(rows)}))


if __name__ == "__main__":
    main()
