#!/usr/bin/env python3
"""Selection by signal (select = "shadow": Boruta's shadows with a permutation p-value) for FUSE and cmab-scores: the
acceptance figures of docs/fuse.md and docs/cmab.md ("Selection by signal", "Measured").

  FUSE: `banditfs simulate ishigami --n 500 --p 30 --binary --seed s` (3 real features x1..x3, 27 noise), one
        `banditfs run` of method fuse with the defaults (select = "shadow", 200 000 iterations, one shadow per
        feature: the maximum) per seed.
        Target: at most 4 selected, the 3 among them.
  cmab: `banditfs simulate cmab-hte --n N --p 50 --seed s` (5 effect modifiers x1..x5, x6, x7 correlational, 43 more
        without effect), one run of cmab-scores with the defaults (select = "shadow", 5 shadows per feature,
        alpha = 0.5: the 2nd largest of 250) per seed.
        Target: the 5 selected, at most 1 other.

Usage: scripts/bench/shadow_select.py [--banditfs build/banditfs] [--out results/shadow_select] [--seeds 1-5]
           [--cmab-n 10000] [--study fuse,cmab]
Writes OUT/<study>.csv (seed, selected, hits, others, threshold, seconds) and prints a markdown table.
"""
import argparse
import csv
import json
import os
import subprocess
import time

import h5py


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def one(banditfs, out, study, seed, cmab_n):
    d = os.path.join(out, study, f"seed-{seed}")
    os.makedirs(d, exist_ok=True)
    data = os.path.join(d, "data.h5")
    if study == "fuse":
        run([banditfs, "simulate", "ishigami", "--n", "500", "--p", "30", "--binary", "--seed", str(seed), "--out", data])
        job = f'[method]\nname = "fuse"\n[data]\nsource = "hdf5"\npath = "{data}"\ntask = "binary"\n[run]\nseed = {seed}\n'
    else:
        run([banditfs, "simulate", "cmab-hte", "--n", str(cmab_n), "--p", "50", "--seed", str(seed), "--out", data])
        job = f'[method]\nname = "cmab-scores"\n[data]\nsource = "hdf5"\npath = "{data}"\n[run]\nseed = {seed}\n'
    with open(os.path.join(d, "job.toml"), "w") as f:
        f.write(job)
    start = time.time()
    run([banditfs, "run", os.path.join(d, "job.toml"), "--quiet", "--out", os.path.join(d, "out")])
    seconds = time.time() - start
    with h5py.File(os.path.join(d, "out", "result.h5"), "r") as f:
        selected = [int(j) for j in f["selected"][()]]
        truth = set(int(j) for j in f["truth"][()])
        group = "fuse" if study == "fuse" else "cmab"
        threshold = float(f[group].attrs["shadow_threshold"])
        names = [n.decode() if isinstance(n, bytes) else n for n in f["feature_names"][()]]
    hits = sum(1 for j in selected if j in truth)
    return dict(seed=seed, selected=" ".join(names[j] for j in selected), count=len(selected), hits=hits,
                truth=len(truth), others=len(selected) - hits, threshold=round(threshold, 6), seconds=round(seconds, 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--banditfs", default="build/banditfs")
    ap.add_argument("--out", default="results/shadow_select")
    ap.add_argument("--seeds", default="1-5")
    ap.add_argument("--cmab-n", type=int, default=10000)
    ap.add_argument("--study", default="fuse,cmab")
    a = ap.parse_args()
    lo, _, hi = a.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    for study in a.study.split(","):
        rows = [one(a.banditfs, a.out, study, s, a.cmab_n) for s in seeds]
        with open(os.path.join(a.out, f"{study}.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        target = (lambda r: r["hits"] == 3 and r["count"] <= 4) if study == "fuse" else \
                 (lambda r: r["hits"] == 5 and r["others"] <= 1)
        print(f"\n{study} ({'ishigami 500 x 30, binary' if study == 'fuse' else f'cmab-hte {a.cmab_n} x 50'}):\n")
        print("| seed | selected | true of truth | others | threshold | target met | s |")
        print("|---:|---|---:|---:|---:|---|---:|")
        for r in rows:
            print(f"| {r['seed']} | {r['selected']} | {r['hits']}/{r['truth']} | {r['others']} | {r['threshold']} | "
                  f"{'yes' if target(r) else 'no'} | {r['seconds']} |")
        print(f"\ntarget met in {sum(map(target, rows))}/{len(rows)}; mean others {sum(r['others'] for r in rows) / len(rows):.2f}")
        print(json.dumps({"study": study, "met": sum(map(target, rows)), "runs": len(rows)}))


if __name__ == "__main__":
    main()
