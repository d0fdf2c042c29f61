#!/usr/bin/python3
"""Figure-6-like pictures of an empirical (GKX panel) run, and its top features.

Reads a banditfs result.h5 of the bandit (/trajectory [iterations x p], /feature_names, /importance = the posterior
means, /bandit/iteration_period, /truth when the panel had one; files written in the older bandit-only layout have
/posterior_mean and /iteration_period) and draws, as [Wu] Fig. 6 does:
  (a) OUT_trajectories.png — every posterior inclusion-probability trajectory, coloured by the kind of column:
      characteristics in green, sic2 and macro columns in orange, noise columns (noise<j>) in grey; the planted
      ones (the truth) outlined in black with a star at their end (strong: thick, weak: thin), as every banditfs
      picture marks the truth (scripts/banditfs_style.py); the 0.5 threshold dashed; month boundaries on a secondary
      axis; the legend draws each group as its lines are drawn;
  (b) OUT_top.png — the top-k (default 25) final posterior means as a bar chart by the common colour rule:
      selected (above 0.5) blue, others grey, planted outlined and starred, the threshold dashed.
It prints a markdown table of the top features beside the planted truth, and the study's checks (planted strong
predictors above 0.5; share of noise columns below 0.5). The truth is --truth DIR/truth.json of `banditfs simulate
gkx-like` (strong and weak), else result.h5's /truth (the planted features, not told apart), and the script says
which it used. The six features paper 000 reports above 0.6 most of the time on the real panel [Wu §5.2] are
marked; Gu-Kelly-Xiu's own ranking is not printed (their figure is not transcribed here).

Usage: plot_empirical.py result.h5 OUT_PREFIX [--top 25] [--truth truth.json]
"""
import argparse
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
import banditfs_style as style  # noqa: E402
from banditfs_style import decode  # noqa: E402
from plot_trajectories import draw_top  # noqa: E402

# The kinds of column; the truth is not a colour but an outline (banditfs_style), so strong and weak planted
# characteristics keep the characteristics' colour.
NOISE_COLOUR = style.NOT_SELECTED
SIC_COLOUR = "#E69F00"
CHAR_COLOUR = "#009E73"


def load(path):
    import h5py
    with h5py.File(path, "r") as f:
        trajectory = np.asarray(f["trajectory"][...], dtype=np.float32)
        names = [decode(n) for n in f["feature_names"][...]]
        mean = np.asarray(f["importance" if "importance" in f else "posterior_mean"][...], dtype=np.float64)
        period_name = next((n for n in ("bandit/iteration_period", "iteration_period") if n in f), None)
        period = np.asarray(f[period_name][...], dtype=np.int64) if period_name else None
        truth = [names[int(i)] for i in f["truth"][...]] if "truth" in f else None
        attrs = {k: decode(v) if isinstance(v, (bytes, np.bytes_, str)) else v for k, v in f.attrs.items()}
        if "bandit" in f:  # the method-neutral layout: the bandit's facts (policy, estimator) are attributes of /bandit
            attrs.update({k: decode(v) if isinstance(v, (bytes, np.bytes_, str)) else v
                          for k, v in f["bandit"].attrs.items()})
    return trajectory, names, mean, period, attrs, truth


def kind_of(name):
    if name.startswith("noise"):
        return "noise"
    if name.startswith("sic2_"):
        return "sic2"
    if name.startswith("macro_"):
        return "macro"
    return "characteristic"


# The features paper 000 finds above 0.6 most of the time on the real 2010-2019 panel, each among Gu, Kelly and
# Xiu's strong predictors [Wu §5.2].
WU_STRONG = ("indmom", "baspread", "mom12m", "beta", "mom1m", "idiovol")


def choose_truth(truth_json, h5_truth):
    """(strong, weak, note): from --truth's truth.json when given, else result.h5's /truth (all as planted)."""
    if truth_json:
        with open(truth_json) as f:
            truth = json.load(f)
        strong = list(truth.get("strong", []))
        weak = [n for n in truth.get("planted", []) if n not in strong]
        note = f"truth: {truth_json} ({len(strong)} strong, {len(weak)} weak planted features)"
        if h5_truth is not None and sorted(h5_truth) != sorted(strong + weak):
            note += "; it differs from result.h5's /truth, which is not used"
        return strong, weak, note
    if h5_truth is not None:
        return list(h5_truth), [], (f"truth: result.h5's /truth ({len(h5_truth)} planted features, drawn as strong; "
                                    "--truth truth.json tells strong from weak)")
    return [], [], "truth: none (no --truth, no /truth in result.h5)"


def line_groups(names, strong, weak):
    """The trajectory groups in drawing order: (label, feature indices, colour, width, alpha, z); the planted ones
    are drawn outlined (truth_stroke) with a star at their end."""
    kinds = [kind_of(n) for n in names]
    noise = [k for k, t in enumerate(kinds) if t == "noise"]
    other = [k for k, t in enumerate(kinds) if t in ("sic2", "macro")]
    chars = [k for k, t in enumerate(kinds) if t == "characteristic" and names[k] not in strong + weak]
    has_macro = any(t == "macro" for t in kinds)
    return [
        (f"noise ({len(noise)})", noise, NOISE_COLOUR, 0.4, float(np.clip(10.0 / max(len(noise), 1), 0.03, 0.4)), 1),
        (f"sic2{' and macro' if has_macro else ''} columns ({len(other)})", other, SIC_COLOUR, 0.5, 0.5, 2),
        (f"characteristics ({len(chars)})", chars, CHAR_COLOUR, 0.7, 0.6, 3),
        (f"{style.TRUTH_MARK} planted weak (thin outline)", [names.index(n) for n in weak if n in names],
         CHAR_COLOUR, 1.0, 1.0, 4),
        (f"{style.TRUTH_MARK} planted strong (thick outline)", [names.index(n) for n in strong if n in names],
         CHAR_COLOUR, 1.8, 1.0, 5),
    ]


def plot_trajectories(path, trajectory, names, strong, weak, period, title, dpi):
    """Draws and saves panel (a); returns the figure (closed) for checks."""
    iterations, p = trajectory.shape
    x = np.arange(1, iterations + 1, dtype=np.float32)
    fig, ax = plt.subplots(figsize=(12, 6), layout="constrained")
    handles = []
    for label, idx, colour, width, alpha, z in line_groups(names, strong, weak):
        if len(idx) == 0 or iterations == 0:
            continue
        seg = np.empty((len(idx), iterations, 2), dtype=np.float32)
        seg[:, :, 0] = x
        seg[:, :, 1] = trajectory[:, idx].T
        planted = z >= 4
        effects = style.truth_stroke(width) if planted else None
        # gid: the group, so that a check can match each legend entry with the lines it stands for.
        ax.add_collection(LineCollection(seg, colors=colour, linewidths=width, alpha=alpha, zorder=z, gid=label,
                                         path_effects=effects))
        handles.append(Line2D([], [], color=colour, linewidth=max(width, 1.0), alpha=max(alpha, 0.4), label=label,
                              path_effects=effects, marker=style.TRUTH_MARKER if planted else None,
                              markersize=9, markerfacecolor=style.TRUTH, markeredgecolor=style.TRUTH))
        if planted:
            ax.plot(np.full(len(idx), x[-1]), trajectory[-1, idx], linestyle="none", marker=style.TRUTH_MARKER,
                    markersize=9 if z == 5 else 6, color=style.TRUTH, zorder=z + 1, clip_on=False)
    for k in [names.index(n) for n in strong if n in names]:
        ax.annotate(names[k], (x[-1], trajectory[-1, k]), fontsize=7, color=style.TRUTH, xytext=(6, 0),
                    textcoords="offset points", va="center")
    ax.axhline(0.5, zorder=6, **style.THRESHOLD_STYLE)
    handles.insert(0, Line2D([], [], label="0.5 (selection threshold)", **style.THRESHOLD_STYLE))
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
    handles.reverse()  # planted first, as drawn on top
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize="small",
              ncol=min(len(handles), 3), frameon=False)
    ax.set_title(style.wrap(title, 90))
    style.save(fig, path, dpi=dpi)
    plt.close(fig)
    return fig


def plot_top(path, names, mean, strong, weak, top, title, dpi):
    """The top-k bars by the common colour rule: selected (final posterior mean above 0.5, the median probability
    model) blue, others grey, planted features (strong and weak) outlined and starred, 0.5 dashed."""
    order = style.importance_order(mean)[:top]
    selected = np.asarray(mean) > 0.5
    planted = np.isin(names, strong + weak)
    fig, ax = plt.subplots(figsize=(6.5, max(4, 0.25 * len(order) + 1)), layout="constrained")
    kinds = draw_top(ax, names, np.asarray(mean), selected, planted, order, "final posterior inclusion probability",
                     threshold=0.5, xlim=(0, 1))
    ax.set_title(style.wrap(title, 50), fontsize="medium")
    style.add_legend(fig, kinds)
    style.save(fig, path, dpi=dpi)
    plt.close(fig)


def report(names, mean, trajectory, strong, weak, top):
    order = sorted(range(len(mean)), key=lambda k: (-mean[k], k))[:top]
    above = (trajectory > 0.5).mean(axis=0) if trajectory.shape[0] else np.zeros(len(names))
    print("| rank | feature | posterior mean | share of iterations > 0.5 | planted | paper 000 §5.2 |")
    print("|---|---|---|---|---|---|")
    for r, k in enumerate(order, 1):
        n = names[k]
        planted = "strong" if n in strong else "weak" if n in weak else ""
        print(f"| {r} | {n} | {mean[k]:.3f} | {above[k]:.2f} | {planted} | {'> 0.6' if n in WU_STRONG else ''} |")
    print("\npaper 000 §5.2: the features Wu finds above 0.6 most of the time on the real 2010-2019 panel, all among "
          "Gu, Kelly and Xiu's strong predictors.")
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
    parser.add_argument("--title", default=None)
    parser.add_argument("--dpi", type=int, default=150)
    args = parser.parse_args(argv)
    try:
        trajectory, names, mean, period, attrs, h5_truth = load(args.result)
    except (OSError, KeyError) as e:
        print(f"plot_empirical.py: cannot read {args.result}: {e}", file=sys.stderr)
        return 1
    strong, weak, truth_note = choose_truth(args.truth, h5_truth)
    print(truth_note)
    title = args.title or f"{attrs.get('data_origin', '')} {attrs.get('policy', '')} {attrs.get('estimator', '')}" \
                          f" (seed {attrs.get('seed', '?')}), {trajectory.shape[0]} iterations"
    plot_trajectories(f"{args.out_prefix}_trajectories.png", trajectory, names, strong, weak, period, title, args.dpi)
    plot_top(f"{args.out_prefix}_top.png", names, mean, strong, weak, max(args.top, 1), f"top {args.top}", args.dpi)
    report(names, mean, trajectory, strong, weak, max(args.top, 1))
    print(f"\nwrote {args.out_prefix}_trajectories.png, {args.out_prefix}_top.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
