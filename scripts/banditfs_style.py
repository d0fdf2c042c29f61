"""The one colour rule of every banditfs picture (scripts/report.py, plot_trajectories.py, plot_empirical.py).

  selected        one fill colour (blue), for bars, lines and points alike
  not selected    grey
  true feature    a black outline (bar edge, a stroke around a line) and a black star beside the name or at the
                  line's end; never a colour of its own, so "selected and true" and "missed" both read at a glance
  threshold       a dashed vermillion line (the selection threshold in the plotted quantity's units)
  interval        a thin black whisker

The colours are Okabe & Ito's colour-blind-safe set. Each figure draws its legend from `legend_handles`, so the
same entry means the same thing everywhere.
"""
import textwrap

import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402
from matplotlib import patheffects  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

SELECTED = "#0072B2"
NOT_SELECTED = "#B4B4B4"
TRUTH = "#000000"
THRESHOLD = "#D55E00"
INTERVAL = "#222222"
TRUTH_MARK = "\u2605"  # ★, prefixed to a true feature's name
TRUTH_MARKER = "*"  # the matplotlib marker at a true feature's point or line end
THRESHOLD_STYLE = {"color": THRESHOLD, "linestyle": "--", "linewidth": 1.4}
TRUTH_EDGE_WIDTH = 1.6


def fill(selected):
    """The fill colour of a feature: SELECTED or NOT_SELECTED."""
    return SELECTED if selected else NOT_SELECTED


def bar_style(selected, true):
    """Keyword arguments of one bar (ax.barh/bar): fill by selection, black outline when true."""
    return {"color": fill(selected), "edgecolor": TRUTH if true else "none",
            "linewidth": TRUTH_EDGE_WIDTH if true else 0.0}


def truth_stroke(width):
    """Path effects drawing a black outline around a line of the given width (a true feature's line)."""
    return [patheffects.Stroke(linewidth=width + 1.6, foreground=TRUTH), patheffects.Normal()]


def label(name, true):
    """A feature's tick label: the star before a true feature's name."""
    return f"{TRUTH_MARK} {name}" if true else name


def legend_handles(kinds, threshold_label="selection threshold"):
    """The legend entries, in one fixed order, of the kinds a figure draws: a subset of "selected",
    "not selected", "truth", "threshold", "interval", "truth line"."""
    handles = []
    if "selected" in kinds:
        handles.append(Patch(facecolor=SELECTED, edgecolor="none", label="selected"))
    if "not selected" in kinds:
        handles.append(Patch(facecolor=NOT_SELECTED, edgecolor="none", label="not selected"))
    if "truth" in kinds:
        where = "; ★ at a line's end" if "truth line" in kinds else ""
        handles.append(Patch(facecolor="white", edgecolor=TRUTH, linewidth=TRUTH_EDGE_WIDTH,
                             label=f"{TRUTH_MARK} true feature (outlined{where})"))
    elif "truth line" in kinds:
        handles.append(Line2D([], [], color=NOT_SELECTED, linewidth=2.0, path_effects=truth_stroke(2.0),
                              label=f"{TRUTH_MARK} true feature (outlined, ★ at its end)"))
    if "threshold" in kinds:
        handles.append(Line2D([], [], label=threshold_label, **THRESHOLD_STYLE))
    if "interval" in kinds:
        handles.append(Line2D([], [], color=INTERVAL, linewidth=1.0, marker="|", markersize=8, label="interval"))
    return handles


def wrap(title, width=60):
    """A title broken into lines of at most `width` characters, so that it fits its axes."""
    return "\n".join(textwrap.wrap(str(title), width=width)) or ""


def importance_order(importance):
    """Feature ids by descending importance, ties and NaN (as -inf) by ascending id: summary.csv's rank order."""
    key = np.where(np.isnan(importance), -np.inf, importance)
    return sorted(range(len(importance)), key=lambda k: (-key[k], k))


def decode(value):
    """h5py returns bytes for fixed-length strings and str for variable-length ones."""
    if isinstance(value, (bytes, np.bytes_)):
        return value.decode("utf-8", errors="replace")
    return value if not isinstance(value, np.str_) else str(value)


def attrs_of(obj):
    """The attributes of an HDF5 object with strings decoded and numpy scalars as Python numbers."""
    out = {}
    for k, v in obj.attrs.items():
        v = decode(v)
        if isinstance(v, np.generic):
            v = v.item()
        out[k] = v
    return out


def add_legend(fig, kinds, threshold_label="selection threshold"):
    """The figure's one legend, below its axes (kept whole by `save`'s tight bounding box)."""
    handles = legend_handles(kinds, threshold_label)
    if handles:
        fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(len(handles), 3),
                   fontsize="small", frameon=False)


def save(fig, target, dpi=150, fmt=None):
    """Saves with a tight bounding box, so that nothing drawn (legend below, long labels) is cut."""
    fig.savefig(target, dpi=dpi, format=fmt, bbox_inches="tight", pad_inches=0.12)
