#!/usr/bin/env python3
"""NumPy reference of BART's leaf likelihood and Metropolis-Hastings ratios (Chipman, George & McCulloch 1998,
"Bayesian CART model search", JASA 93:935-948, §3; the R package BART's bd()) for
tests/unit/estimators_trees/test_bart.cpp.

Written from first principles, deliberately unlike the C++ (which uses sufficient statistics):
  * A leaf's residuals r (n values) with mu ~ N(0, tau^2) integrated out are jointly N(0, sigma^2 I + tau^2 1 1'):
    log p(r) is that multivariate normal log density (numpy.linalg.slogdet and solve), all constants included.
  * A birth splits a leaf's rows into left/right: its likelihood ratio is log p(r_L) + log p(r_R) - log p(r).
  * The tree-prior x proposal ratio of a birth (CGM §3.1, the package's bd()):
      P_grow(node) (1 - P_grow(left)) (1 - P_grow(right)) P(death proposed after) P(pick this nog after)
      / ((1 - P_grow(node)) P(pick this leaf) P(birth proposed)),
    a death's is the inverse for the tree it leads to.
  * The prior's expected leaf count of one tree on one column with K cuts, split probability alpha (1 + d)^-beta
    when the node has a cut left, the cut uniform among those left: E(d, L, U) by recursion.
  * chi2_3^{-1}(0.1) by bisection on the regularised lower incomplete gamma (math.erf form for 3 degrees).

Run it to rewrite the fixture:
    /usr/bin/python3 tests/data/bart_reference.py     # writes tests/data/bart_reference_cases.txt
Each line: a keyword, its inputs, then the expected value(s); residuals are generated here and written out.
"""
import functools
import math
import os

import numpy as np


def leaf_log_marginal(r, sigma, tau):
    n = len(r)
    cov = sigma**2 * np.eye(n) + tau**2 * np.ones((n, n))
    sign, logdet = np.linalg.slogdet(cov)
    assert sign > 0
    return -0.5 * (n * math.log(2 * math.pi) + logdet + r @ np.linalg.solve(cov, r))


def split_log_likelihood(r_left, r_right, sigma, tau):
    both = np.concatenate([r_left, r_right])
    return (leaf_log_marginal(r_left, sigma, tau) + leaf_log_marginal(r_right, sigma, tau) -
            leaf_log_marginal(both, sigma, tau))


def birth_prior_ratio(grow_node, grow_left, grow_right, death_after, pick_nog_after, pick_bottom, birth):
    return math.log(grow_node * (1 - grow_left) * (1 - grow_right) * death_after * pick_nog_after /
                    ((1 - grow_node) * pick_bottom * birth))


def death_prior_ratio(grow_node, grow_left, grow_right, birth_after, pick_bottom_after, death, pick_nog):
    return math.log((1 - grow_node) * birth_after * pick_bottom_after /
                    (grow_node * (1 - grow_left) * (1 - grow_right) * death * pick_nog))


def prior_mean_leaves(cuts, alpha, beta):
    @functools.lru_cache(maxsize=None)
    def expect(depth, lower, upper):
        if lower > upper:
            return 1.0
        p = alpha * (1 + depth)**-beta
        inner = sum(expect(depth + 1, lower, c - 1) + expect(depth + 1, c + 1, upper)
                    for c in range(lower, upper + 1)) / (upper - lower + 1)
        return (1 - p) + p * inner
    return expect(0, 0, cuts - 1)


def chi2_3_quantile(prob):
    # P(chi2_3 <= x) = erf(sqrt(x/2)) - sqrt(2x/pi) exp(-x/2)
    cdf = lambda x: math.erf(math.sqrt(x / 2)) - math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    lo, hi = 0.0, 50.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if cdf(mid) < prob else (lo, mid)
    return 0.5 * (lo + hi)


def fmt(v):
    return repr(float(v))


def main():
    rng = np.random.default_rng(20261124)
    lines = ["# Written by tests/data/bart_reference.py; do not edit."]
    for case in range(4):
        n_left, n_right = int(rng.integers(1, 12)), int(rng.integers(1, 12))
        sigma, tau = float(rng.uniform(0.3, 3.0)), float(rng.uniform(0.05, 2.0))
        shift = float(rng.normal(0, 2)) * case
        r_left = rng.normal(shift, 1.5, n_left)
        r_right = rng.normal(-shift, 1.5, n_right)
        value = split_log_likelihood(r_left, r_right, sigma, tau)
        lines.append("split " + " ".join(fmt(v) for v in [sigma, tau, n_left, n_right]) + " " +
                     " ".join(fmt(v) for v in np.concatenate([r_left, r_right])) + " " + fmt(value))
    for _ in range(4):
        probs = [float(rng.uniform(0.05, 0.95)) for _ in range(7)]
        lines.append("birth " + " ".join(fmt(v) for v in probs) + " " + fmt(birth_prior_ratio(*probs)))
        lines.append("death " + " ".join(fmt(v) for v in probs) + " " + fmt(death_prior_ratio(*probs)))
    for cuts, alpha, beta in [(5, 0.95, 2.0), (12, 0.95, 2.0), (3, 0.5, 1.0)]:
        lines.append("leaves " + " ".join(fmt(v) for v in [cuts, alpha, beta]) + " " +
                     fmt(prior_mean_leaves(cuts, alpha, beta)))
    lines.append("chi2_3_quantile 0.1 " + fmt(chi2_3_quantile(0.1)))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bart_reference_cases.txt")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
