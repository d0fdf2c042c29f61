#!/usr/bin/python3
"""The statistical price of G > 1 super-arms per round (docs/scaling.md): friedman1 with random forest and TTTS
(paper 000 §4.1, jobs/paper000/friedman1_rf_ttts.toml), run with the local engine for G = bandit.arms_per_round in
--gs over --seeds, stopping at the first round at which the truth separates (bandit.stop = "truth": every true
feature has posterior mean >= 0.5 and every noise feature < 0.5). The result does not depend on the rank count
(docs/design.md §1), so one rank is enough. Reports the separating round and the evaluations it took (rounds × G).
With --budget E it instead runs E / G rounds for each G (the same number of evaluations, bandit.stop = "iterations")
and reports the final posterior: separated or not, Hamming distance of the selected set to the truth, the smallest
true and the largest noise posterior mean.

  /usr/bin/python3 scripts/bench/scaling_gprice.py --binary /work/build-scale/banditfs --seeds 1-3 --gs 1,2,4,8 \
      --set data.p=1000 --json results/scaling/gprice.json
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from run_seeds import parse_int_list  # this directory is on sys.path when a script here runs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--job", default=os.path.join(ROOT, "jobs", "paper000", "friedman1_rf_ttts.toml"))
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "banditfs"))
    ap.add_argument("--seeds", default="1-3")
    ap.add_argument("--gs", default="1,2,4,8")
    ap.add_argument("--cap", type=int, default=200, help="bandit.iterations: cap on rounds")
    ap.add_argument("--budget", type=int, default=0, help="evaluations per run (rounds = budget / G); 0 = stop at truth")
    ap.add_argument("--set", action="append", default=[], dest="overrides")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "scaling", "gprice"))
    ap.add_argument("--json", default=os.path.join(ROOT, "results", "scaling", "gprice.json"))
    args = ap.parse_args()
    rows = []
    if os.path.exists(args.json):  # resume a partial sweep
        with open(args.json) as f:
            rows = json.load(f)["runs"]
    done = {(r["G"], r["seed"]) for r in rows}
    for seed in parse_int_list(args.seeds):
        for g in parse_int_list(args.gs):
            if (g, seed) in done:
                continue
            out = os.path.join(args.out, f"G{g}_seed{seed}")
            rounds = args.budget // g if args.budget else args.cap
            stop = "iterations" if args.budget else "truth"
            cmd = [args.binary, "run", args.job, "--quiet", "--out", out, "--set", f"run.seed={seed}",
                   "--set", f"bandit.arms_per_round={g}", "--set", f"bandit.stop={stop}",
                   "--set", f"bandit.iterations={rounds}", "--set", "run.threads=1"]
            for o in args.overrides:
                cmd += ["--set", o]
            load = os.getloadavg()[0]
            t0 = time.time()
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                sys.exit(f"G={g} seed={seed} failed: {proc.stderr.strip()}")
            with open(os.path.join(out, "run.json")) as f:
                m = json.load(f)
            sep = m.get("metrics", {}).get("separation_iteration", -1)
            row = {"G": g, "seed": seed, "separation_round": sep,
                   "separation_evaluations": sep * g if sep >= 0 else -1,
                   "rounds_run": m["iterations"], "stop_reason": m["stop_reason"],
                   "wall_seconds": time.time() - t0, "load1": load}
            if args.budget:
                import h5py
                import numpy as np
                with h5py.File(os.path.join(out, "result.h5"), "r") as f:
                    mean = f["importance" if "importance" in f else "posterior_mean"][()]
                    truth = f["truth"][()]
                noise = np.ones(mean.size, dtype=bool)
                noise[truth] = False
                met = m.get("metrics", {})
                row.update({"evaluations": rounds * g, "hamming": met.get("hamming"),
                            "separated_at_end": bool(mean[truth].min() >= 0.5 and (mean[noise] < 0.5).all()),
                            "min_true": float(mean[truth].min()), "max_noise": float(mean[noise].max()),
                            "noise_above_0.3": int((mean[noise] >= 0.3).sum())})
            rows.append(row)
            print(json.dumps(row), flush=True)
            os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
            with open(args.json, "w") as f:
                json.dump({"job": args.job, "overrides": args.overrides, "cap": args.cap, "runs": rows}, f, indent=1)
    if args.budget:
        print(f"\n| G | rounds | seeds | separated at the end | Hamming (median) | min true mean (median) | "
              f"max noise mean (median) |")
        print("|---|---|---|---|---|---|---|")
        for g in sorted({r["G"] for r in rows}):
            rs = [r for r in rows if r["G"] == g]
            print(f"| {g} | {args.budget // g} | {len(rs)} | {sum(r['separated_at_end'] for r in rs)}/{len(rs)} | "
                  f"{statistics.median(r['hamming'] for r in rs):g} | "
                  f"{statistics.median(r['min_true'] for r in rs):.3f} | "
                  f"{statistics.median(r['max_noise'] for r in rs):.3f} |")
        return
    print("\n| G | seeds | separated | separating round (median, range) | evaluations = rounds × G (median) |")
    print("|---|---|---|---|---|")
    for g in sorted({r["G"] for r in rows}):
        rs = [r for r in rows if r["G"] == g]
        sep = [r["separation_round"] for r in rs if r["separation_round"] >= 0]
        if sep:
            print(f"| {g} | {len(rs)} | {len(sep)}/{len(rs)} | {statistics.median(sep):g} ({min(sep)}–{max(sep)}) | "
                  f"{statistics.median(sep) * g:g} |")
        else:
            print(f"| {g} | {len(rs)} | 0/{len(rs)} | — | — |")


if __name__ == "__main__":
    sys.exit(main())
