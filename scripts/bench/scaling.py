#!/usr/bin/python3
"""Runs the scaling measurement matrix of docs/scaling.md and writes a JSON file and a markdown table.

For every p (data.p), G (bandit.arms_per_round) and K (MPI ranks; K = 1 is the local engine, K = 2 is the
coordinator plus one worker, K = 3 the coordinator plus two workers) it runs jobs/scaling/synthetic_lasso.toml
--repeats times and keeps the repeat with the smallest round time (the machine may be shared: the 1-minute load
average is recorded before each run). Per round it reports each phase of run.json "timings" — choose
(policy_seconds), broadcast, split, fit, importance, gather, update, checkpoint — the bytes sent, the mean super-arm
size |S| (result.h5 /evaluations/arm_size) and the peak RSS of every rank (/usr/bin/time -f %M around each rank).

  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMP_NUM_THREADS=1
  /usr/bin/python3 scripts/bench/scaling.py --binary /work/build-scale/banditfs --out results/scaling/matrix

Round time = wall − data_seconds, over the rounds run. fit/importance/split are summed over the round's arms (work,
not critical path); with K ≥ 2 the coordinator's gather includes the workers' evaluation and, in round 1, the
workers' loading of the period — estimated as the local run's load time and removed in "overhead".
"""
import argparse
import json
import os
import subprocess
import sys
import time

import h5py
import numpy as np

from run_seeds import parse_int_list  # this directory is on sys.path when a script here runs

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_ROUNDS = {1000: 20, 5000: 10, 20000: 6, 100000: 4}
PHASES = ["policy", "broadcast", "split", "fit", "importance", "gather", "update", "checkpoint"]


def rss_of(out, k):
    vals = {}
    for r in range(k):
        path = os.path.join(out, f"rss.{r}")
        try:
            with open(path) as f:
                vals[r] = int(f.read().strip().splitlines()[-1])
        except (OSError, ValueError, IndexError):
            vals[r] = None
    return vals


def run_once(args, job, p, g, k, rounds, every, out, extra):
    os.makedirs(out, exist_ok=True)
    sets = ([f"data.p={p}"] if p else []) + [f"bandit.arms_per_round={g}", f"run.checkpoint_every={every}",
                                             "run.threads=1"] + extra
    if rounds:
        sets.append(f"bandit.iterations={rounds}")
    tail = ["run", job, "--out", out, "--quiet"]
    for s in sets:
        tail += ["--set", s]
    wrap = ["sh", "-c", 'exec /usr/bin/time -f %M -o "$0/rss.${OMPI_COMM_WORLD_RANK:-0}" "$@"', out, args.binary]
    cmd = (["mpirun", "-n", str(k)] if k > 1 else []) + wrap + tail
    load = os.getloadavg()
    t0 = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.time() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    with open(os.path.join(out, "run.json")) as f:
        m = json.load(f)
    with h5py.File(os.path.join(out, "result.h5"), "r") as f:
        arm = f["bandit/evaluations/arm_size" if "bandit" in f else "evaluations/arm_size"][()]
        p_run = int(f["feature_names"].shape[0])
    t = m["timings"]
    r = m["iterations"]
    row = {"p": p_run, "p_set": p, "G": g, "K": k, "rounds": r, "checkpoint_every": every, "load1_before": load[0],
           "elapsed": elapsed, "mean_arm_size": float(np.mean(arm)), "first_arm_size": int(arm[0]),
           "rss_kb": rss_of(out, k), "timings": t, "cmd": " ".join(cmd)}
    row["round_seconds"] = (t["wall_seconds"] - t["data_seconds"]) / r
    for ph in PHASES:
        row[ph] = t.get(ph + "_seconds", 0.0) / r
    row["bytes_per_round"] = t.get("bytes_sent", 0.0) / r
    row["checkpoint_writes"] = r // every if every else 0
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(ROOT, "build", "banditfs"))
    ap.add_argument("--job", default=os.path.join(ROOT, "jobs", "scaling", "synthetic_lasso.toml"))
    ap.add_argument("--ps", default="1000,5000,20000,100000", help="data.p values (0 = the job's data as is)")
    ap.add_argument("--rounds", type=int, default=0, help="bandit.iterations for every p (0 = the built-in table; "
                    "-1 = the job's own schedule)")
    ap.add_argument("--gs", default="1,8")
    ap.add_argument("--ranks", default="1,2,3")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--repeats-large", type=int, default=1, help="repeats for p >= 20000")
    ap.add_argument("--checkpoint-every", type=int, default=2)
    ap.add_argument("--set", action="append", default=[], dest="overrides")
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "scaling", "matrix"))
    ap.add_argument("--figure", default=None, help="also draw each row's round as shares of its phases (PNG)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    jpath = os.path.join(args.out, "scaling.json")
    runs = []
    if os.path.exists(jpath):  # resume a partial matrix
        with open(jpath) as f:
            runs = json.load(f)["runs"]
    for p in parse_int_list(args.ps):
        for g in parse_int_list(args.gs):
            for k in parse_int_list(args.ranks):
                reps = args.repeats if p < 20000 else args.repeats_large
                for rep in range(reps):
                    if any(x["p_set"] == p and x["G"] == g and x["K"] == k and x["rep"] == rep for x in runs):
                        continue
                    out = os.path.join(args.out, f"p{p}_G{g}_K{k}_r{rep}")
                    row = run_once(args, args.job, p, g, k, (args.rounds if args.rounds > 0 else
                                                                    0 if args.rounds < 0 else DEFAULT_ROUNDS.get(p, 10)), args.checkpoint_every, out,
                                   args.overrides)
                    row["rep"] = rep
                    runs.append(row)
                    print(f"p={p} G={g} K={k} rep={rep}: {row['round_seconds']*1e3:.1f} ms/round "
                          f"(load {row['load1_before']:.1f}, {row['elapsed']:.1f} s)", flush=True)
                    with open(jpath, "w") as f:
                        json.dump({"runs": runs}, f, indent=1)
    write_tables(runs, args.out)
    if args.figure:
        plot_phases(best_rows(runs), args.figure)


def plot_phases(rows, path):
    """One horizontal bar per (p, G, K): the round's time split into the coordinator's phases and, at K >= 2, the
    workers' critical path (per group) and the rest of the coordinator's wait (protocol + scheduling)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    parts = ["choose", "split", "fit", "importance", "overhead", "update", "checkpoint"]
    colours = dict(zip(parts, ["#d62728", "#bcbd22", "#1f77b4", "#2ca02c", "#7f7f7f", "#9467bd", "#ff7f0e"]))
    fig, ax = plt.subplots(figsize=(9, 0.28 * len(rows) + 1.2))
    labels = []
    for i, r in enumerate(rows):
        groups = min(r["G"], r["K"] - 1) if r["K"] > 1 else 1
        members = (r["K"] - 1) // groups if r["K"] > 1 else 1
        steps = -(-r["G"] // groups)
        v = {"choose": r["policy"], "update": r["update"], "checkpoint": r["checkpoint"],
             "split": steps * r["split"] / r["G"], "fit": steps * r["fit"] / r["G"],
             "importance": steps * r["importance"] / r["G"] / members}
        v["overhead"] = max(r["round_seconds"] - sum(v.values()), 0.0)
        total = sum(v.values())
        left = 0.0
        for ph in parts:
            ax.barh(i, v[ph] / total, left=left, color=colours[ph], label=ph if i == 0 else None)
            left += v[ph] / total
        ax.text(1.01, i, f"{r['round_seconds'] * 1e3:.0f} ms", va="center", fontsize=7)
        labels.append(f"p={r['p']} G={r['G']} K={r['K']}")
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.12)
    ax.set_xlabel("share of a round (measured; K >= 2: workers' critical path, the rest of rank 0's wait = overhead)")
    ax.legend(fontsize=7, ncol=7, loc="lower center", bbox_to_anchor=(0.5, 1.0))
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    print(f"figure: {path}")


def best_rows(runs):
    best = {}
    for r in runs:
        key = (r["p"], r["G"], r["K"])
        if key not in best or r["round_seconds"] < best[key]["round_seconds"]:
            best[key] = r
    return [best[k] for k in sorted(best)]


def write_tables(runs, out):
    rows = best_rows(runs)
    local_load = {}  # the period load of the local run: what the workers of a K >= 2 run do inside round 1's gather
    for r in rows:
        if r["K"] == 1:
            local_load[(r["p"], r["G"])] = r["timings"]["data_seconds"]
    ms = lambda x: f"{x * 1e3:.1f}"
    lines = ["| p | G | K | rounds | mean \\|S\\| | rounds/s | round ms | choose | bcast | split | fit | importance | "
             "gather | update | ckpt | bytes/round | load |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['p']} | {r['G']} | {r['K']} | {r['rounds']} | {r['mean_arm_size']:.0f} | {1 / r['round_seconds']:.2f} | "
            f"{ms(r['round_seconds'])} | " + " | ".join(ms(r[ph]) for ph in PHASES) +
            f" | {r['bytes_per_round']:.0f} | {r['load1_before']:.1f} |")
    lines += ["", "Protocol overhead at K ≥ 2 (ms per round). The coordinator's wait = round time − choose − update − "
              "checkpoint (its broadcast and gather; the broadcast_seconds timing also adds the group's model-broadcast "
              "wait, which overlaps the gather, so the two are not added). The workers' critical path = ceil(G / groups) "
              "× (split + fit + importance / members) per arm. The workers load the period inside round 1 (estimated as "
              "the local run's load time).", "",
              "| p | G | K | coordinator's wait | workers' critical path | load / rounds | overhead |",
              "|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["K"] == 1:
            continue
        groups = min(r["G"], r["K"] - 1)
        members = (r["K"] - 1) // groups
        per_arm = lambda ph: r[ph] / r["G"]
        crit = -(-r["G"] // groups) * (per_arm("split") + per_arm("fit") + per_arm("importance") / members)
        load = local_load.get((r["p"], r["G"]), 0.0) / r["rounds"]
        wait = r["round_seconds"] - r["policy"] - r["update"] - r["checkpoint"]
        lines.append(f"| {r['p']} | {r['G']} | {r['K']} | {ms(wait)} | {ms(crit)} | {ms(load)} | {ms(wait - crit - load)} |")
    lines += ["", "Peak RSS per rank (MB; rank 0 = coordinator at K ≥ 2):", "", "| p | G | K | RSS by rank |",
              "|---|---|---|---|"]
    for r in rows:
        rss = ", ".join(f"{int(k)}: {v / 1024:.0f}" for k, v in sorted(r["rss_kb"].items(), key=lambda kv: int(kv[0]))
                        if v is not None)
        lines.append(f"| {r['p']} | {r['G']} | {r['K']} | {rss} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "scaling.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "scaling_best.json"), "w") as f:
        json.dump({"rows": rows}, f, indent=1)
    print(text)


if __name__ == "__main__":
    sys.exit(main())
