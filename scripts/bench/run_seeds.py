#!/usr/bin/python3
"""Runs one banditfs job over many seeds (several runs at once) and summarises the separation figures.

Used for the paper experiments of docs/results.md, e.g.
  scripts/bench/run_seeds.py jobs/paper000/friedman1_rf_ttts.toml --seeds 1-10 --parallel 2
  scripts/bench/run_seeds.py jobs/paper000/friedman3_lasso_convergence.toml --seeds 1-50 --set bandit.policy=ts

Per seed it reads run.json (and result.h5) and reports: whether the final selected set equals the truth
(every true feature >= 0.5, every noise feature < 0.5), the first separating iteration, the iterations run,
the stop reason, the smallest true and the largest noise inclusion probability, and the time per iteration split
into fit and importance. The data seed follows the run seed (data.seed = 0), so each seed is a fresh data set.
"""
import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import tomllib

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse_int_list(text):
    """"1,3,5-8" -> [1, 3, 5, 6, 7, 8] (also used by scaling.py and scaling_gprice.py)."""
    seeds = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            seeds.extend(range(int(lo), int(hi) + 1))
        else:
            seeds.append(int(part))
    return seeds


def noise_reward_counts(f, truth):
    """Rewards of 1 paid to known-noise columns and their plays that updated the posterior (alpha - prior_alpha and
    alpha + beta - both priors, summed over the noise columns); (0, 0) without a bandit posterior or truth."""
    if "bandit/alpha" not in f or not truth.size:
        return 0, 0
    bandit = tomllib.loads(f.attrs["job"]).get("bandit", {})
    a0, b0 = bandit.get("prior_alpha", 1.0), bandit.get("prior_beta", 1.0)
    noise = np.ones(f["bandit/alpha"].shape[0], dtype=bool)
    noise[truth] = False
    ones = f["bandit/alpha"][()][noise] - a0
    plays = ones + f["bandit/beta"][()][noise] - b0
    return int(round(ones.sum())), int(round(plays.sum()))


def run_one(binary, job, seed, out_root, overrides, threads):
    out = os.path.join(out_root, f"seed{seed}")
    cmd = [binary, "run", job, "--quiet", "--out", out, "--set", f"run.seed={seed}", "--set", f"run.threads={threads}"]
    for o in overrides:
        cmd += ["--set", o]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"seed {seed} failed: {proc.stderr.strip()}")
    with open(os.path.join(out, "run.json")) as f:
        manifest = json.load(f)
    with h5py.File(os.path.join(out, "result.h5"), "r") as f:
        mean = f["importance" if "importance" in f else "posterior_mean"][()]  # new / older layout
        truth = f["truth"][()] if "truth" in f else np.array([], dtype=int)
        noise_ones, noise_plays = noise_reward_counts(f, truth)
    noise = np.ones(mean.size, dtype=bool)
    noise[truth] = False
    metrics = manifest.get("metrics", {})
    timings = manifest["timings"]
    iters = manifest["iterations"]
    return {
        "seed": seed,
        "iterations": iters,
        "separated_at_end": bool(truth.size and mean[truth].min() >= 0.5 and (mean[noise] < 0.5).all()),
        "separation_iteration": metrics.get("separation_iteration", -1),
        "stop_reason": manifest["stop_reason"],
        # The run's own selected set (the method's rule: 0.5, or TVS's C-tilde) against the truth.
        "fdp": metrics.get("fdp", float("nan")),
        "power": metrics.get("power", float("nan")),
        "hamming": metrics.get("hamming", -1),
        "min_true": float(mean[truth].min()) if truth.size else float("nan"),
        "max_noise": float(mean[noise].max()) if noise.any() else float("nan"),
        "true_means": [round(float(m), 3) for m in mean[truth]],
        "noise_ones": noise_ones,
        "noise_plays": noise_plays,
        "fit_s_per_it": timings.get("fit_seconds", 0.0) / max(iters, 1),
        "importance_s_per_it": timings.get("importance_seconds", 0.0) / max(iters, 1),
        "wall_s_per_it": timings["wall_seconds"] / max(iters, 1),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("job")
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--parallel", type=int, default=2, help="runs at once")
    ap.add_argument("--threads", type=int, default=1, help="run.threads of each run")
    ap.add_argument("--set", action="append", default=[], dest="overrides")
    ap.add_argument("--out", default=None, help="output root (default results/bench/<job name>)")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "banditfs"))
    ap.add_argument("--json", default=None, help="write the per-seed rows here")
    args = ap.parse_args()

    name = os.path.splitext(os.path.basename(args.job))[0]
    label = name + "".join("_" + o.replace("=", "-").replace(".", "-") for o in args.overrides)
    out_root = args.out or os.path.join(ROOT, "results", "bench", label)
    seeds = parse_int_list(args.seeds)
    rows = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.parallel) as pool:
        futures = [pool.submit(run_one, args.binary, args.job, s, out_root, args.overrides, args.threads) for s in seeds]
        for fut in concurrent.futures.as_completed(futures):
            row = fut.result()
            rows.append(row)
            print(f"seed {row['seed']:3d}: iterations {row['iterations']:4d} separated_at_end {row['separated_at_end']!s:5} "
                  f"first separation {row['separation_iteration']:4d} min true {row['min_true']:.3f} "
                  f"max noise {row['max_noise']:.3f} true {row['true_means']}", flush=True)
    rows.sort(key=lambda r: r["seed"])
    n = len(rows)
    separated = sum(r["separated_at_end"] for r in rows)
    converged = [r for r in rows if r["separation_iteration"] >= 0]
    print(f"\n{label}: {n} seeds")
    print(f"  separated at the end (all true >= 0.5, all noise < 0.5): {separated}/{n}")
    print(f"  ever separated: {len(converged)}/{n}; not converged: {100.0 * (n - len(converged)) / n:.0f}%")
    if converged:
        its = [r["separation_iteration"] for r in converged]
        print(f"  first separating iteration among converged: mean {statistics.mean(its):.1f}, "
              f"median {statistics.median(its):.0f}, min {min(its)}, max {max(its)}")
    if all(r["hamming"] >= 0 for r in rows):
        hams = [r["hamming"] for r in rows]
        print(f"  selected set vs truth: Hamming median {statistics.median(hams):g}, mean {statistics.mean(hams):.2f} "
              f"(0 in {sum(h == 0 for h in hams)}/{n}); FDP mean {statistics.mean(r['fdp'] for r in rows):.3f} "
              f"(0 in {sum(r['fdp'] == 0 for r in rows)}/{n}); power mean {statistics.mean(r['power'] for r in rows):.3f}")
    plays = sum(r["noise_plays"] for r in rows)
    if plays:
        ones = sum(r["noise_ones"] for r in rows)
        print(f"  rewards of 1 paid to known-noise columns: {ones}/{plays} = {100.0 * ones / plays:.1f}% of their plays")
    print(f"  time per iteration: wall {statistics.mean(r['wall_s_per_it'] for r in rows):.3f} s, "
          f"fit {statistics.mean(r['fit_s_per_it'] for r in rows):.3f} s, "
          f"importance {statistics.mean(r['importance_s_per_it'] for r in rows):.3f} s "
          f"(run.threads = {args.threads}, {args.parallel} runs at once)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
