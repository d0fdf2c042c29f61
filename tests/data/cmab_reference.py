#!/usr/bin/env python3
"""NumPy reference of the cmab-scores method ([CMAB §2, eq. 1, A.1]) for
tests/unit/methods/test_cmab_scores.cpp.

Written from the specification's formulas, deliberately plain (loops over bins, then arms):
  * Bins: a categorical feature, or one with at most `bins` distinct non-NaN values, gets one bin per distinct
    value; else edges = numpy.quantile(values as float64, j / bins) for j = 0..bins (method "linear"), duplicates
    dropped (numpy.unique); v is in bin b when edges[b] < v <= edges[b+1], the minimum in bin 0. NaN rows form the
    last bin (index value_bins), present even when empty.
  * Counts N_{b,i} (rows of bin b and arm i), ones_{b,i}; P_{b,i} = ones / N_{b,i}; N_i, P_i over all rows.
  * HIE: sum_b (N_b/N)(P_{b,w_b} - P_ref), w_b = argmax_i P_{b,i} over the arms with rows in b, w* = argmax_i P_i
    (ties: the lower arm). "in-bin": P_ref = P_{b,w*}, a bin without w* rows adds 0; "global": P_ref = P_{w*}.
  * HDD: sum_b (N_b/N) sum_i sum_j (N_{b,i} N_{b,j} / N_b^2) KL(P'_{b,i} || P'_{b,j})
         - sum_i sum_j (N_i N_j / N^2) KL(P'_i || P'_j),
    P' = the rate with a zero count of 0s or 1s counted as 1 (causalml's smooth=True), KL(p || q) with q clipped to
    [1e-6, 1 - 1e-6]; pairs with an empty cell have weight 0.
  * Baselines KL, ED, Chi: causalml's filter_D as tests/data/causalml_filters.py re-does it from the rows (a node
    whose rows all have one reward scoring 0, banditfs's rule where causalml's KL is NaN).
  * MI: mutual information (nats) of the bin (NaN bin included) and the reward, arms pooled.
  * Combined (eq. 1): alpha_hie * minmax(HIE) + alpha_hdd * minmax(HDD), minmax of equal values = 0.

Run it to rewrite the fixture (3 random logs, 3 arms, categorical and NaN columns, expected bins and scores):
    /usr/bin/python3 tests/data/cmab_reference.py            # writes tests/data/cmab_reference_cases.txt
Feature values are float32 written in their shortest round-trip form (C++ reads them with strtof).
"""
import math
import os
import sys

import numpy as np

from causalml_filters import filter_d

FLOOR = 1e-6


# ---------------------------------------------------------------- bins

def bin_feature(x, categorical, bins):
    """(bin per row, value_bins, per_value, edges) for float32 values x (NaN = missing)."""
    present = ~np.isnan(x)
    values = x[present].astype(np.float64)
    distinct = np.unique(values)
    per_value = bool(categorical or len(distinct) <= bins)
    out = np.empty(len(x), dtype=np.int64)
    if per_value:
        edges = distinct
        value_bins = len(distinct)
        out[present] = np.searchsorted(distinct, values)
    else:
        edges = np.unique(np.quantile(values, np.arange(bins + 1) / bins))
        value_bins = len(edges) - 1
        # edges[b] < v <= edges[b+1]: b = how many interior edges lie strictly below v.
        out[present] = (values[:, None] > edges[None, 1:-1]).sum(axis=1)
    out[~present] = value_bins
    return out, value_bins, per_value, edges


def count_cells(bin_of_row, bins_total, arm, arms, reward):
    cells = np.zeros((bins_total, arms, 2), dtype=np.int64)
    for b, a, r in zip(bin_of_row, arm, reward):
        cells[b, a, r] += 1
    return cells


# ---------------------------------------------------------------- scores

def rate(zeros, ones):
    return ones / (zeros + ones)


def smoothed_rate(zeros, ones):
    return rate(max(zeros, 1), max(ones, 1))


def kl(p, q):
    q = min(max(q, FLOOR), 1.0 - FLOOR)
    return p * math.log(p / q) + (1.0 - p) * math.log((1.0 - p) / (1.0 - q))


def argmax_rate(groups):
    """Index of the highest rate among (zeros, ones) groups with rows; ties to the lower index; -1 if none."""
    best = -1
    for i, (z, o) in enumerate(groups):
        if z + o > 0 and (best < 0 or rate(z, o) > rate(*groups[best])):
            best = i
    return best


def divergence(groups):
    """sum_i sum_j (N_i N_j / N^2) KL(P'_i || P'_j) over the groups with rows."""
    total = float(sum(z + o for z, o in groups))
    s = 0.0
    for zi, oi in groups:
        if zi + oi == 0:
            continue
        for zj, oj in groups:
            if zj + oj == 0:
                continue
            s += (float(zi + oi) * float(zj + oj)) / (total * total) * kl(smoothed_rate(zi, oi), smoothed_rate(zj, oj))
    return s


def scores(cells, reference, control):
    bins, arms, _ = cells.shape
    per_bin = [[(int(cells[b, i, 0]), int(cells[b, i, 1])) for i in range(arms)] for b in range(bins)]
    totals = [(int(cells[:, i, 0].sum()), int(cells[:, i, 1].sum())) for i in range(arms)]
    n = float(sum(z + o for z, o in totals))
    out = {}

    w_star = argmax_rate(totals)
    hie = 0.0
    for groups in per_bin:
        w_b = argmax_rate(groups)
        if w_b < 0:
            continue
        ref = groups[w_star] if reference == "in-bin" else totals[w_star]
        if sum(ref) == 0:
            continue
        hie += (float(sum(sum(g) for g in groups)) / n) * (rate(*groups[w_b]) - rate(*ref))
    out["hie"] = hie

    children = 0.0
    for groups in per_bin:
        n_b = sum(sum(g) for g in groups)
        if n_b:
            children += (float(n_b) / n) * divergence(groups)
    out["hdd"] = children - divergence(totals)

    flat = cells.ravel()
    cell_index = np.repeat(np.arange(flat.size), flat)  # one entry per row, in (bin, arm, reward) order
    bin_of_row, arm, label = cell_index // (arms * 2), (cell_index // 2) % arms, cell_index % 2
    for method, key in (("KL", "kl"), ("ED", "ed"), ("Chi", "chi")):
        out[key] = float(filter_d(method, bin_of_row, bins, arm, label, control, single_label_zero=True))

    reward_rows = [int(cells[:, :, y].sum()) for y in (0, 1)]
    mi = 0.0
    for b in range(bins):
        joint = [int(cells[b, :, y].sum()) for y in (0, 1)]
        for y in (0, 1):
            if joint[y]:
                mi += (joint[y] / n) * math.log((joint[y] * n) / (float(sum(joint)) * reward_rows[y]))
    out["mi"] = mi
    return out


def minmax(v):
    v = np.asarray(v, dtype=np.float64)
    low, high = v.min(), v.max()
    return np.zeros_like(v) if not high > low else (v - low) / (high - low)


def combine(hie, hdd, alpha_hie, alpha_hdd):
    return alpha_hie * minmax(hie) + alpha_hdd * minmax(hdd)


# ---------------------------------------------------------------- random logs

def with_nan(rng, x, fraction):
    x = x.copy()
    x[rng.random(len(x)) < fraction] = np.nan
    return x


def random_log(seed, rows, bins):
    """Features (name, categorical, float32 values), arms, rewards: HTE, ties, few values, categoricals, NaN,
    duplicate quantile edges (zero_inflated)."""
    rng = np.random.default_rng(seed)
    arm = rng.choice(3, size=rows, p=[0.45, 0.35, 0.2]).astype(np.int64)
    z = rng.normal(size=rows)
    ties = np.round(rng.normal(size=rows) * 1.5 * 4) / 4
    few = rng.integers(0, 4, size=rows).astype(np.float64)
    many_levels = rng.integers(0, 13, size=rows).astype(np.float64)
    rare = rng.choice(4, size=rows, p=[0.5, 0.3, 0.17, 0.03]).astype(np.float64)
    skewed = np.round(rng.exponential(size=rows) ** 2, 4)
    eta = -0.4 + 0.8 * z * (arm == 1) - 0.6 * (few >= 2) * (arm == 2) + 0.3 * ties + 0.5 * (many_levels % 3 == 0)
    reward = (rng.random(rows) < 1.0 / (1.0 + np.exp(-eta))).astype(np.int64)
    features = [
        ("hte_z", False, with_nan(rng, np.round(z, 4), 0.08)),
        ("ties", False, with_nan(rng, ties, 0.05)),
        ("few_values", False, few),
        ("levels13", True, with_nan(rng, many_levels, 0.1)),
        ("rare_level", True, rare),
        ("constant", False, np.full(rows, 2.5)),
        ("skewed", False, skewed),
        ("zero_inflated", False, with_nan(rng, np.where(rng.random(rows) < 0.6, 0.0, np.round(z * z, 3)), 0.05)),
    ]
    if seed == 3:
        features.append(("all_missing", False, np.full(rows, np.nan)))
    return [(name, cat, x.astype(np.float32)) for name, cat, x in features], arm, reward


def fmt(v):
    return repr(float(v))


def fmt32(v):
    return "nan" if np.isnan(v) else np.format_float_positional(np.float32(v), unique=True, trim="-")


def write_case(out, seed, rows, bins, control, alphas):
    features, arm, reward = random_log(seed, rows, bins)
    out.write(f"case {rows} {len(features)} 3 {control} {bins} {fmt(alphas[0])} {fmt(alphas[1])}\n")
    out.write("arm " + " ".join(str(a) for a in arm) + "\n")
    out.write("reward " + " ".join(str(r) for r in reward) + "\n")
    hie = {"in-bin": [], "global": []}
    hdd = []
    for name, categorical, x in features:
        bin_of_row, value_bins, per_value, edges = bin_feature(x, categorical, bins)
        cells = count_cells(bin_of_row, value_bins + 1, arm, 3, reward)
        out.write(f"feature {name} {int(categorical)} " + " ".join(fmt32(v) for v in x) + "\n")
        out.write(f"bins {int(per_value)} {value_bins} {len(edges)} " + " ".join(fmt(e) for e in edges) + "\n")
        out.write(f"cells {cells.size} " + " ".join(str(c) for c in cells.ravel()) + "\n")
        for reference in ("in-bin", "global"):
            s = scores(cells, reference, control)
            hie[reference].append(s["hie"])
            out.write(f"scores {reference} " + " ".join(fmt(s[k]) for k in ("hie", "hdd", "kl", "ed", "chi", "mi")) +
                      "\n")
        hdd.append(s["hdd"])
    for reference in ("in-bin", "global"):
        combined = combine(hie[reference], hdd, *alphas)
        out.write(f"combined {reference} " + " ".join(fmt(c) for c in combined) + "\n")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                              "cmab_reference_cases.txt")
    with open(path, "w") as out:
        out.write("# Written by tests/data/cmab_reference.py (NumPy reference of cmab-scores); do not edit.\n")
        write_case(out, seed=1, rows=240, bins=10, control=0, alphas=(0.5, 0.5))
        write_case(out, seed=2, rows=180, bins=4, control=1, alphas=(0.3, 0.7))
        write_case(out, seed=3, rows=120, bins=7, control=2, alphas=(1.0, 0.0))


if __name__ == "__main__":
    main()
