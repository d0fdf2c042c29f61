#!/usr/bin/python3
"""A plain NumPy peer of banditfs's BART sampler (src/estimators/bart.hpp, bart_sampler.cpp, dart.cpp,
detail/bart_tree.hpp): the speed baseline of scripts/bench/bart_speed.sh.

The same sampler, written straightforwardly (Python loops over trees and nodes, NumPy over rows):
  * prior: y centred; tau = (max y - min y) / (2 k sqrt(m)); sigma-hat = the OLS residual sd (intercept, n - rank
    degrees of freedom) when p < n, else sd(y); lambda = sigma-hat^2 chi2_nu^-1(1 - q) / nu; node split probability
    alpha (1 + d)^-beta;
  * cuts: numcut equally spaced strictly inside (min, max), or the midpoints of the distinct values when there are
    fewer than numcut, rounded to float32; bin = number of cuts <= x, a row goes left at (v, c) when bin <= c;
  * per tree: residual = y - the other trees; birth (probability 1/2, 1 for a lone root, 0 when no leaf can split) or
    death, with the package's bd() ratios and mu integrated out; a birth leaving a child with < 5 rows is rejected;
    then every leaf's mu from N((sum r / s2) / P, 1 / P), P = 1 / tau^2 + n / s2, in node index order;
  * after the trees, sigma^2 ~ (nu lambda + RSS) / chi2_{n + nu};
  * DART from sweep M/2 on: log s ~ log Dirichlet(theta / p + split counts) (Gamma shapes < 1 boosted on the log
    scale), theta on the 1000-point grid lambda_k = k / 1001, theta = lambda p / (1 - lambda), Beta(a, b) prior;
    before that s is uniform; the split column is drawn from s restricted to the columns with a cut left;
  * each kept sweep (> burn) stores the m trees (arrays: var, cut, left, right, mu), adds the split counts and the
    fit to their running means.
The change move (estimator.change_prob, default 0) is not implemented. The random streams differ from banditfs's,
so the chains agree in distribution, not draw for draw.

Data: friedman1 (y = 10 sin(pi x1 x2) + 20 (x3 - 1/2)^2 + 10 x4 + 5 x5 + N(0, 1), x ~ U(0, 1)^p), seeded. --save-data
writes it raw (n, p as int64, X float32 row-major, y float64) for scripts/bench/bart_bench.cpp.

  /usr/bin/python3 scripts/bench/bart_peer.py --n 1000 --p 20 --trees 10 --sweeps 200 --total-sweeps 1000
prints the run and its last line `sweeps_per_second S`. With --sweeps < --total-sweeps it runs the first --sweeps of
an M = --total-sweeps chain (DART still starts at M/2) and extrapolates the time linearly.
"""
import argparse
import math
import struct
import sys
import time

import numpy as np
from scipy.special import gammaln
from scipy.stats import chi2

MIN_LEAF_ROWS = 5
BIRTH_PROBABILITY = 0.5


def friedman1(n, p, seed):
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n, p)).astype(np.float32)
    x = X.astype(np.float64)
    y = (10 * np.sin(np.pi * x[:, 0] * x[:, 1]) + 20 * (x[:, 2] - 0.5)**2 + 10 * x[:, 3] + 5 * x[:, 4] +
         rng.standard_normal(n))
    return X, y


def column_cuts(values, numcut):
    distinct = np.unique(values.astype(np.float32))
    if len(distinct) < 2:
        return np.zeros(0, dtype=np.float32)
    d = distinct.astype(np.float64)
    if len(distinct) < numcut:
        cuts = 0.5 * (d[:-1] + d[1:])
    else:
        lo, hi = d[0], d[-1]
        cuts = np.array([lo + (hi - lo) * k / (numcut + 1.0) for k in range(1, numcut + 1)])
    out = []
    for c in cuts.astype(np.float32):
        if c > distinct[0] and (not out or c > out[-1]):
            out.append(c)
    return np.array(out, dtype=np.float32)


def sigma_hat_of(X, y):
    n, p = X.shape
    sd = float(np.std(y, ddof=1)) if n > 1 else 0.0
    if p >= n:
        return sd
    design = np.hstack([np.ones((n, 1)), X.astype(np.float64)])
    coef, _, rank, _ = np.linalg.lstsq(design, y, rcond=None)
    if n - rank < 1:
        return sd
    residual = y - design @ coef
    return math.sqrt(residual @ residual / (n - rank))


class Tree:
    """Nodes in parallel lists; a node keeps its index while it lives, freed slots are reused lowest first."""

    def __init__(self):
        self.var, self.cut, self.left, self.right = [-1], [0], [-1], [-1]
        self.parent, self.depth, self.mu, self.used = [-1], [0], [0.0], [True]

    def is_leaf(self, i):
        return self.var[i] < 0

    def is_nog(self, i):
        return self.var[i] >= 0 and self.is_leaf(self.left[i]) and self.is_leaf(self.right[i])

    def leaves(self):
        return [i for i in range(len(self.var)) if self.used[i] and self.is_leaf(i)]

    def nogs(self):
        return [i for i in range(len(self.var)) if self.used[i] and self.is_nog(i)]

    def size(self):
        return sum(self.used)

    def ranges(self, i):
        """{column: [lower, upper]} for the columns the ancestors of node i split on."""
        out = {}
        child, parent = i, self.parent[i]
        while parent >= 0:
            v, c = self.var[parent], self.cut[parent]
            lo, hi = out.get(v, (0, 1 << 30))
            out[v] = (lo, min(hi, c - 1)) if self.left[parent] == child else (max(lo, c + 1), hi)
            child, parent = parent, self.parent[parent]
        return out

    def cut_range(self, i, v, cut_count):
        lo, hi = self.ranges(i).get(v, (0, cut_count - 1))
        return lo, min(hi, cut_count - 1)

    def good_vars(self, i, cut_counts):
        constrained = self.ranges(i)
        good = []
        for v, k in enumerate(cut_counts):
            if k == 0:
                continue
            lo, hi = constrained.get(v, (0, k - 1))
            if lo <= min(hi, k - 1):
                good.append(v)
        return good

    def can_split(self, i, cut_counts):
        return len(self.good_vars(i, cut_counts)) > 0

    def allocate(self, parent, depth):
        for i in range(1, len(self.var)):
            if not self.used[i]:
                self.var[i], self.cut[i], self.left[i], self.right[i] = -1, 0, -1, -1
                self.parent[i], self.depth[i], self.mu[i], self.used[i] = parent, depth, 0.0, True
                return i
        for field, value in ((self.var, -1), (self.cut, 0), (self.left, -1), (self.right, -1), (self.parent, parent),
                             (self.depth, depth), (self.mu, 0.0), (self.used, True)):
            field.append(value)
        return len(self.var) - 1

    def birth(self, i, v, c):
        left = self.allocate(i, self.depth[i] + 1)
        right = self.allocate(i, self.depth[i] + 1)
        self.var[i], self.cut[i], self.left[i], self.right[i] = v, c, left, right

    def death(self, i):
        self.used[self.left[i]] = self.used[self.right[i]] = False
        self.var[i], self.left[i], self.right[i], self.mu[i] = -1, -1, -1, 0.0


def leaf_log_likelihood(n, total, s2, t2):
    k = s2 + n * t2
    return 0.5 * math.log(s2 / k) + t2 * total * total / (2.0 * s2 * k)


def split_log_likelihood(nl, sl, nr, sr, sigma, tau):
    s2, t2 = sigma * sigma, tau * tau
    return (leaf_log_likelihood(nl, sl, s2, t2) + leaf_log_likelihood(nr, sr, s2, t2) -
            leaf_log_likelihood(nl + nr, sl + sr, s2, t2))


def log_dirichlet(shapes, rng):
    out = np.empty(len(shapes))
    for j, a in enumerate(shapes):
        if a >= 1.0:
            out[j] = math.log(rng.standard_gamma(a))
        else:
            u = rng.uniform()
            while u == 0.0:
                u = rng.uniform()
            out[j] = math.log(rng.standard_gamma(a + 1.0)) + math.log(u) / a
    top = out.max()
    return out - (top + math.log(np.exp(out - top).sum()))


def draw_theta(log_s, a, b, rho, rng):
    p = len(log_s)
    lam = np.arange(1, 1001) / 1001.0
    theta = lam * rho / (1.0 - lam)
    logw = (gammaln(theta) - p * gammaln(theta / p) + (theta / p) * log_s.sum() + (a - 1.0) * np.log(lam) +
            (b - 1.0) * np.log(1.0 - lam))
    w = np.exp(logw - logw.max())
    u = rng.uniform() * w.sum()
    k = int(np.searchsorted(np.cumsum(w), u, side='right'))
    return theta[min(k, len(theta) - 1)]


class Sampler:

    def __init__(self, X, y, args, rng):
        self.args, self.rng = args, rng
        self.n, self.p = X.shape
        self.mean = y.mean()
        self.y = y - self.mean
        self.tau = (self.y.max() - self.y.min()) / (2.0 * args.k * math.sqrt(args.trees))
        self.sigma = sigma_hat_of(X, self.y) or self.tau
        self.lam = self.sigma**2 * chi2.ppf(1.0 - args.q, args.nu) / args.nu
        self.cuts = [column_cuts(X[:, v], args.numcut) for v in range(self.p)]
        self.cut_counts = [len(c) for c in self.cuts]
        self.bins = [np.searchsorted(self.cuts[v], X[:, v], side='right') for v in range(self.p)]
        self.trees = [Tree() for _ in range(args.trees)]
        self.leaf_of = [np.zeros(self.n, dtype=np.int64) for _ in range(args.trees)]
        self.fit = np.zeros(self.n)
        self.counts = np.zeros(self.p)
        self.s = np.full(self.p, 1.0 / self.p)
        self.theta = 1.0

    def grow(self, depth):
        return self.args.alpha / (1.0 + depth)**self.args.beta

    def grow_if_splittable(self, tree, i):
        return self.grow(tree.depth[i]) if tree.can_split(i, self.cut_counts) else 0.0

    def accept(self, log_ratio):
        return math.log(self.rng.uniform()) < min(0.0, log_ratio)

    def draw_column(self, good):
        w = self.s[good]
        total = w.sum()
        if not total > 0.0:
            return good[self.rng.integers(len(good))]
        k = int(np.searchsorted(np.cumsum(w), self.rng.uniform() * total, side='right'))
        return good[min(k, len(good) - 1)]

    def update_tree(self, j):
        tree, leaf_of = self.trees[j], self.leaf_of[j]
        residual = self.y - self.fit + np.asarray(tree.mu)[leaf_of]
        good_leaves = [i for i in tree.leaves() if tree.can_split(i, self.cut_counts)]
        birth = 0.0 if not good_leaves else (1.0 if tree.size() == 1 else BIRTH_PROBABILITY)
        if self.rng.uniform() < birth:
            self.birth_step(tree, leaf_of, residual, good_leaves, birth)
        else:
            self.death_step(tree, leaf_of, residual, good_leaves, birth)
        self.draw_leaf_values(tree, leaf_of, residual)

    def birth_step(self, tree, leaf_of, residual, good_leaves, birth):
        leaf = good_leaves[self.rng.integers(len(good_leaves))]
        good = tree.good_vars(leaf, self.cut_counts)
        v = self.draw_column(good)
        lo, hi = tree.cut_range(leaf, v, self.cut_counts[v])
        c = lo + int(self.rng.integers(hi - lo + 1))
        depth = tree.depth[leaf]
        grow_node, child = self.grow(depth), self.grow(depth + 1)
        grow_left = child if (len(good) > 1 or c - 1 >= lo) else 0.0
        grow_right = child if (len(good) > 1 or c + 1 <= hi) else 0.0
        can_birth_after = len(good_leaves) > 1 or grow_left > 0.0 or grow_right > 0.0
        death_after = 1.0 - BIRTH_PROBABILITY if can_birth_after else 1.0
        parent, nogs = tree.parent[leaf], len(tree.nogs())
        pick_nog_after = 1.0 if parent < 0 else (1.0 / nogs if tree.is_nog(parent) else 1.0 / (nogs + 1.0))
        log_prior = (math.log(grow_node * (1 - grow_left) * (1 - grow_right) * death_after * pick_nog_after) -
                     math.log((1 - grow_node) / len(good_leaves) * birth))
        mask = leaf_of == leaf
        r, goes_left = residual[mask], self.bins[v][mask] <= c
        nl = int(goes_left.sum())
        nr = len(r) - nl
        if nl < MIN_LEAF_ROWS or nr < MIN_LEAF_ROWS:
            return
        sl = float(r[goes_left].sum())
        sr = float(r.sum()) - sl
        if not self.accept(log_prior + split_log_likelihood(nl, sl, nr, sr, self.sigma, self.tau)):
            return
        tree.birth(leaf, v, c)
        rows = np.flatnonzero(mask)
        leaf_of[rows] = np.where(goes_left, tree.left[leaf], tree.right[leaf])
        self.counts[v] += 1.0

    def death_step(self, tree, leaf_of, residual, good_leaves, birth):
        nogs = tree.nogs()
        if not nogs:
            return
        i = nogs[self.rng.integers(len(nogs))]
        left, right = tree.left[i], tree.right[i]
        grow_node = self.grow(tree.depth[i])
        grow_left, grow_right = self.grow_if_splittable(tree, left), self.grow_if_splittable(tree, right)
        birth_after = 1.0 if tree.parent[i] < 0 else BIRTH_PROBABILITY
        good_after = len(good_leaves) + 1.0 - (grow_left > 0.0) - (grow_right > 0.0)
        log_prior = (math.log((1 - grow_node) * birth_after / good_after) -
                     math.log(grow_node * (1 - grow_left) * (1 - grow_right) * (1.0 - birth) / len(nogs)))
        in_left, in_right = leaf_of == left, leaf_of == right
        nl, nr = int(in_left.sum()), int(in_right.sum())
        sl, sr = float(residual[in_left].sum()), float(residual[in_right].sum())
        if not self.accept(log_prior - split_log_likelihood(nl, sl, nr, sr, self.sigma, self.tau)):
            return
        leaf_of[in_left | in_right] = i
        self.counts[tree.var[i]] -= 1.0
        tree.death(i)

    def draw_leaf_values(self, tree, leaf_of, residual):
        size = len(tree.var)
        count = np.bincount(leaf_of, minlength=size)
        total = np.bincount(leaf_of, weights=residual, minlength=size)
        s2 = self.sigma * self.sigma
        for i in tree.leaves():
            precision = 1.0 / (self.tau * self.tau) + count[i] / s2
            tree.mu[i] = (total[i] / s2) / precision + self.rng.standard_normal() / math.sqrt(precision)
        self.fit = self.y - residual + np.asarray(tree.mu)[leaf_of]

    def draw_sigma(self):
        rss = float(((self.y - self.fit)**2).sum())
        chi = 2.0 * self.rng.standard_gamma(0.5 * (self.n + self.args.nu))
        self.sigma = math.sqrt((self.args.nu * self.lam + rss) / chi)

    def update_dart(self):
        log_s = log_dirichlet(self.theta / self.p + self.counts, self.rng)
        self.theta = draw_theta(log_s, self.args.sparse_a, self.args.sparse_b, float(self.p), self.rng)
        self.s = np.exp(log_s)

    def run(self, sweeps, total_sweeps):
        kept, mean_splits, mean_fit = [], np.zeros(self.p), np.zeros(self.n)
        for sweep in range(sweeps):
            for j in range(len(self.trees)):
                self.update_tree(j)
            self.draw_sigma()
            if not self.args.dense and sweep >= total_sweeps // 2:
                self.update_dart()
            if sweep + 1 > self.args.burn:
                for t in self.trees:
                    kept.append(tuple(np.array(f) for f in (t.var, t.cut, t.left, t.right, t.mu)))
                mean_splits += self.counts
                mean_fit += self.fit
        k = max(sweeps - self.args.burn, 1)
        return kept, mean_splits / k, mean_fit / k + self.mean


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--n', type=int, default=1000)
    ap.add_argument('--p', type=int, default=20)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--trees', type=int, default=10)
    ap.add_argument('--sweeps', type=int, default=1000, help='sweeps run (default: all of --total-sweeps)')
    ap.add_argument('--total-sweeps', type=int, default=1000, help='M, the chain length (DART from M/2)')
    ap.add_argument('--burn', type=int, default=0)
    ap.add_argument('--numcut', type=int, default=100)
    ap.add_argument('--k', type=float, default=2.0)
    ap.add_argument('--alpha', type=float, default=0.95)
    ap.add_argument('--beta', type=float, default=2.0)
    ap.add_argument('--nu', type=float, default=3.0)
    ap.add_argument('--q', type=float, default=0.90)
    ap.add_argument('--sparse-a', type=float, default=0.5)
    ap.add_argument('--sparse-b', type=float, default=1.0)
    ap.add_argument('--dense', action='store_true', help='no DART (sparse = false)')
    ap.add_argument('--save-data', help='write the data raw for bart_bench and exit')
    args = ap.parse_args()
    args.sweeps = min(args.sweeps, args.total_sweeps)

    X, y = friedman1(args.n, args.p, args.seed)
    if args.save_data:
        with open(args.save_data, 'wb') as f:
            f.write(struct.pack('<qq', args.n, args.p))
            f.write(np.ascontiguousarray(X, dtype='<f4').tobytes())
            f.write(np.ascontiguousarray(y, dtype='<f8').tobytes())
        return
    start = time.perf_counter()
    sampler = Sampler(X, y, args, np.random.default_rng(args.seed))
    kept, mean_splits, mean_fit = sampler.run(args.sweeps, args.total_sweeps)
    seconds = time.perf_counter() - start
    rate = args.sweeps / seconds
    r2 = 1.0 - ((y - mean_fit)**2).sum() / ((y - y.mean())**2).sum()
    print(f'data friedman1 n={args.n} p={args.p} seed={args.seed}; trees={args.trees} sweeps={args.sweeps} '
          f'of M={args.total_sweeps} burn={args.burn} sparse={not args.dense}')
    print(f'fit_seconds {seconds:.3f}')
    print(f'extrapolated_seconds_for_M {args.total_sweeps / rate:.3f}')
    print(f'last_sigma {sampler.sigma:.4f}  in_sample_r2 {r2:.4f}  kept_trees {len(kept)}  '
          f'mean_leaves_last_forest {np.mean([len(t.leaves()) for t in sampler.trees]):.2f}')
    print('last_splits ' + ' '.join(f'{c:g}' for c in sampler.counts))
    print('mean_splits ' + ' '.join(f'{c:.2f}' for c in mean_splits))
    print(f'sweeps_per_second {rate:.3f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
