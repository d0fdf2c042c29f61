#!/usr/bin/python3
"""[CMAB] §3.1 (Fig. 2; Table 1), measured in docs/results.md §7: cmab-scores on `simulate cmab-hte` logs.

For each trial (seed s = 1..T): `banditfs simulate cmab-hte --n N --seed s`, `banditfs run` of method cmab-scores on
it, then, on a fresh log of N rows (seed 1000 + s), each feature alone drives three contextual bandits evaluated by
replay (Li et al. 2010: a row counts, and updates the policy, only when the policy picks the logged arm):
  cohort TS      Beta(1, 1) per (bin, arm); bins = the feature's bins of the scored log (result.h5 /cmab/bin_edges)
  LinUCB         disjoint per arm, alpha = 1, context [1, x]
  nonlinear      LinUCB on [1, x, x^2]
Prints, per trial: whether HIE, HDD and the combined score put x1..x5 in their top 5, whether MI puts x6 or x7 in
its top 5, the top-5 vs bottom-5 mean replay reward under each policy, Spearman(combined, cohort-TS reward), and the
scoring time. Then the totals against the issue's targets.

  /usr/bin/python3 scripts/bench/cmab_replay.py [--banditfs build/banditfs] [--trials 10] [--n 50000]
"""
import argparse
import math
import os
import random
import subprocess
import sys
import tempfile

import h5py
import numpy as np

TRUTH = {0, 1, 2, 3, 4}
CORRELATIONAL = {5, 6}


def run(cmd):
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stderr}")


def simulate(banditfs, n, seed, path):
    run([banditfs, "simulate", "cmab-hte", "--n", str(n), "--seed", str(seed), "--out", path])


def score(banditfs, log, out):
    job = os.path.join(os.path.dirname(out), "job.toml")
    with open(job, "w") as f:
        f.write(f'[method]\nname = "cmab-scores"\n[data]\nsource = "hdf5"\npath = "{log}"\n[run]\nthreads = 1\n')
    run([banditfs, "run", job, "--quiet", "--out", out])
    with h5py.File(os.path.join(out, "result.h5"), "r") as f:
        scores = {k: f["cmab/" + k][()] for k in ("hie", "hdd", "mi", "bin_edges")}
        scores["combined"] = f["importance"][()]
        scores["seconds"] = float(f.attrs["wall_seconds"])
    return scores


def top(values, k=5):
    return set(np.argsort(-values, kind="stable")[:k].tolist())


def bin_of(edges):
    """The bin index function of one feature's /cmab/bin_edges row (NaN-padded): (a, b], the minimum in bin 0."""
    e = edges[~np.isnan(edges)]
    inner = e[1:-1]
    return lambda x: int(np.searchsorted(inner, x, side="left"))


def replay_cohort_ts(x, arm, reward, arms, binner, nbins, rng):
    alpha = [[1.0] * arms for _ in range(nbins)]
    beta = [[1.0] * arms for _ in range(nbins)]
    total = matched = 0
    for xi, a, r in zip(x, arm, reward):
        b = binner(xi)
        pick = max(range(arms), key=lambda i: rng.betavariate(alpha[b][i], beta[b][i]))
        if pick != a:
            continue
        matched += 1
        total += r
        if r:
            alpha[b][a] += 1
        else:
            beta[b][a] += 1
    return total / max(matched, 1)


def replay_linucb(x, arm, reward, arms, degree, alpha=1.0):
    d = degree + 1
    A_inv = [np.eye(d) for _ in range(arms)]
    bvec = [np.zeros(d) for _ in range(arms)]
    total = matched = 0
    for xi, a, r in zip(x, arm, reward):
        z = np.array([xi ** k for k in range(d)])
        best, pick = -math.inf, 0
        for i in range(arms):
            Az = A_inv[i] @ z
            ucb = (A_inv[i] @ bvec[i]) @ z + alpha * math.sqrt(max(z @ Az, 0.0))
            if ucb > best:
                best, pick = ucb, i
        if pick != a:
            continue
        matched += 1
        total += r
        Az = A_inv[a] @ z
        A_inv[a] -= np.outer(Az, Az) / (1.0 + z @ Az)  # Sherman-Morrison
        bvec[a] += r * z
    return total / max(matched, 1)


def spearman(a, b):
    ra = np.argsort(np.argsort(a, kind="stable"), kind="stable")
    rb = np.argsort(np.argsort(b, kind="stable"), kind="stable")
    return float(np.corrcoef(ra, rb)[0, 1])


def trial(banditfs, n, seed, work):
    log, fresh = os.path.join(work, f"log{seed}.h5"), os.path.join(work, f"fresh{seed}.h5")
    simulate(banditfs, n, seed, log)
    simulate(banditfs, n, 1000 + seed, fresh)
    s = score(banditfs, log, os.path.join(work, f"out{seed}"))
    with h5py.File(fresh, "r") as f:
        X, arm, reward = f["X"][()], f["arm"][()], f["reward"][()].astype(int)
        arms = len(f["arm_labels"])
    p = X.shape[1]
    rng = random.Random(seed)
    rewards = {"cohort_ts": [], "linucb": [], "nonlinear": []}
    for j in range(p):
        x = X[:, j].astype(float).tolist()
        edges = s["bin_edges"][j]
        nb = int((~np.isnan(edges)).sum()) - 1
        rewards["cohort_ts"].append(replay_cohort_ts(x, arm, reward, arms, bin_of(edges), max(nb, 1), rng))
        rewards["linucb"].append(replay_linucb(x, arm, reward, arms, 1))
        rewards["nonlinear"].append(replay_linucb(x, arm, reward, arms, 2))
    order = np.argsort(-s["combined"], kind="stable")
    top5, bottom5 = order[:5], order[-5:]
    beats = {k: float(np.mean(np.array(v)[top5])) > float(np.mean(np.array(v)[bottom5])) for k, v in rewards.items()}
    return {
        "hie": top(s["hie"]) == TRUTH, "hdd": top(s["hdd"]) == TRUTH, "combined": top(s["combined"]) == TRUTH,
        "mi_correlational": bool(top(s["mi"]) & CORRELATIONAL), "beats": beats,
        "rewards": {k: (float(np.mean(np.array(v)[top5])), float(np.mean(np.array(v)[bottom5])))
                    for k, v in rewards.items()},
        "spearman": spearman(s["combined"], np.array(rewards["cohort_ts"])), "seconds": s["seconds"],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--banditfs", default="build/banditfs")
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--n", type=int, default=50000)
    args = ap.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as work:
        print("seed  hie hdd comb mi67 | top5/bottom5 reward: cohort-TS        LinUCB           nonlinear        "
              "| spearman  seconds")
        for seed in range(1, args.trials + 1):
            r = trial(args.banditfs, args.n, seed, work)
            results.append(r)
            rw = "  ".join(f"{r['rewards'][k][0]:.4f}/{r['rewards'][k][1]:.4f}{'+' if r['beats'][k] else '-'}"
                           for k in ("cohort_ts", "linucb", "nonlinear"))
            print(f"{seed:4d}  {r['hie']:d}   {r['hdd']:d}   {r['combined']:d}    {r['mi_correlational']:d}   | {rw} "
                  f"| {r['spearman']:7.3f}  {r['seconds']:.4f}", flush=True)
    t = len(results)
    count = lambda key: sum(r[key] for r in results)
    beats_all = sum(all(r["beats"].values()) for r in results)
    mean_rho = float(np.mean([r["spearman"] for r in results]))
    print(f"\n1. x1..x5 top 5: HIE {count('hie')}/{t}, HDD {count('hdd')}/{t}, combined {count('combined')}/{t} "
          f"(target >= 9/10 each); MI has x6 or x7 in its top 5: {count('mi_correlational')}/{t} (target >= 9/10)")
    print(f"2. top 5 beat bottom 5 under all three policies: {beats_all}/{t} (target >= 9/10); "
          f"mean Spearman(combined, cohort-TS reward) = {mean_rho:.3f} (target >= 0.7)")
    print(f"3. cmab-scores wall seconds per trial (reading, binning, all six scores): max "
          f"{max(r['seconds'] for r in results):.4f} (target <= 0.1; paper Table 1: 2.7 s)")
    ok = (min(count("hie"), count("hdd"), count("combined"), count("mi_correlational"), beats_all) >= 0.9 * t
          and mean_rho >= 0.7 and max(r["seconds"] for r in results) <= 0.1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
