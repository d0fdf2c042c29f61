#!/usr/bin/python3
"""Figure-6-like pictures of an empirical (GKX panel) run, and its top features beside GKX's ranking.

Reads a banditfs result.h5 of the bandit (/trajectory [iterations x p], /feature_names, /importance = the posterior
means, /bandit/iteration_period; files from before issue 10 have /posterior_mean and /iteration_period) and
draws, as paper 000 Fig. 6 does:
  (a) OUT_trajectories.png — every posterior inclusion-probability trajectory: the 94 characteristics in colour
      (the planted ones of --truth in red, thick), sic2 dummies in light blue, noise columns (noise<j>) in grey;
      month boundaries on a secondary axis;
  (b) OUT_top.png — the top-k (default 25) final posterior means as a bar chart coloured by kind.
It prints a markdown table of the top features beside Gu-Kelly-Xiu's published ranking (docs/data/gkx_ranking.csv;
only the ranks it lists) and, with --truth DIR/truth.json from `banditfs simulate gkx-like`, beside the planted
truth, followed by the study's checks (planted strong predictors above 0.5; share of noise columns below 0.5).

Usage: plot_empirical.py result.h5 OUT_PREFIX [--top 25] [--truth truth.json] [--ranking docs/data/gkx_ranking.csv]
"""
import argparse
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot_trajectories import GREY, HIGHLIGHT, decode  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIC_COLOUR = "#9ecae1"
WEAK_COLOUR = "#ff7f0e"
CHAR_COLOUR = "#1f77b4"


def load(path):
    import h5py
    with h5py.File(path, "r") as f:
        trajectory = np.asarray(f["trajectory"][...], dtype=np.float32)
        names = [decode(n) for n in f["feature_names"][...]]
        mean = np.asarray(f["importance" if "importance" in f else "posterior_mean"][...], dtype=np.float64)
        period_name = next((n for n in ("bandit/iteration_period", "iteration_period") if n in f), None)
        period = np.asarray(f[period_name][...], dtype=np.int64) if period_name else None
        attrs = {k: decode(v) if isinstance(v, (bytes, np.bytes_, str)) else v for k, v in f.attrs.items()}
        if "bandit" in f:  # issue 10: the bandit's facts (policy, estimator) are attributes of /bandit
            attrs.update({k: decode(v) if isinstance(v, (bytes, np.bytes_, str)) else v
                          for k, v in f["bandit"].attrs.items()})
    return trajectory, names, mean, period, attrs


def kind_of(name):
    if name.startswith("noise"):
        return "noise"
    if name.startswith("sic2_"):
        return "sic2"
    if name.startswith("macro_"):
        return "macro"
    return "characteristic"


def load_ranking(path):
    """{characteristic: rank} and the source note of docs/data/gkx_ranking.csv (comment lines start with '#')."""
    if not path or not os.path.exists(path):
        return {}, ""
    with open(path) as f:
        lines = [ln for ln in f if not ln.startswith("#")]
    rows = list(csv.DictReader(lines))
    return {r["characteristic"]: int(r["rank"]) for r in rows}, (rows[0]["source"] if rows else "")


def plot_trajectories(path, trajectory, names, strong, weak, period, title, dpi):
    iterations, p = trajectory.shape
    x = np.arange(1, iterations + 1, dtype=np.float32)
    kinds = [kind_of(n) for n in names]
    fig, ax = plt.subplots(figsize=(12, 6))

    def collection(idx, colour, width, alpha, z):
        if len(idx) == 0 or iterations == 0:
            return
        seg = np.empty((len(idx), iterations, 2), dtype=np.float32)
        seg[:, :, 0] = x
        seg[:, :, 1] = trajectory[:, idx].T
        ax.add_collection(LineCollection(seg, colors=colour, linewidths=width, alpha=alpha, zorder=z))

    noise = [k for k, t in enumerate(kinds) if t == "noise"]
    sic = [k for k, t in enumerate(kinds) if t in ("sic2", "macro")]
    chars = [k for k, t in enumerate(kinds) if t == "characteristic" and names[k] not in strong + weak]
    collection(noise, GREY, 0.4, float(np.clip(10.0 / max(len(noise), 1), 0.03, 0.4)), 1)
    collection(sic, SIC_COLOUR, 0.5, 0.5, 2)
    cmap = plt.get_cmap("tab20")
    for j, k in enumerate(chars):
        ax.plot(x, trajectory[:, k], color=cmap(j % 20), linewidth=0.7, alpha=0.8, zorder=3)
    for k in [names.index(n) for n in weak if n in names]:
        ax.plot(x, trajectory[:, k], color=WEAK_COLOUR, linewidth=1.4, zorder=4)
    for k in [names.index(n) for n in strong if n in names]:
        ax.plot(x, trajectory[:, k], color=HIGHLIGHT, linewidth=1.8, zorder=5)
        ax.annotate(names[k], (x[-1], trajectory[-1, k]), fontsize=7, color=HIGHLIGHT, xytext=(3, 0),
                    textcoords="offset points", va="center")
    ax.axhline(0.5, color="black", linestyle="--", linewidth=0.8, zorder=6)
    ax.set_xlim(1, max(iterations, 2))
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("iteration")
    ax.set_ylabel("posterior inclusion probability")
    if period is not None and len(period) == iterations and iterations > 0:
        starts = np.flatnonzero(np.r_[True, period[1:] != period[:-1]])
        if len(starts) > 1:  # label roughly 12 month starts along the top
            top = ax.secondary_xaxis("top")
            pick = starts[:: max(1, len(starts) // 12)]
            top.set_xticks(pick + 1)
            top.set_xticklabels([str(period[s]) for s in pick], fontsize=7, rotation=45)
    handles = [Line2D([], [], color=GREY, label=f"noise ({len(noise)})"),
               Line2D([], [], color=SIC_COLOUR, label=f"sic2 dummies ({len(sic)})"),
               Line2D([], [], color=cmap(0), label=f"characteristics ({len(chars)})")]
    if strong:
        handles.insert(0, Line2D([], [], color=HIGHLIGHT, linewidth=1.8, label="planted strong"))
    if weak:
        handles.insert(1, Line2D([], [], color=WEAK_COLOUR, linewidth=1.4, label="planted weak"))
    ax.legend(handles=handles, loc="lower left", fontsize="small", ncol=len(handles), frameon=False)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def plot_top(path, names, mean, strong, weak, top, title, dpi):
    order = sorted(range(len(mean)), key=lambda k: (-mean[k], k))[:top]
    colours = []
    for k in order:
        n = names[k]
        colours.append(HIGHLIGHT if n in strong else WEAK_COLOUR if n in weak else
                       {"noise": GREY, "sic2": SIC_COLOUR, "macro": SIC_COLOUR}.get(kind_of(n), CHAR_COLOUR))
    fig, ax = plt.subplots(figsize=(6, max(4, 0.25 * len(order) + 1)))
    y = np.arange(len(order))
    ax.barh(y, [mean[k] for k in order], color=colours)
    ax.set_yticks(y)
    ax.set_yticklabels([names[k] for k in order], fontsize=8)
    ax.invert_yaxis()
    ax.axvline(0.5, color="black", linestyle="--", linewidth=0.8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("final posterior inclusion probability")
    ax.set_title(title, fontsize="medium")
    fig.tight_layout()
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def report(names, mean, trajectory, strong, weak, ranking, ranking_source, top):
    order = sorted(range(len(mean)), key=lambda k: (-mean[k], k))[:top]
    above = (trajectory > 0.5).mean(axis=0) if trajectory.shape[0] else np.zeros(len(names))
    print(f"| rank | feature | posterior mean | share of iterations > 0.5 | GKX rank | planted |")
    print("|---|---|---|---|---|---|")
    for r, k in enumerate(order, 1):
        n = names[k]
        planted = "strong" if n in strong else "weak" if n in weak else ""
        print(f"| {r} | {n} | {mean[k]:.3f} | {above[k]:.2f} | {ranking.get(n, '')} | {planted} |")
    if ranking_source:
        print(f"\nGKX rank: {ranking_source} (blank = not among the ranks listed).")
    if ranking:
        print("\n| GKX rank | characteristic | our rank | posterior mean |\n|---|---|---|---|")
        ours = {names[k]: r for r, k in enumerate(sorted(range(len(mean)), key=lambda k: (-mean[k], k)), 1)}
        for n, r in sorted(ranking.items(), key=lambda kv: kv[1]):
            k = names.index(n) if n in names else None
            print(f"| {r} | {n} | {ours.get(n, '-')} | {mean[k]:.3f} |" if k is not None else f"| {r} | {n} | - | - |")
    noise = np.array([kind_of(n) == "noise" for n in names])
    if strong:
        print("\nplanted strong predictors (final posterior mean; target > 0.5):")
        for n in strong:
            if n in names:
                k = names.index(n)
                print(f"  {n:10s} {mean[k]:.3f} {'OK' if mean[k] > 0.5 else 'NOT ABOVE 0.5'}")
        if weak:
            print("planted weak: " + ", ".join(f"{n} {mean[names.index(n)]:.3f}" for n in weak if n in names))
    if noise.any():
        share = float(np.mean(mean[noise] < 0.5))
        print(f"noise columns below 0.5: {share:.4f} of {int(noise.sum())} (target >= 0.99)")
    chars = np.array([kind_of(n) == "characteristic" for n in names])
    unplanted = chars & ~np.isin(names, strong + weak)
    if unplanted.any() and (strong or weak):
        print(f"non-planted characteristics above 0.5: {int(np.sum(mean[unplanted] > 0.5))} of {int(unplanted.sum())}"
              " (correlated with planted ones or chance)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", help="result.h5 of the empirical run")
    parser.add_argument("out_prefix", help="writes OUT_PREFIX_trajectories.png and OUT_PREFIX_top.png")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--truth", help="truth.json of `banditfs simulate gkx-like`")
    parser.add_argument("--ranking", default=os.path.join(REPO, "docs", "data", "gkx_ranking.csv"))
    parser.add_argument("--title", default=None)
    parser.add_argument("--dpi", type=int, default=150)
    args = parser.parse_args(argv)
    try:
        trajectory, names, mean, period, attrs = load(args.result)
    except (OSError, KeyError) as e:
        print(f"plot_empirical.py: cannot read {args.result}: {e}", file=sys.stderr)
        return 1
    strong, weak = [], []
    if args.truth:
        truth = json.load(open(args.truth))
        strong = list(truth.get("strong", []))
        weak = [n for n in truth.get("planted", []) if n not in strong]
    ranking, ranking_source = load_ranking(args.ranking)
    title = args.title or f"{attrs.get('data_origin', '')} {attrs.get('policy', '')} {attrs.get('estimator', '')}" \
                          f" (seed {attrs.get('seed', '?')}), {trajectory.shape[0]} iterations"
    plot_trajectories(f"{args.out_prefix}_trajectories.png", trajectory, names, strong, weak, period, title, args.dpi)
    plot_top(f"{args.out_prefix}_top.png", names, mean, strong, weak, max(args.top, 1), f"top {args.top}", args.dpi)
    report(names, mean, trajectory, strong, weak, ranking, ranking_source, max(args.top, 1))
    print(f"\nwrote {args.out_prefix}_trajectories.png, {args.out_prefix}_top.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
