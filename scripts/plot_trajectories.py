#!/usr/bin/python3
"""Draw a banditfs result.h5 the way the paper does (Fig. 1c), for any method.

Left panel (when the method recorded a trajectory, /trajectory): the importance trajectories (x = iteration; for the
bandit y = posterior inclusion probability), one line per feature; the true features (/truth) in red on top, or the
selected features when there is no truth; every other feature as a thin, faint grey line; for posterior means a dashed
line at 0.5. Right panel (always): the top-k final importances (/importance) as a horizontal bar chart (true/selected
features red, others grey).

Reads the method-neutral layout (/importance, /selected, /rank, optional /trajectory and /truth; the
method's facts as attributes of /<method>) and the older bandit layout (/posterior_mean instead of /importance).

Usage: plot_trajectories.py result.h5 out.png [--top 25] [--title T]

Runs with Debian's python3-h5py / python3-matplotlib / python3-numpy and the Agg backend (no display). Grey lines go
into one LineCollection, so p = 5000 features x 600 iterations draws in a few seconds.
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import h5py  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

HIGHLIGHT = "#d62728"
GREY = "#7f7f7f"


def decode(value):
    """h5py returns bytes for fixed-length strings and str for variable-length ones."""
    if isinstance(value, (bytes, np.bytes_)):
        return value.decode("utf-8", errors="replace")
    return str(value)


def string_attrs(obj):
    return {k: decode(v) if isinstance(v, (bytes, np.bytes_, str)) else v for k, v in obj.attrs.items()}


def load(path):
    """-> trajectory (None when absent), names, importance, selected, truth (None), root attrs, the method's string
    facts (policy, estimator, ... from /<method>; the old layout's root policy/estimator) and the importance meaning."""
    with h5py.File(path, "r") as f:
        attrs = string_attrs(f)
        names = [decode(n) for n in f["feature_names"][...]]
        if "importance" in f:
            importance = np.asarray(f["importance"][...], dtype=np.float64)
            meaning = str(attrs.get("importance_meaning", "importance"))
            group = f.get(str(attrs.get("method", "")))
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


def plot_trajectories(ax, trajectory, highlight, highlight_label, meaning):
    iterations, p = trajectory.shape
    x = np.arange(1, iterations + 1, dtype=np.float32)
    is_highlight = np.zeros(p, dtype=bool)
    is_highlight[highlight] = True
    others = np.flatnonzero(~is_highlight)
    if iterations > 0 and others.size > 0:
        # segments[k] = [(x_1, y_1k), (x_2, y_2k), ...]: one polyline per feature, all in one collection.
        segments = np.empty((others.size, iterations, 2), dtype=np.float32)
        segments[:, :, 0] = x
        segments[:, :, 1] = trajectory[:, others].T
        alpha = float(np.clip(12.0 / others.size, 0.05, 0.5))
        ax.add_collection(LineCollection(segments, colors=GREY, linewidths=0.5, alpha=alpha, zorder=1))
    for k in highlight:
        if iterations > 0:
            ax.plot(x, trajectory[:, k], color=HIGHLIGHT, linewidth=1.3, zorder=3)
    probability = is_probability(trajectory.ravel(), meaning)
    if probability:
        ax.axhline(0.5, color="black", linestyle="--", linewidth=0.8, zorder=2)
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
    # Proxy handles: the collection's own alpha can be too faint to see in a legend.
    handles = [Line2D([], [], color=GREY, linewidth=1.0, label="other features")]
    if probability:
        handles.append(Line2D([], [], color="black", linestyle="--", linewidth=0.8, label="0.5 (selection threshold)"))
    if len(highlight) > 0:
        handles.insert(0, Line2D([], [], color=HIGHLIGHT, linewidth=1.3, label=f"{highlight_label} ({len(highlight)})"))
    ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=len(handles), fontsize="small",
              frameon=False, borderaxespad=0.2)


def plot_top(ax, names, importance, highlight, top, meaning):
    key = np.where(np.isnan(importance), -np.inf, importance)
    order = sorted(range(len(importance)), key=lambda k: (-key[k], k))[:top]  # ties by lower index, as summary.csv
    is_highlight = set(int(k) for k in highlight)
    y = np.arange(len(order))
    colors = [HIGHLIGHT if k in is_highlight else GREY for k in order]
    ax.barh(y, [importance[k] for k in order], color=colors)
    ax.set_yticks(y)
    fontsize = 8 if len(order) <= 30 else max(3, int(240 / len(order)))
    ax.set_yticklabels([names[k] for k in order], fontsize=fontsize)
    ax.invert_yaxis()  # rank 1 at the top
    if is_probability(importance, meaning):
        ax.axvline(0.5, color="black", linestyle="--", linewidth=0.8)
        ax.set_xlim(0, 1)
    else:
        ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel(f"final {meaning}")
    ax.set_title(f"top {len(order)} features", fontsize="medium")


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
    if importance.shape != (len(names),):
        print(f"plot_trajectories.py: {args.result}: the importance does not match /feature_names", file=sys.stderr)
        return 1
    if trajectory is not None and (trajectory.ndim != 2 or trajectory.shape[1] != len(names)):
        print(f"plot_trajectories.py: {args.result}: /trajectory does not match /feature_names", file=sys.stderr)
        return 1
    if truth is not None:
        highlight, label = truth, "true features"
    else:
        highlight, label = selected, "selected features"
    highlight = np.asarray([k for k in highlight if 0 <= k < len(names)], dtype=np.int64)

    if trajectory is not None:
        fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.5), gridspec_kw={"width_ratios": [2.2, 1]})
        plot_trajectories(left, trajectory, highlight, label, meaning)
    else:  # the method has no trajectory: the bar chart alone
        fig, right = plt.subplots(1, 1, figsize=(6, 5.5))
    plot_top(right, names, importance, highlight, max(args.top, 1), meaning)
    fig.suptitle(args.title if args.title is not None else default_title(attrs, facts))
    fig.tight_layout()
    fig.savefig(args.output, dpi=args.dpi)
    plt.close(fig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
