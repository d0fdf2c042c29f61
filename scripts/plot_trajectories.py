#!/usr/bin/python3
"""Draw a banditfs result.h5 the way the paper does (Fig. 1c), for any method.

Left panel (when the method recorded a trajectory, /trajectory): the importance trajectories (x = iteration; for the
bandit y = posterior inclusion probability), one line per feature: the selected features (/selected) in blue on top,
every other feature as a thin, faint grey line; the true features (/truth) outlined in black with a star at their
end; for posterior means the selection threshold as a dashed line at 0.5. Right panel (always): the top-k final
importances (/importance) as a horizontal bar chart in the same colours, true features outlined and starred. The
colour rule and the legend are scripts/banditfs_style.py's, shared with scripts/report.py.

Reads the method-neutral layout (/importance, /selected, /rank, optional /trajectory and /truth; the
method's facts as attributes of /<method>) and the older bandit layout (/posterior_mean instead of /importance).

Usage: plot_trajectories.py result.h5 out.png [--top 25] [--title T]

Runs with Debian's python3-h5py / python3-matplotlib / python3-numpy and the Agg backend (no display). Grey lines go
into one LineCollection, so p = 5000 features x 600 iterations draws in a few seconds.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import h5py  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import banditfs_style as style  # noqa: E402
from banditfs_style import decode  # noqa: E402,F401  (plot_empirical and older callers import it from here)


def string_attrs(obj):
    return style.attrs_of(obj)


def load(path):
    """-> trajectory (None when absent), names, importance, selected, truth (None), root attrs, the method's string
    facts (policy, estimator, ... from /<method>; the old layout's root policy/estimator) and the importance meaning."""
    with h5py.File(path, "r") as f:
        attrs = string_attrs(f)
        names = [decode(n) for n in f["feature_names"][...]]
        if "importance" in f:
            importance = np.asarray(f["importance"][...], dtype=np.float64)
            meaning = str(attrs.get("importance_meaning", "importance"))
            group = f.get(str(attrs.get("group", attrs.get("method", ""))))
            facts = string_attrs(group) if isinstance(group, h5py.Group) else {}
            facts.pop("feature_columns", None)
            facts = {k: v for k, v in facts.items() if isinstance(v, str)}
        else:  # the older bandit-only layout: the bandit's run state
            importance = np.asarray(f["posterior_mean"][...], dtype=np.float64)
            meaning = "posterior mean"
            attrs.setdefault("method", "bandit")
            facts = {k: attrs[k] for k in ("policy", "estimator") if k in attrs}
        trajectory = np.asarray(f["trajectory"][...], dtype=np.float32) if "trajectory" in f else None
        selected = np.asarray(f["selected"][...], dtype=np.int64)
        truth = np.asarray(f["truth"][...], dtype=np.int64) if "truth" in f else None
    return trajectory, names, importance, selected, truth, attrs, facts, meaning


def default_title(attrs, facts):
    parts = [attrs.get("data_origin", ""), attrs.get("method", "")] + list(facts.values())
    title = ", ".join(str(p) for p in parts if str(p))
    if "seed" in attrs:
        title += f" (seed {attrs['seed']})"
    return title


def is_probability(values, meaning):
    """The bandit's look (0..1 axis, 0.5 threshold) for posterior means; an autoscaled axis otherwise."""
    finite = values[np.isfinite(values)]
    return "posterior" in meaning and (finite.size == 0 or (finite.min() >= 0.0 and finite.max() <= 1.0))


def flags(ids, p):
    out = np.zeros(p, dtype=bool)
    ids = np.asarray([k for k in np.asarray(ids, dtype=np.int64).ravel() if 0 <= k < p], dtype=np.int64)
    out[ids] = True
    return out


def draw_trajectories(ax, trajectory, selected, truth, meaning, threshold=None):
    """The trajectories on `ax` by the colour rule; returns the legend kinds drawn. `threshold` (None = 0.5 for
    posterior probabilities, none otherwise) is drawn dashed."""
    iterations, p = trajectory.shape
    x = np.arange(1, iterations + 1, dtype=np.float32)
    kinds = set()
    for chosen, width, z in ((False, 0.5, 1), (True, 1.2, 3)):
        idx = np.flatnonzero((selected == chosen) & ~truth)
        if iterations == 0 or idx.size == 0:
            continue
        # segments[k] = [(x_1, y_1k), (x_2, y_2k), ...]: one polyline per feature, all in one collection.
        segments = np.empty((idx.size, iterations, 2), dtype=np.float32)
        segments[:, :, 0] = x
        segments[:, :, 1] = trajectory[:, idx].T
        alpha = 0.9 if chosen else float(np.clip(12.0 / idx.size, 0.08, 0.6))
        ax.add_collection(LineCollection(segments, colors=style.fill(chosen), linewidths=width, alpha=alpha, zorder=z))
        kinds.add("selected" if chosen else "not selected")
    for k in np.flatnonzero(truth):
        if iterations == 0:
            continue
        ax.plot(x, trajectory[:, k], color=style.fill(selected[k]), linewidth=2.0, zorder=4,
                path_effects=style.truth_stroke(2.0))
        ax.plot(x[-1], trajectory[-1, k], linestyle="none", marker=style.TRUTH_MARKER, markersize=10,
                color=style.TRUTH, zorder=5, clip_on=False)
        kinds.update({"truth line", "selected" if selected[k] else "not selected"})
    probability = is_probability(trajectory.ravel(), meaning)
    if threshold is None and probability:
        threshold = 0.5
    if threshold is not None:
        ax.axhline(threshold, zorder=2, **style.THRESHOLD_STYLE)
        kinds.add("threshold")
    if probability:
        ax.set_ylim(-0.02, 1.02)
    elif iterations > 0 and trajectory.size > 0 and np.isfinite(trajectory).any():
        low, high = float(np.nanmin(trajectory)), float(np.nanmax(trajectory))
        pad = 0.02 * (high - low) if high > low else 0.5
        ax.set_ylim(low - pad, high + pad)
    ax.set_xlim(1, max(iterations, 2))
    ax.set_xlabel("iteration")
    ax.set_ylabel("posterior inclusion probability" if probability else meaning)
    if iterations == 0:
        ax.text(0.5, 0.5, "no iterations recorded", transform=ax.transAxes, ha="center", va="center")
    return kinds


def zoomed_limits(values):
    """(left, right) when positive values all sit close together far from 0 (FUSE's g-RAVE: 0.70 to 0.71), so
    that their differences show; None for the usual axis from 0."""
    finite = np.asarray([v for v in values if v is not None and np.isfinite(v)], dtype=float)
    if finite.size < 2 or finite.min() <= 0:
        return None
    low, high = float(finite.min()), float(finite.max())
    if high - low >= 0.25 * high:
        return None
    pad = max(0.15 * (high - low), 1e-3 * high)
    return low - 2 * pad, high + pad


def draw_top(ax, names, importance, selected, truth, order, xlabel, threshold=None, lo=None, hi=None, xlim=None,
             zoom=True):
    """Horizontal bars of importance[order] (rank 1 at the top) by the colour rule, with the interval [lo, hi]
    as whiskers and the threshold dashed when given; without `xlim` and with `zoom`, values close together far from
    0 get an axis that shows their differences. Returns the legend kinds drawn."""
    y = np.arange(len(order))
    kinds = set()
    for i, k in enumerate(order):
        ax.barh(i, importance[k], height=0.75, **style.bar_style(selected[k], truth[k]))
        kinds.add("selected" if selected[k] else "not selected")
        if truth[k]:
            kinds.add("truth")
    if lo is not None and hi is not None and len(order) > 0:
        ax.hlines(y, [lo[k] for k in order], [hi[k] for k in order], color=style.INTERVAL, linewidth=1.0, zorder=4)
        ax.plot([lo[k] for k in order], y, "|", [hi[k] for k in order], y, "|", color=style.INTERVAL,
                markersize=6, zorder=4)
        kinds.add("interval")
    ax.set_yticks(y)
    fontsize = 8 if len(order) <= 30 else max(3, int(240 / len(order)))
    ax.set_yticklabels([style.label(names[k], truth[k]) for k in order], fontsize=fontsize)
    for tick, k in zip(ax.get_yticklabels(), order):
        if truth[k]:
            tick.set_fontweight("bold")
    if not ax.yaxis_inverted():  # rank 1 at the top (once: panels sharing y share the inversion)
        ax.invert_yaxis()
    if threshold is not None and np.isfinite(threshold):
        ax.axvline(threshold, zorder=5, **style.THRESHOLD_STYLE)
        kinds.add("threshold")
    ax.axvline(0.0, color="black", linewidth=0.6)
    if xlim is None and zoom and lo is None:
        xlim = zoomed_limits([importance[k] for k in order] + ([threshold] if threshold is not None else []))
        if xlim is not None:
            xlabel += " (the axis does not start at 0)"
    if xlim is not None:
        ax.set_xlim(*xlim)
    ax.set_xlabel(xlabel)
    return kinds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result", help="result.h5 written by banditfs run")
    parser.add_argument("output", help="output image (PNG; any format matplotlib knows by extension)")
    parser.add_argument("--top", type=int, default=25, help="features in the bar chart (default 25)")
    parser.add_argument("--title", default=None, help="figure title (default: data origin, method, policy, ...)")
    parser.add_argument("--dpi", type=int, default=150)
    args = parser.parse_args(argv)

    try:
        trajectory, names, importance, selected, truth, attrs, facts, meaning = load(args.result)
    except (OSError, KeyError) as e:
        print(f"plot_trajectories.py: cannot read {args.result}: {e}", file=sys.stderr)
        return 1
    p = len(names)
    if importance.shape != (p,):
        print(f"plot_trajectories.py: {args.result}: the importance does not match /feature_names", file=sys.stderr)
        return 1
    if trajectory is not None and (trajectory.ndim != 2 or trajectory.shape[1] != p):
        print(f"plot_trajectories.py: {args.result}: /trajectory does not match /feature_names", file=sys.stderr)
        return 1
    is_selected, is_true = flags(selected, p), flags(truth if truth is not None else [], p)

    if trajectory is not None:
        fig, (left, right) = plt.subplots(1, 2, figsize=(13, 6), layout="constrained",
                                          gridspec_kw={"width_ratios": [2.2, 1]})
        kinds = draw_trajectories(left, trajectory, is_selected, is_true, meaning)
        left.set_title("trajectories", fontsize="medium")
    else:  # the method has no trajectory: the bar chart alone
        fig, right = plt.subplots(1, 1, figsize=(6.5, 6), layout="constrained")
        kinds = set()
    order = style.importance_order(importance)[:max(args.top, 1)]
    probability = is_probability(importance, meaning)
    kinds |= draw_top(right, names, importance, is_selected, is_true, order, f"final {meaning}",
                      threshold=0.5 if probability else None, xlim=(0, 1) if probability else None)
    right.set_title(f"top {len(order)} features", fontsize="medium")
    title = args.title if args.title is not None else default_title(attrs, facts)
    fig.suptitle(style.wrap(title, 100 if trajectory is not None else 55))
    style.add_legend(fig, kinds)
    style.save(fig, args.output, dpi=args.dpi)
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
