#!/usr/bin/python3
"""Strong- and weak-scaling model of the distributed round (docs/scaling.md), built from measured phase costs.

Reads the scaling_best.json files written by scripts/bench/scaling.py (one per job: lasso over p, random forest,
the gbm panel) and, for every case (job, p), derives from the measured rows:
  choose(G) = c0 + c1·G and update(G) = u0 + u1·G   (K = 1 rows at G = 1 and G = 8; coordinator work ∝ p per arm)
  split, fit, importance per arm                     (K = 1, G = 8 row / 8)
  command bytes per arm = 8 + 4·|S|, report bytes per arm and model bytes (K = 2 and K = 3 rows' bytes_sent)
  coordinator decode time per report byte            (K = 2 round time not covered by any phase)
and evaluates, for K ranks (K − 1 workers, g = min(G, K − 1) groups, m = floor((K − 1)/g) members in the smallest
group) and G arms per round:
  T(K, G) = choose(G) + bcast(cmd, K) + ceil(G/g)·(split + fit + bcast(model, m) + importance/m)
            + gather(reports, K) + decode(G) + update(G) + checkpoint/every
  bcast(B, n)  = ceil(log2 n)·(2α + B/β)           (binomial tree; banditfs sends the size, then the bytes)
  gather(B, K) = ceil(log2 K)·α + (K − 1)·α + B/β  (sizes by MPI_Gather, then a linear MPI_Gatherv at rank 0)
with α, β from the command line (defaults: α = 2 µs, β = 10 GB/s, an InfiniBand cluster). Prints markdown tables
and writes a figure.

  /usr/bin/python3 scripts/bench/scaling_model.py results/scaling/lasso/scaling_best.json \
      results/scaling/rf/scaling_best.json --figure docs/figures/scaling_model.png
"""
import argparse
import json
import math
import os
import sys

KS = [16, 32, 64, 128, 256, 512, 1024]


def log2c(n):
    return math.ceil(math.log2(n)) if n > 1 else 0


def cases_from(path):
    with open(path) as f:
        rows = json.load(f)["rows"]
    tag = os.path.basename(os.path.dirname(os.path.abspath(path)))
    by = {(r["p"], r["G"], r["K"]): r for r in rows}
    out = []
    for p in sorted({r["p"] for r in rows}):
        r1, r8 = by.get((p, 1, 1)), by.get((p, 8, 1))
        if not r1:
            continue
        if r8:
            c1 = (r8["policy"] - r1["policy"]) / 7
            u1 = (r8["update"] - r1["update"]) / 7
        else:  # G = 1 only (the panel): choose is all per arm, update all fixed
            r8 = dict(r1, **{k: r1[k] * 8 for k in ("policy", "split", "fit", "importance")})
            c1, u1 = r1["policy"], 0.0
        S = r8["mean_arm_size"]
        cmd_arm = 8 + 4 * S
        c = {"case": f"{tag} p={p}", "p": p, "S": S,
             "choose0": max(r1["policy"] - c1, 0.0), "choose1": max(c1, 0.0),
             "update0": max(r1["update"] - u1, 0.0), "update1": max(u1, 0.0),
             "split": r8["split"] / 8, "fit": r8["fit"] / 8, "importance": r8["importance"] / 8,
             "cmd_arm": cmd_arm, "report_arm": 4.125 * S + 60, "model": 24 * S, "decode_per_byte": 0.0,
             "ckpt_write": 0.0, "ckpt_bytes": 0.0}
        k2 = by.get((p, 8, 2))
        if k2:
            c["report_arm"] = max((k2["bytes_per_round"] - 17 - 8 * cmd_arm) / 8, 0.0)
            covered = k2["policy"] + k2["broadcast"] + k2["gather"] + k2["update"] + k2["checkpoint"]
            c["decode_per_byte"] = max(k2["round_seconds"] - covered, 0.0) / max(8 * c["report_arm"], 1.0)
        a2, a3 = by.get((p, 1, 2)), by.get((p, 1, 3))
        if not k2 and a2:
            c["report_arm"] = max(a2["bytes_per_round"] - 25 - 4 * a2["mean_arm_size"], 0.0) * S / max(a2["mean_arm_size"], 1)
        if a2 and a3:
            S1 = a2["mean_arm_size"]
            c["model"] = max(a3["bytes_per_round"] - a2["bytes_per_round"] - (25 + 4 * S1), 0.0) * S / max(S1, 1)
        if r8["checkpoint_writes"]:
            c["ckpt_write"] = r8["checkpoint"] * r8["rounds"] / r8["checkpoint_writes"]
            # bytes of one write: the trajectory so far (4 B per feature and round) and the posterior (16 B/feature)
            every, rounds = r8["checkpoint_every"], r8["rounds"]
            mean_round = sum(range(every, rounds + 1, every)) / r8["checkpoint_writes"]
            c["ckpt_bytes"] = 4 * p * mean_round + 16 * p
        out.append(c)
    return out


def round_time(c, K, G, alpha, beta, ckpt_every, ckpt_round):
    workers = K - 1
    g = min(G, workers)
    m = workers // g
    choose = c["choose0"] + c["choose1"] * G
    update = c["update0"] + c["update1"] * G
    cmd = 17 + G * c["cmd_arm"]
    bcast = log2c(K) * (2 * alpha + cmd / beta)
    model_b = log2c(m) * (2 * alpha + c["model"] / beta) if m > 1 else 0.0
    arm = c["split"] + c["fit"] + model_b + c["importance"] / m
    evaluate = math.ceil(G / g) * arm
    rep = G * c["report_arm"]
    gather = log2c(K) * alpha + (K - 1) * alpha + rep / beta
    decode = c["decode_per_byte"] * rep
    ckpt = 0.0
    if ckpt_every and c.get("ckpt_bw"):
        ckpt = (c["ckpt_c0"] + (4 * c["p"] * ckpt_round + 16 * c["p"]) / c["ckpt_bw"]) / ckpt_every
    parts = {"coordinator": choose + update + decode, "comm": bcast + gather + math.ceil(G / g) * model_b,
             "fit": math.ceil(G / g) * (c["split"] + c["fit"]), "importance": math.ceil(G / g) * c["importance"] / m,
             "checkpoint": ckpt}
    return sum(parts.values()), parts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("measured", nargs="+", help="scaling_best.json files")
    ap.add_argument("--alpha", type=float, default=2e-6, help="latency per message hop (s)")
    ap.add_argument("--beta", type=float, default=10e9, help="bandwidth (bytes/s)")
    ap.add_argument("--strong-g", default="8,64", help="fixed G values for strong scaling")
    ap.add_argument("--checkpoint-every", type=int, default=50)
    ap.add_argument("--checkpoint-round", type=int, default=1000, help="round at which the trajectory is measured")
    ap.add_argument("--cases", default="", help="comma-separated substrings: keep only matching cases")
    ap.add_argument("--figure", default=None)
    ap.add_argument("--json", default=None, help="write the parameters and tables here")
    args = ap.parse_args()
    cases = [c for path in args.measured for c in cases_from(path)]
    # One checkpoint write = c0 + bytes / bandwidth, fitted over every case (a write has a large fixed part: the
    # HDF5 file, its datasets and the rename, so a per-case ratio would overstate the cost of bytes).
    pts = [(c["ckpt_bytes"], c["ckpt_write"]) for c in cases if c["ckpt_bytes"] > 0]
    c0, bw = 0.0, float("inf")
    if len(pts) >= 2:
        n = len(pts)
        mx = sum(x for x, _ in pts) / n
        my = sum(y for _, y in pts) / n
        sxx = sum((x - mx) ** 2 for x, _ in pts)
        slope = sum((x - mx) * (y - my) for x, y in pts) / sxx if sxx else 0.0
        slope = max(slope, 1e-12)
        c0, bw = max(my - slope * mx, 0.0), 1.0 / slope
    for c in cases:
        c["ckpt_c0"], c["ckpt_bw"] = c0, bw
    if args.cases:
        cases = [c for c in cases if any(s in c["case"] for s in args.cases.split(","))]
    A, B = args.alpha, args.beta
    ck = (args.checkpoint_every, args.checkpoint_round)
    print(f"Assumptions: α = {A * 1e6:g} µs, β = {B / 1e9:g} GB/s, checkpoint every {ck[0]} rounds measured at "
          f"round {ck[1]} (trajectory {ck[1]} × p floats); one checkpoint write = {c0 * 1e3:.1f} ms + bytes / "
          f"{bw / 1e6:.0f} MB/s (fitted on the measured writes).\n")
    print("Parameters per case (ms unless stated; per arm = one super-arm evaluation):\n")
    print("| case | mean \\|S\\| | choose/arm | update/arm | update fixed | split/arm | fit/arm | importance/arm | "
          "cmd B/arm | report B/arm | model B | ckpt write ms (MB) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for c in cases:
        print(f"| {c['case']} | {c['S']:.0f} | {c['choose1'] * 1e3:.2f} | {c['update1'] * 1e3:.2f} | "
              f"{c['update0'] * 1e3:.2f} | {c['split'] * 1e3:.1f} | {c['fit'] * 1e3:.1f} | "
              f"{c['importance'] * 1e3:.1f} | {c['cmd_arm']:.0f} | {c['report_arm']:.0f} | {c['model']:.0f} | "
              f"{c['ckpt_write'] * 1e3:.1f} ({c['ckpt_bytes'] / 1e6:.1f}) |")
    tables = {}
    for c in cases:
        T1 = c["choose0"] + c["choose1"] + c["update0"] + c["update1"] + c["split"] + c["fit"] + c["importance"]
        print(f"\n### {c['case']}\n")
        print(f"One rank, G = 1: {T1 * 1e3:.1f} ms/round ({1 / T1:.2f} rounds/s).\n")
        for G in [int(x) for x in args.strong_g.split(",")]:
            print(f"Strong scaling, G = {G} fixed (efficiency relative to K = 16):\n")
            print("| K | groups × members | rounds/s | evals/s | efficiency | coordinator | comm | fit | importance | "
                  "checkpoint |")
            print("|---|---|---|---|---|---|---|---|---|---|")
            base = None
            for K in KS:
                T, parts = round_time(c, K, G, A, B, *ck)
                base = base or T * K
                g = min(G, K - 1)
                row = {"K": K, "G": G, "T": T, "eff": base / (T * K), **parts}
                tables.setdefault(c["case"], {}).setdefault(f"strong{G}", []).append(row)
                print(f"| {K} | {g} × {(K - 1) // g} | {1 / T:.2f} | {G / T:.1f} | {row['eff']:.2f} | " +
                      " | ".join(f"{100 * parts[k] / T:.0f}%" for k in ["coordinator", "comm", "fit", "importance",
                                                                      "checkpoint"]) + " |")
            print()
        print("Weak scaling, G = K − 1 (one arm per single-rank group; efficiency = T(16)/T(K)):\n")
        print("| K | G | rounds/s | evals/s | efficiency | coordinator | comm | fit | importance | checkpoint |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        base = None
        for K in KS:
            T, parts = round_time(c, K, K - 1, A, B, *ck)
            base = base or T
            row = {"K": K, "G": K - 1, "T": T, "eff": base / T, **parts}
            tables.setdefault(c["case"], {}).setdefault("weak", []).append(row)
            print(f"| {K} | {K - 1} | {1 / T:.2f} | {(K - 1) / T:.0f} | {row['eff']:.2f} | " +
                  " | ".join(f"{100 * parts[k] / T:.0f}%" for k in ["coordinator", "comm", "fit", "importance",
                                                                  "checkpoint"]) + " |")
        arm = c["split"] + c["fit"] + c["importance"]
        per_arm_coord = c["choose1"] + c["update1"] + c["decode_per_byte"] * c["report_arm"]
        if per_arm_coord > 0:
            print(f"\nCoordinator = evaluation at G ≈ {arm / per_arm_coord:.0f} arms per round "
                  f"(one arm {arm * 1e3:.1f} ms, coordinator {per_arm_coord * 1e3:.2f} ms per arm).")
    print("\n### Summary\n")
    gs = [int(x) for x in args.strong_g.split(",")]
    print("| case | 1 rank, G = 1: rounds/s | " + " | ".join(f"strong G = {G}: rounds/s at K = 1024 (efficiency), "
                                                         f"largest share" for G in gs) +
          " | weak G = K − 1: evals/s at 1024 (efficiency at 256 / 1024), largest share | coordinator = one arm at G ≈ |")
    print("|---|---|" + "---|" * len(gs) + "---|---|")
    for c in cases:
        t = tables[c["case"]]
        T1 = c["choose0"] + c["choose1"] + c["update0"] + c["update1"] + c["split"] + c["fit"] + c["importance"]
        cells = []
        for G in gs:
            last = t[f"strong{G}"][-1]
            top = max(["coordinator", "comm", "fit", "importance", "checkpoint"], key=lambda k: last[k])
            cells.append(f"{1 / last['T']:.2f} ({last['eff']:.2f}), {top} {100 * last[top] / last['T']:.0f}%")
        w = t["weak"]
        top = max(["coordinator", "comm", "fit", "importance", "checkpoint"], key=lambda k: w[-1][k])
        arm = c["split"] + c["fit"] + c["importance"]
        per = c["choose1"] + c["update1"] + c["decode_per_byte"] * c["report_arm"]
        gstar = f"{arm / per:.0f}" if per > 0 else "∞"
        print(f"| {c['case']} | {1 / T1:.2f} | " + " | ".join(cells) +
              f" | {w[-1]['G'] / w[-1]['T']:.0f} ({w[3]['eff']:.2f} / {w[-1]['eff']:.2f}), {top} "
              f"{100 * w[-1][top] / w[-1]['T']:.0f}% | {gstar} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"alpha": A, "beta": B, "cases": cases, "tables": tables}, f, indent=1)
    if args.figure:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.4))
        colours = plt.get_cmap("tab10")
        for i, (name, t) in enumerate(tables.items()):
            for key in sorted((k for k in t if k.startswith("strong")), key=lambda k: int(k[6:])):
                base = t[key][0]["T"]
                ls = "-" if key == f"strong{min(int(k[6:]) for k in t if k.startswith('strong'))}" else "--"
                axes[0].plot([r["K"] for r in t[key]], [base / r["T"] for r in t[key]], ls, color=colours(i % 10),
                             marker="o", ms=3, label=f"{name}, G={key[6:]}")
            axes[1].plot([r["K"] for r in t["weak"]], [r["eff"] for r in t["weak"]], color=colours(i % 10),
                         marker="o", ms=3, label=name)
        axes[0].plot(KS, [k / KS[0] for k in KS], ":", color="grey", label="ideal K/16")
        axes[0].set_yscale("log", base=2)
        axes[0].set_ylabel("modelled speed-up (rounds/s vs K = 16)")
        axes[0].set_title("strong scaling, fixed G (solid: smaller G, dashed: larger)")
        axes[1].set_ylim(0, 1.05)
        axes[1].set_ylabel("modelled efficiency T(16) / T(K)")
        axes[1].set_title("weak scaling, G = K − 1")
        for ax in axes:
            ax.set_xscale("log", base=2)
            ax.set_xlabel("ranks K")
            ax.grid(alpha=0.3)
        axes[0].legend(fontsize=6, ncol=2)
        axes[1].legend(fontsize=6)
        fig.suptitle(f"banditfs round model (α = {A * 1e6:g} µs, β = {B / 1e9:g} GB/s), measured phase costs", fontsize=9)
        fig.tight_layout()
        fig.savefig(args.figure, dpi=130)
        print(f"\nfigure: {args.figure}")


if __name__ == "__main__":
    sys.exit(main())
