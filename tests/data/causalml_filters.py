#!/usr/bin/env python3
"""causalml's uplift filters (causalml/feature_selection/filters.py, FilterSelect.filter_D with method 'KL', 'ED'
and 'Chi') re-done from row-level data with NumPy alone, for tests/unit/methods/test_cmab_filters.cpp.

The rule as causalml's code reads, given each row's bin, arm and 0/1 label (the bins themselves are the caller's):
  * A node is a set of rows (one bin, or all rows). Its arms are the arms with rows in it, its labels the labels
    occurring in it. For each of its arms and each of its labels, the count of rows; a count of 0 becomes 1
    (_GetNodeSummary's smooth=True). An arm's rate is its label-1 count over its two counts (a label absent from
    the node counts 0), and its size the sum of its two counts.
  * The node's score: 0 when the control arm is not among its arms; else, over its other arms t in order,
    the sum of D(p_t, p_c):
        KL:  p_t ln(p_t / q) + (1 - p_t) ln((1 - p_t) / (1 - q)), q = p_c clipped to [0.1**6, 1 - 0.1**6];
        ED:  2 (p_t - p_c)**2;
        Chi: (p_t - p_c)**2 / max(0.1**6, p_c) + (p_t - p_c)**2 / max(0.1**6, 1 - p_c).
  * The feature's score: the sum over bins of score * size / N (size: the node's arm sizes summed, smoothed counts;
    N: all rows), minus the score of the node of all rows.
A node whose rows all have one label gives KL NaN (0 * ln 0): causalml's value is then NaN. banditfs scores such a
node 0 for every filter (all its arms have the same rate, so there is no divergence); the fixture gives that value
on a second line.

Run it to rewrite the fixture:
    /usr/bin/python3 tests/data/causalml_filters.py         # writes tests/data/causalml_filters_cases.txt
"""
import os
import sys

import numpy as np

FLOOR = 0.1**6  # as causalml writes it: 1.0000000000000004e-06 in double precision
METHODS = ("KL", "ED", "Chi")


def node_summary(arm, label):
    """({arm: (rate, size)} over the arms with rows, counts smoothed as causalml's _GetNodeSummary does; the number
    of labels in the node)."""
    arms = np.unique(arm)
    labels = np.unique(label)
    summary = {}
    for a in arms:
        counts = {}
        for y in labels:
            c = int(np.count_nonzero((arm == a) & (label == y)))
            counts[int(y)] = c if c > 0 else 1
        ones = counts.get(1, 0)
        total = counts.get(1, 0) + counts.get(0, 0)
        summary[int(a)] = (1.0 * ones / total, total)
    return summary, len(labels)


def kl_divergence(p, q):
    if q < FLOOR:
        q = FLOOR
    elif q > 1 - FLOOR:
        q = 1 - FLOOR
    p, q = np.float64(p), np.float64(q)
    return p * np.log(p / q) + (1 - p) * np.log((1 - p) / (1 - q))


def divergence(method, pt, pc):
    if method == "KL":
        return kl_divergence(pt, pc)
    if method == "ED":
        return 2 * (pt - pc)**2
    return (pt - pc)**2 / max(FLOOR, pc) + (pt - pc)**2 / max(FLOOR, 1 - pc)


def node_score(method, node, control, single_label_zero):
    summary, labels = node
    if control not in summary:
        return 0
    if single_label_zero and labels == 1:
        return 0
    pc = summary[control][0]
    d = 0
    for t in summary:
        if t != control:
            d += divergence(method, summary[t][0], pc)
    return d


def filter_d(method, bin_of_row, bins, arm, label, control, single_label_zero=False):
    total = len(arm)
    children = 0
    for b in range(bins):
        rows = bin_of_row == b
        node = node_summary(arm[rows], label[rows])
        score = node_score(method, node, control, single_label_zero)
        size = sum(s for _, s in node[0].values())
        children += score * size / total
    return children - node_score(method, node_summary(arm, label), control, single_label_zero)


# ---------------------------------------------------------------- the cases

def draw(rng, rows, bins, arms, rate, arm_weights=None):
    """Rows with a bin, an arm and a label; rate[b][a] = P(label 1) in bin b for arm a (0 or 1 makes a zero cell).
    A bin's rows of an arm with weight 0 there (rate None) are left out."""
    weights = np.ones(arms) if arm_weights is None else np.asarray(arm_weights, dtype=float)
    bin_of_row = rng.integers(0, bins, size=rows)
    arm = rng.choice(arms, size=rows, p=weights / weights.sum())
    p = np.array([[(-1.0 if rate[b][a] is None else rate[b][a]) for a in range(arms)] for b in range(bins)])
    chance = p[bin_of_row, arm]
    keep = chance >= 0
    bin_of_row, arm, chance = bin_of_row[keep], arm[keep], chance[keep]
    label = (rng.random(len(arm)) < chance).astype(np.int64)
    return bin_of_row, arm, label


def random_rates(rng, bins, arms):
    return [[float(rng.uniform(0.05, 0.95)) for _ in range(arms)] for _ in range(bins)]


def cases(rng):
    """(name, arms, control, bins, rows of (bin, arm, label)). The last bin is banditfs's NaN bin: often empty."""
    out = []
    for arms, control in ((2, 0), (2, 1), (3, 0), (3, 2), (4, 1)):
        for rows in (60, 2000):
            bins = int(rng.integers(3, 11))
            rates = random_rates(rng, bins, arms)
            rates[-1] = [None] * arms  # an empty last bin
            out.append((f"random_{arms}arms_control{control}_n{rows}", arms, control, bins,
                        draw(rng, rows, bins, arms, rates, rng.uniform(0.2, 1.0, size=arms))))
    # Zero cells: an arm with only 0s or only 1s in a bin, an arm absent from a bin, the control absent from a bin.
    for arms, control in ((2, 0), (3, 0), (3, 1)):
        bins = 6
        rates = random_rates(rng, bins, arms)
        rates[0][control] = 0.0            # the control never rewarded in bin 0 (p_c smoothed above 0)
        rates[1][(control + 1) % arms] = 1.0  # a treatment always rewarded in bin 1
        rates[2][(control + 1) % arms] = None  # a treatment without rows in bin 2
        rates[3][control] = None           # no control rows in bin 3: the node scores 0
        rates[4][control] = 1.0            # the control always rewarded in bin 4 (1 - p_c smoothed above 0)
        out.append((f"zero_cells_{arms}arms_control{control}", arms, control, bins,
                    draw(rng, 300, bins, arms, rates)))
    # A bin without any reward (causalml: KL NaN), and one where every row is rewarded (NaN too).
    for arms, control in ((2, 0), (3, 1)):
        bins = 5
        rates = random_rates(rng, bins, arms)
        rates[1] = [0.0] * arms
        rates[3] = [1.0] * arms
        out.append((f"bin_without_rewards_{arms}arms", arms, control, bins, draw(rng, 400, bins, arms, rates)))
    # Only the control has rows in a one-label bin: no treatment term, so causalml is finite there.
    rates = random_rates(rng, 4, 3)
    rates[2] = [0.0, None, None]
    out.append(("one_label_bin_of_the_control_only", 3, 0, 4, draw(rng, 300, 4, 3, rates)))
    # No reward anywhere: every node has one label (causalml NaN for KL, 0 for ED and Chi).
    out.append(("no_reward_at_all", 3, 0, 4, draw(rng, 200, 4, 3, [[0.0] * 3] * 4)))
    # Rates beyond the floor: in bin 0 the control's 1.1 million rows are all unrewarded (smoothed p_c < 0.1**6), in
    # bin 1 all rewarded (1 - p_c < 0.1**6); its treatment has both labels in both.
    bins, arms, rows = 3, 2, 4_500_000
    bin_of_row = np.repeat(np.arange(bins), [2_200_000, 2_200_000, 100_000])
    arm = np.tile(np.arange(arms), rows // arms)
    label = np.zeros(rows, dtype=np.int64)
    label[(bin_of_row == 0) & (arm == 1)] = np.arange(np.count_nonzero((bin_of_row == 0) & (arm == 1))) % 3 == 0
    label[bin_of_row == 1] = 1
    label[(bin_of_row == 1) & (arm == 1)] = np.arange(np.count_nonzero((bin_of_row == 1) & (arm == 1))) % 2
    label[bin_of_row == 2] = rng.random(100_000) < 0.3
    out.append(("rates_beyond_the_floor", arms, 0, bins, (bin_of_row, arm, label)))
    return out


def fmt(v):
    return "nan" if np.isnan(v) else repr(float(v))


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                              "causalml_filters_cases.txt")
    rng = np.random.default_rng(20260429)
    with open(path, "w") as out:
        out.write("# Written by tests/data/causalml_filters.py (causalml's filter_D from rows); do not edit.\n")
        out.write("# case NAME ARMS CONTROL BINS / cells [bins][arms][label 0, 1] / causalml KL ED Chi (nan = NaN) /\n")
        out.write("# banditfs KL ED Chi (a one-label node scored 0)\n")
        with np.errstate(divide="ignore", invalid="ignore"):
            for name, arms, control, bins, (bin_of_row, arm, label) in cases(rng):
                cells = np.zeros((bins, arms, 2), dtype=np.int64)
                np.add.at(cells, (bin_of_row, arm, label), 1)
                causalml = [filter_d(m, bin_of_row, bins, arm, label, control) for m in METHODS]
                ours = [filter_d(m, bin_of_row, bins, arm, label, control, True) for m in METHODS]
                out.write(f"case {name} {arms} {control} {bins}\n")
                out.write("cells " + " ".join(str(c) for c in cells.ravel()) + "\n")
                out.write("causalml " + " ".join(fmt(v) for v in causalml) + "\n")
                out.write("banditfs " + " ".join(fmt(v) for v in ours) + "\n")


if __name__ == "__main__":
    main()
