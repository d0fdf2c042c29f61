"""The pictures of scripts/report.py, each a (caption, PNG bytes) pair or None when the result has nothing to show.

Every picture follows scripts/banditfs_style.py's one colour rule and draws its legend from it: selected = blue,
not selected = grey, true feature = black outline and a star, threshold = dashed vermillion, interval = a black
whisker. Figures use constrained layout and titles wrapped to their width, and are saved with a tight bounding box,
so that no title, label or legend is cut.
"""
import io
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

import banditfs_style as style  # noqa: E402
from plot_trajectories import draw_top, draw_trajectories, is_probability  # noqa: E402

DPI = 110
# The neutral line of a quantity that is not a feature (FUSE's reward per iteration).
NEUTRAL = "#444444"


def png(fig, kinds, threshold_label="selection threshold"):
    style.add_legend(fig, kinds, threshold_label)
    buffer = io.BytesIO()
    style.save(fig, buffer, dpi=DPI, fmt="png")
    plt.close(fig)
    return buffer.getvalue()


def truth_of(r):
    return r["truth"] if r["truth"] is not None else np.zeros(len(r["names"]), dtype=bool)


def meaning_of(r):
    return str(r["attrs"].get("importance_meaning") or "importance")


def method_threshold(r):
    """(value, label) of the method's own selection threshold in importance units, or (None, why there is none)."""
    method, facts = r["attrs"].get("method", ""), r["facts"]
    if method == "bandit":
        if facts.get("policy") == "tvs":  # C~ = log(1/C) / log((1 + C) / C) [Liu & Rockova]; C by default (sqrt 5 - 1)/2
            c = float(r["job"].get("bandit", {}).get("tvs_c", (math.sqrt(5.0) - 1.0) / 2.0))
            value = math.log(1.0 / c) / math.log((1.0 + c) / c)
            return value, f"threshold C\u0303 = {value:.3g}"
        return 0.5, "threshold 0.5 (median probability model)"
    if method == "first":
        return 0.0, "threshold \u03c8 > 0"
    if facts.get("select") == "shadow" and int(facts.get("searches", 1)) > 1:  # FUSE: a threshold per search
        return None, f"select = shadow: above the shadows in each of {int(facts['searches'])} searches"
    if facts.get("select") == "shadow" and "shadow_threshold" in facts:
        q = facts.get("shadow_quantile", 1.0)
        which = "maximum" if q == 1.0 else f"{q:g}-quantile"
        value = float(facts["shadow_threshold"])
        return value, f"threshold: the shadows' {which} ({value:.4g})"
    if facts.get("select"):
        return None, f"select = {facts['select']} (a fixed rule, no threshold)"
    return None, ""


def top_order(r, top):
    rank = r["rank"]
    if rank is not None and sorted(rank.tolist()) == list(range(1, len(rank) + 1)):
        return [int(k) for k in np.argsort(rank, kind="stable")[:top]]
    return style.importance_order(r["importance"])[:top]


def top_features(r, top=20):
    """The top features by importance with their interval and the method's threshold; beside them, when the result
    summarizes several runs (/stability), each one's selection frequency with the threshold π_thr."""
    order = top_order(r, top)
    if not order:
        return None
    truth, stability = truth_of(r), r["stability"]
    frequency = stability.get("selection_frequency")
    panels = 2 if frequency is not None else 1
    height = 1.6 + 0.27 * len(order)
    fig, axes = plt.subplots(1, panels, figsize=(6.4 * panels if panels > 1 else 9.0, height), layout="constrained",
                             sharey=True,
                             squeeze=False)
    meaning = meaning_of(r)
    value, label = (None, "") if frequency is not None else method_threshold(r)
    probability = is_probability(r["importance"], meaning)
    kinds = draw_top(axes[0, 0], r["names"], r["importance"], r["selected"], truth, order, meaning, threshold=value,
                     lo=r["lo"], hi=r["hi"], xlim=(0, 1) if probability else None)
    level = r["attrs"].get("interval")
    axes[0, 0].set_title(style.wrap(f"{meaning}" + (f", {level:g} interval" if level else ""), 50), fontsize="medium")
    if frequency is not None:
        pi = float(r["stability_attrs"].get("threshold", r["run_json"].get("stability", {}).get("threshold", 0.5)))
        kinds |= draw_top(axes[0, 1], r["names"], np.asarray(frequency, dtype=float), r["selected"], truth, order,
                          "selection frequency", threshold=pi, xlim=(0, 1.0))
        runs = r["stability_attrs"].get("runs", "?")
        axes[0, 1].set_title(style.wrap(f"selection frequency over {runs} runs", 50), fontsize="medium")
        axes[0, 1].tick_params(axis="y", labelleft=False)
        label = f"threshold \u03c0_thr = {pi:g}"
    fig.suptitle(style.wrap(f"top {len(order)} of {len(r['names'])} features", 80))
    caption = f"The top {len(order)} features by importance ({meaning})" + (
        f", with their {level:g} interval" if r["lo"] is not None and level else "")
    if frequency is not None:
        caption += ", and how often the runs selected each"
    return caption + ".", png(fig, kinds, label or "selection threshold")


def trajectories(r):
    """The importance over the iterations (the bandit's posterior means over rounds), one line per feature."""
    t = r["trajectory"]
    if t is None or t.shape[0] == 0:
        return None
    fig, ax = plt.subplots(figsize=(12, 5.2), layout="constrained")
    value, label = method_threshold(r)
    kinds = draw_trajectories(ax, t, r["selected"], truth_of(r), meaning_of(r), threshold=value)
    ax.set_title(style.wrap(f"{meaning_of(r)} after each of {t.shape[0]} iterations, one line per feature", 100),
                 fontsize="medium")
    return "How each feature's importance moved over the iterations.", png(fig, kinds, label or "threshold 0.5")


def bars_by_rule(ax, ids, heights, r, ticks=True):
    """Vertical bars of features `ids` by the colour rule (a feature may appear once per bar); returns kinds."""
    truth, kinds = truth_of(r), set()
    for i, (k, h) in enumerate(zip(ids, heights)):
        ax.bar(i, h, width=0.75, **style.bar_style(r["selected"][k], truth[k]))
        kinds.add("selected" if r["selected"][k] else "not selected")
        if truth[k]:
            kinds.add("truth")
    if ticks:
        ax.set_xticks(range(len(ids)))
        few = len(ids) <= 8
        ax.set_xticklabels([style.label(r["names"][k], truth[k]) for k in ids], rotation=0 if few else 60,
                           ha="center" if few else "right", fontsize=8 if len(ids) <= 30 else 6)
    return kinds


def first_path(r, limit=40):
    """FIRST's forward path: the variance explained (V̂_A / Var y) after each addition, in the order added."""
    d = r["datasets"]
    if "forward_feature" not in d or "forward_explained" not in d or len(d["forward_feature"]) == 0:
        return None
    ids = [int(k) for k in d["forward_feature"][:limit]]
    explained = np.asarray(d["forward_explained"][:limit], dtype=float)
    var_y = float(r["facts"].get("var_y", 0.0) or 0.0)
    share = explained / var_y if var_y > 0 else explained
    fig, ax = plt.subplots(figsize=(min(12.0, max(5.0, 0.45 * len(ids) + 3.0)), 4.6), layout="constrained")
    kinds = bars_by_rule(ax, ids, share, r)
    ax.set_ylabel("share of Var(y) explained" if var_y > 0 else "V\u0302 of the set")
    ax.set_xlabel("feature added at each forward step (left to right)")
    shown = "" if len(d["forward_feature"]) <= limit else f" (first {limit} of {len(d['forward_feature'])})"
    ax.set_title(style.wrap(f"FIRST's forward path{shown}: variance explained after each addition", 80),
                 fontsize="medium")
    return ("FIRST's forward selection: the features in the order added; a grey one was added and then dropped by the "
            "backward pass (\u03c8 = 0)."), png(fig, kinds)


def fuse_path(r, window=50):
    """FUSE's most-visited path (visits of each step, its mean reward above the bar) and the reward per iteration."""
    d = r["datasets"]
    if "path" not in d or "reward" not in d:
        return None
    ids = [int(k) for k in d["path"]]
    visits = np.asarray(d.get("path_visits", np.zeros(len(ids))), dtype=float)
    means = np.asarray(d.get("path_mean", np.full(len(ids), np.nan)), dtype=float)
    reward = np.asarray(d["reward"], dtype=float)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.6), layout="constrained",
                                      gridspec_kw={"width_ratios": [1, 1.3]})
    kinds = set()
    if ids:
        kinds = bars_by_rule(left, ids, visits, r)
        for i, m in enumerate(means):
            if np.isfinite(m):
                left.annotate(f"{m:.2f}", (i, visits[i]), ha="center", va="bottom", fontsize=7, xytext=(0, 2),
                              textcoords="offset points")
        left.set_ylabel("visits")
    else:
        left.text(0.5, 0.5, "the most-visited path is empty", ha="center", va="center", transform=left.transAxes)
    left.set_title(style.wrap("most-visited path from the root (mean reward above each step)", 55), fontsize="medium")
    if reward.size:
        x = np.arange(1, reward.size + 1)
        w = max(1, min(window, reward.size))
        running = np.convolve(reward, np.ones(w) / w, mode="valid")
        right.plot(x, reward, color=NEUTRAL, alpha=0.25, linewidth=0.6)
        right.plot(x[w - 1:], running, color=NEUTRAL, linewidth=1.6)
        right.set_xlabel("iteration")
        right.set_ylabel("reward (AUC of the final set)")
        right.set_title(style.wrap(f"reward per iteration (faint) and its running mean over {w}", 60),
                        fontsize="medium")
    return ("FUSE's search: the path its tree visited most, and how the reward of the explored sets grew."), \
        png(fig, kinds)


CMAB_SCORES = (("hie", "HIE"), ("hdd", "HDD"), ("kl", "KL"), ("ed", "ED"), ("chi", "\u03c7\u00b2"), ("mi", "MI"))


def cmab_scores(r, top=20):
    """cmab-scores' six scores side by side (HIE, HDD and the four filters) for the top features by the combined
    score, in the same order, each bar by the colour rule."""
    d = r["datasets"]
    present = [(key, title) for key, title in CMAB_SCORES if key in d]
    if not present:
        return None
    order = top_order(r, top)
    truth = truth_of(r)
    fig, axes = plt.subplots(1, len(present), figsize=(2.3 * len(present) + 1.6, 1.6 + 0.27 * len(order)),
                             layout="constrained", sharey=True, squeeze=False)
    kinds = set()
    for ax, (key, title) in zip(axes[0], present):
        values = np.asarray(d[key], dtype=float)
        kinds |= draw_top(ax, r["names"], values, r["selected"], truth, order, "score", zoom=False)
        ax.set_title(title, fontsize="medium")
        ax.tick_params(axis="x", labelsize=7)
        ax.xaxis.set_major_locator(MaxNLocator(3))
    for ax in axes[0][1:]:
        ax.tick_params(axis="y", labelleft=False)
    fig.suptitle(style.wrap(f"scores of the top {len(order)} features by the combined score", 90))
    return ("cmab-scores' HIE and HDD and the four filters (KL, ED, \u03c7\u00b2, MI), the features in the order of "
            "the combined score."), png(fig, kinds)


def method_pictures(r):
    """Each method's own picture(s), in the report's order."""
    method = r["attrs"].get("method", "")
    if method == "first":
        return [first_path(r)]
    if method == "fuse":
        return [fuse_path(r)]
    if method == "cmab-scores":
        return [cmab_scores(r)]
    return []


def all_pictures(r):
    return [p for p in [top_features(r), trajectories(r)] + method_pictures(r) if p is not None]
