#!/usr/bin/python3
"""One arm's fit split across a group (docs/scaling.md, "One arm's fit split across a group"): strong scaling at G = 1,
measured and modelled.

For each job (default: jobs/scaling/synthetic_rf.toml and jobs/scaling/synthetic_hgb.toml, friedman1 at p = 1 000,
one arm per round) it runs banditfs with K = 2 ranks (the coordinator and a group of one worker: the fit on one
rank) and K = 3 (a group of two workers fitting each arm together), each `--repeats` times, one thread per rank,
and K = 1 (the local engine) once as the reference result. It reports, per K, the fit time per arm (run.json
fit_seconds / arms; the smallest over the repeats), the bytes the group's collectives moved per arm, and whether
every dataset of result.h5 equals K = 1's (datasets named *seconds* hold timings and are skipped).

The model for group sizes 4-64 is built from measured phases: T(m) = T_member(m) + C(m).
  T_member(m): the compute of one member of m, measured on one core by scripts/bench/group_share.cpp (a fit with a
      stand-in group whose collectives are free) at the runs' arm size (mean |S| columns × the training rows);
      it includes everything every member repeats.
  random_forest: C(m) = ceil(log2 m)·α + (m - 1)/m · F/β            (allgather of the forest's F bytes)
  hgb (columns): C(m) = A·(ceil(log2 m)·α + 17·m/β)                 (A allgathers of one 17-byte best split)
F and A come from the K = 3 run's bytes (F = bytes per arm; A = bytes per arm / (17·2)). α = 2 µs and β = 10 GB/s by
default (an InfiniBand cluster, as scripts/bench/scaling_model.py). It prints markdown tables and writes --json.

  scripts/bench/build_bench.sh scripts/bench/group_share.cpp /tmp/group_share
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 \\
      OMP_NUM_THREADS=1 OMPI_MCA_mpi_yield_when_idle=1
  /usr/bin/python3 scripts/bench/group_fit.py --iterations 6 --repeats 2 --share /tmp/group_share \
      --json docs/data/scaling/group_fit.json
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time
import tomllib

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SPLIT_BYTES = 17  # one SplitChoice on the wire: gain (8), feature (4), bin (4), nan_left (1)


def run(binary, job, ranks, iterations, out, extra):
    cmd = [] if ranks == 1 else ["mpirun", "-n", str(ranks)]
    cmd += [binary, "run", job, "--set", f"bandit.iterations={iterations}", "--set", "run.threads=1",
            "--set", "run.checkpoint_every=0", "--out", out, "--quiet"]
    for setting in extra:
        cmd += ["--set", setting]
    print("$ " + " ".join(cmd), flush=True)
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    with open(os.path.join(out, "run.json")) as f:
        info = json.load(f)
    timings = info["timings"]
    with h5py.File(os.path.join(out, "result.h5")) as h5:
        arms = int(h5["bandit/evaluations/arm_size"].shape[0])
        mean_arm = float(np.mean(h5["bandit/evaluations/arm_size"][...]))
    return {"K": ranks, "wall": time.perf_counter() - start, "arms": arms, "mean_arm_size": mean_arm,
            "fit_per_arm": timings["fit_seconds"] / arms, "importance_per_arm": timings["importance_seconds"] / arms,
            "bytes_per_arm": timings["bytes_sent"] / arms, "out": out,
            "load": os.getloadavg()[0]}


def datasets(path):
    out = {}
    with h5py.File(path) as h5:
        def visit(name, obj):
            if isinstance(obj, h5py.Dataset) and "seconds" not in name:
                out[name] = obj[...]
        h5.visititems(visit)
    return out


def identical(reference, other):
    a, b = datasets(reference), datasets(other)
    if a.keys() != b.keys():
        return False, sorted(set(a) ^ set(b))
    differ = [k for k in a if a[k].shape != b[k].shape or a[k].tobytes() != b[k].tobytes()]
    return not differ, differ or len(a)


def member_times(share, kind, rows, cols, members):
    """T_member(m) for each m, from scripts/bench/group_share.cpp."""
    cmd = [share, kind, str(rows), str(cols), ",".join(str(m) for m in members), "3"]
    print("$ " + " ".join(cmd), flush=True)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return {r["members"]: r["member_seconds"] for r in map(json.loads, out.splitlines())}


def collectives(kind, bytes2, alpha, beta):
    """C(m): the group's collectives per arm, from the K = 3 run's bytes per arm."""
    if kind == "hgb":
        allgathers = bytes2 / (SPLIT_BYTES * 2)
        return lambda m: allgathers * (math.ceil(math.log2(m)) * alpha + SPLIT_BYTES * m / beta) if m > 1 else 0.0
    return lambda m: (math.ceil(math.log2(m)) * alpha + (m - 1) / m * bytes2 / beta) if m > 1 else 0.0


def model(kind, times, bytes2, alpha, beta):
    comm = collectives(kind, bytes2, alpha, beta)
    t1 = times[1]
    rows = []
    for m, member in sorted(times.items()):
        t = member + comm(m)
        rows.append({"m": m, "member_seconds": member, "comm": comm(m), "fit_per_arm": t, "speedup": t1 / t,
                     "efficiency": t1 / (m * t)})
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "banditfs"))
    ap.add_argument("--jobs", default="jobs/scaling/synthetic_rf.toml,jobs/scaling/synthetic_hgb.toml")
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--alpha", type=float, default=2e-6, help="latency per message step (s)")
    ap.add_argument("--beta", type=float, default=10e9, help="bandwidth (bytes/s)")
    ap.add_argument("--work", default="/tmp/group_fit")
    ap.add_argument("--share", default="/tmp/group_share", help="scripts/bench/group_share.cpp, built")
    ap.add_argument("--set", action="append", default=[], dest="overrides")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()

    report = {"alpha": args.alpha, "beta": args.beta, "iterations": args.iterations, "jobs": []}
    for job in args.jobs.split(","):
        name = os.path.splitext(os.path.basename(job))[0]
        kind = "hgb" if "hgb" in name else "random_forest"
        reference = run(args.binary, job, 1, args.iterations, f"{args.work}/{name}_k1", args.overrides)
        best = {}
        for k in (2, 3):
            for r in range(args.repeats):
                row = run(args.binary, job, k, args.iterations, f"{args.work}/{name}_k{k}_{r}", args.overrides)
                row["identical"], row["compared"] = identical(f"{reference['out']}/result.h5", f"{row['out']}/result.h5")
                if k not in best or row["fit_per_arm"] < best[k]["fit_per_arm"]:
                    best[k] = row
        with open(os.path.join(ROOT, job) if not os.path.isabs(job) else job, "rb") as f:
            spec = tomllib.load(f)
        train_rows = round(spec["data"]["n"] * (1 - spec.get("bandit", {}).get("test_fraction", 0.2)))
        members = [1, 2, 4, 5, 10, 20, 25, 50, 100] if kind == "random_forest" else [1, 2, 4, 8, 16, 32, 64]
        times = member_times(args.share, kind, train_rows, round(reference["mean_arm_size"]), members)
        rows = model(kind, times, best[3]["bytes_per_arm"], args.alpha, args.beta)
        report["jobs"].append({"job": job, "kind": kind, "local": reference, "measured": [best[2], best[3]],
                               "train_rows": train_rows, "model": rows})
        print(f"\n### {job} ({kind}), {args.iterations} arms, min of {args.repeats}\n")
        print("| K | group size | mean \\|S\\| | fit per arm (s) | importance per arm (s) | bytes per arm | "
              "result.h5 = K 1 | load |")
        print("|---|---|---|---|---|---|---|---|")
        for row in (reference, best[2], best[3]):
            same = "reference" if row["K"] == 1 else ("yes" if row["identical"] else f"NO: {row['compared']}")
            print(f"| {row['K']} | {max(1, row['K'] - 1)} | {row['mean_arm_size']:.0f} | {row['fit_per_arm']:.3f} | "
                  f"{row['importance_per_arm']:.3f} | {row['bytes_per_arm']:.0f} | {same} | {row['load']:.2f} |")
        print(f"\nmodel at {train_rows} training rows × {round(reference['mean_arm_size'])} columns\n")
        print("| members | one member's compute (s) | collectives (s) | fit per arm (s) | speed-up | efficiency |")
        print("|---|---|---|---|---|---|")
        for row in rows:
            print(f"| {row['m']} | {row['member_seconds']:.4f} | {row['comm']:.4f} | {row['fit_per_arm']:.4f} | "
                  f"{row['speedup']:.2f} | {row['efficiency']:.2f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
