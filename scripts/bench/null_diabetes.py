#!/usr/bin/python3
"""The widened diabetes study (docs/null.md §2 and §4): diabetes + 500 N(0,1) noise columns, for each reward.null.

Per seed s it writes results/null/diabetes_wide_s{s}.csv (scripts/examples_diabetes_csv.py --noise 500
--noise-seed s: a fresh noise draw per seed), runs jobs/null/diabetes_wide.toml with run.seed = s and the null, and
reports the noise columns selected (posterior mean >= 0.5), whether bmi and s5 are selected, and the share of the
noise columns' plays that paid a reward of 1 (from the Beta posteriors: alpha - 1 over alpha + beta - 2).

  scripts/bench/null_diabetes.py --seeds 1-5 --nulls none,shadow,paired
"""
import argparse
import os
import subprocess
import sys

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_seeds import parse_int_list  # noqa: E402


def run(binary, seed, null, overrides):
    csv = os.path.join(ROOT, "results", "null", f"diabetes_wide_s{seed}.csv")
    if not os.path.exists(csv):
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts", "examples_diabetes_csv.py"), csv, "--noise",
                        "500", "--noise-seed", str(seed)], check=True, capture_output=True)
    out = os.path.join(ROOT, "results", "null", f"diabetes_wide_{null}_s{seed}")
    cmd = [binary, "run", os.path.join(ROOT, "jobs", "null", "diabetes_wide.toml"), "--quiet", "--out", out,
           "--set", f"run.seed={seed}", "--set", f'data.path="{csv}"', "--set", f'reward.null="{null}"']
    for o in overrides:
        cmd += ["--set", o]
    subprocess.run(cmd, check=True, capture_output=True)
    with h5py.File(os.path.join(out, "result.h5"), "r") as f:
        names = [n.decode() if isinstance(n, bytes) else n for n in f["feature_names"][()]]
        mean = f["importance"][()]
        ones = f["bandit/alpha"][()] - 1.0
        plays = ones + f["bandit/beta"][()] - 1.0
    noise = np.array([n.startswith("noise") for n in names])
    chosen = [n for n, m in zip(names, mean) if m >= 0.5]
    return {
        "noise_selected": [n for n in chosen if n.startswith("noise")],
        "real_selected": [n for n in chosen if not n.startswith("noise")],
        "bmi_s5": "bmi" in chosen and "s5" in chosen,
        "noise_ones": ones[noise].sum(),
        "noise_plays": plays[noise].sum(),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1-5")
    ap.add_argument("--nulls", default="none,shadow,paired")
    ap.add_argument("--set", action="append", default=[], dest="overrides")
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "banditfs"))
    args = ap.parse_args()
    for null in args.nulls.split(","):
        rows = [run(args.binary, s, null, args.overrides) for s in parse_int_list(args.seeds)]
        for s, r in zip(parse_int_list(args.seeds), rows):
            print(f"{null:7s} seed {s}: noise selected {len(r['noise_selected'])} {r['noise_selected']}; "
                  f"bmi and s5 selected {r['bmi_s5']}; real selected {r['real_selected']}", flush=True)
        ones = sum(r["noise_ones"] for r in rows)
        plays = sum(r["noise_plays"] for r in rows)
        print(f"{null:7s}: at most 1 noise column in every seed: {all(len(r['noise_selected']) <= 1 for r in rows)}; "
              f"bmi and s5 in every seed: {all(r['bmi_s5'] for r in rows)}; rewards of 1 paid to noise columns "
              f"{ones:.0f}/{plays:.0f} = {100.0 * ones / max(plays, 1):.1f}% of their plays\n", flush=True)


if __name__ == "__main__":
    sys.exit(main())
