#!/usr/bin/env python3
"""The shadow rule's settings compared for cmab-scores (docs/cmab.md, "Choosing k and alpha"): for each (k, alpha) =
(`shadow_copies`, `shadow_max_false`), one run of cmab-scores per seed on `banditfs simulate cmab-hte --n N --p 50
--seed s` (x1..x5 effect modifiers, x6, x7 correlational, 43 without effect), run seed s. The target of selection by signal's
acceptance: x1..x5 selected and at most 1 other. Copy c of feature f's shadow is the stream (seed, c, f) whatever k
is, so a larger k adds shadows to the smaller k's.

Usage: scripts/bench/shadow_rules.py [--banditfs build/banditfs] [--out results/shadow_rules] [--seeds 1-40]
           [--n 10000,50000] [--rules 1:1,5:0.5,10:0.5]
Prints a markdown table: per n and rule, the rank r, target met, mean other features per run, runs with 2 or more
others, true features missed in all, mean seconds per run.
"""
import argparse
import math
import os
import subprocess
import time

import h5py

P = 50
TRUTH = set(range(5))


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def one(banditfs, out, n, seed, k, alpha):
    d = os.path.join(out, f"n{n}", f"seed-{seed}")
    os.makedirs(d, exist_ok=True)
    data = os.path.join(d, "data.h5")
    if not os.path.exists(data):
        run([banditfs, "simulate", "cmab-hte", "--n", str(n), "--p", str(P), "--seed", str(seed), "--out", data])
    job = os.path.join(d, f"job-{k}-{alpha}.toml")
    with open(job, "w") as f:
        f.write(f'[method]\nname = "cmab-scores"\nshadow_copies = {k}\nshadow_max_false = {alpha}\n'
                f'[data]\nsource = "hdf5"\npath = "{data}"\n[run]\nseed = {seed}\n')
    result = os.path.join(d, f"out-{k}-{alpha}")
    start = time.time()
    run([banditfs, "run", job, "--quiet", "--out", result])
    seconds = time.time() - start
    with h5py.File(os.path.join(result, "result.h5"), "r") as f:
        selected = set(int(j) for j in f["selected"][()])
        rank = int(f["cmab"].attrs["shadow_rank"])
    return len(selected & TRUTH), len(selected - TRUTH), rank, seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--banditfs", default="build/banditfs")
    ap.add_argument("--out", default="results/shadow_rules")
    ap.add_argument("--seeds", default="1-40")
    ap.add_argument("--n", default="10000,50000")
    ap.add_argument("--rules", default="1:1,5:0.5,10:0.5,20:0.5,50:0.5,10:0.25,10:1")
    a = ap.parse_args()
    lo, _, hi = a.seeds.partition("-")
    seeds = range(int(lo), int(hi or lo) + 1)
    rules = [(int(k), float(alpha)) for k, alpha in (r.split(":") for r in a.rules.split(","))]
    print("| n | k | alpha | r | target met | others per run | runs with >= 2 others | true missed | s per run |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n in (int(v) for v in a.n.split(",")):
        for k, alpha in rules:
            rows = [one(a.banditfs, a.out, n, s, k, alpha) for s in seeds]
            met = sum(1 for hits, others, _, _ in rows if hits == 5 and others <= 1)
            others = [o for _, o, _, _ in rows]
            r = rows[0][2]
            assert r == max(1, math.floor(alpha * (k * P + 1) / P)), (r, k, alpha)
            print(f"| {n} | {k} | {alpha:g} | {r} | {met}/{len(rows)} | {sum(others) / len(rows):.2f} | "
                  f"{sum(o >= 2 for o in others)} | {sum(5 - h for h, _, _, _ in rows)} | "
                  f"{sum(s for _, _, _, s in rows) / len(rows):.2f} |", flush=True)


if __name__ == "__main__":
    main()
