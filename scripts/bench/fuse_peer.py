#!/usr/bin/python3
"""The speed peer (docs/fuse.md, "Speed against the Python peer"): FUSE ([FUSE] §3-6, Algorithm 1) in plain Python +
NumPy + scikit-learn, the speed baseline for banditfs's `[method] name = "fuse"` (src/methods/fuse/). Speed only: it is
not a reference for banditfs's numbers.

The same algorithm as banditfs with method.batch = 1 (the paper's sequential FUSE):
  * the tree (tree.hpp): one node per subset reached (a tree, no transpositions); actions are the features not in F
    and the stopping feature f_s (index p here too); per node T_F and ℓ-RAVE_{F,f} (f ∉ F, and f_s for the
    iterations that stopped at F, i.e. §5.2's per-level stopping feature); per action t_{F,f}, μ̂_{F,f}, σ̂²_{F,f}
    (Welford, divisor t); g-RAVE_f (eq. 6) and g-RAVE_{f_s^{(d)}} per final size d (eq. 8); unseen features score 0.
    The node an iteration adds gets T_F and ℓ-RAVE but no action statistics (the random phase is outside the tree).
  * a descent (selection.cpp): at a visited node (T_F > 0) --heuristic discrete widens the node to
    min(⌊T_F^{1/b}⌋, p - |F| + 1) children, each new child the argmax of (1-β)·ℓ-RAVE_{F,f} + β·g-RAVE_f over the
    actions not yet children (f_s included, with its level's RAVE; β = c_l/(c_l + t_l), 0 when c_l = 0), then takes
    the first untried child in the order added, else the argmax of UCB1-tuned (eq. 5); --heuristic continuous takes
    the argmax of eq. 9 over every action (features not in F and f_s), an untried action scoring its RAVE term
    (+inf when c = 0), α = c/(c + t_{F,f}) (0 when c = 0). f_s ends the walk. At an unvisited node (the node the
    iteration adds) the random phase: while u < q^{|F|}, add a uniformly drawn feature not in F (§6.2).
  * the reward (reward.cpp): L = the training rows (the first --rows rows), each column centred and scaled by its sd
    (divisor rows - 1; a constant column becomes 0), as §7.1; per iteration a fresh stratified subsample 𝒱 of
    --subsample rows of L (round(m·n₊/n) positives, at least one of each class, without replacement); s_F(z) = the
    positives among the k nearest neighbours of z in L∖{z} (leave-one-out), Euclidean on the columns F; V(F) = the
    AUC of s_F on 𝒱 with ties ½ (eq. 11, footnote 1); V(∅) = ½. Then T_F, t, μ̂, σ̂², ℓ-RAVE along the path and at the
    added node, and g-RAVE, are backed up.
  * every argmax breaks exact ties with a uniform draw.

What differs (so runs are NOT bit-identical to banditfs, and need not be):
  * the random streams: Python's random.Random(seed) for the descents and NumPy's default_rng for the subsamples,
    not banditfs's per-iteration streams;
  * the kNN is scikit-learn's NearestNeighbors (--algorithm, default "brute": on madelon-like at 2080 rows it was
    about 15% faster per iteration than sklearn's "auto", which takes a k-d tree for |F| <= 15), fitted on L[:, F]
    and queried with n_neighbors = k + 1; the row itself is dropped wherever it appears among the
    k + 1 (an exact duplicate may come first), and when it does not appear (more than k rows tied at distance 0
    with it) the (k+1)-th is dropped. Distance ties are broken by sklearn's order, not banditfs's lower-row rule;
    with continuous data they practically never occur;
  * the per-feature g-RAVE and the widening / eq. 9 score vectors are NumPy arrays (one vectorised argmax over the
    p + 1 actions instead of banditfs's loop); the nodes, actions and ℓ-RAVE (dicts) are plain Python objects;
  * no batch (B = 1 only), no checkpoints, no result file.

Usage (one thread: OMP/OpenBLAS/MKL threads are set to 1 below, before NumPy is imported):
  build/banditfs simulate madelon-like --seed 1 --out /tmp/peer/mad.h5
  /usr/bin/python3 scripts/bench/fuse_peer.py --data /tmp/peer/mad.h5 --rows 2080 --iterations 2000
Prints one line per run,
  fuse_peer: p=500 rows=2080 iterations=2000 seconds=... iterations_per_s=... mean_final_size=...
(iterations and seconds are the timed ones: --warmup further iterations run first, untimed, on the same tree;
mean_final_size is over the timed iterations' final sets), a detail line (reward vs tree time, tree nodes), and the
g-RAVE top 20 (FUSE^R's ranking: g-RAVE, then more final sets, then lower index), truth columns marked when the file
has /truth. The rate depends on where the search is (a reward costs about |𝒱|·|L|·|F|, and the early final sets are
the random phase's, ~40 features at q = 0.999, the later ones shorter), so compare banditfs at the same iterations
and rows, and compare the final sizes too. Needs Debian's python3-numpy, python3-sklearn and python3-h5py, i.e. /usr/bin/python3.
"""
import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"

import argparse  # noqa: E402
import math  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402
from sklearn.neighbors import NearestNeighbors  # noqa: E402


# ---------------------------------------------------------------------------------------------------------------
# Data and reward


def read_h5(path, rows):
    with h5py.File(path, "r") as f:
        x = f["X"][()]
        y = f["y"][()]
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["feature_names"][()]]
        truth = np.sort(f["truth"][()].astype(int)) if "truth" in f else None
    if rows is not None:
        x, y = x[:rows], y[:rows]
    # banditfs stores X as float32 and computes in double.
    return x.astype(np.float32).astype(np.float64), (y > 0.5).astype(np.int64), names, truth


def standardise(x):
    n = x.shape[0]
    mean = x.mean(axis=0)
    sd = np.sqrt(((x - mean) ** 2).sum(axis=0) / (n - 1)) if n > 1 else np.zeros(x.shape[1])
    out = np.zeros_like(x)
    ok = sd > 0
    out[:, ok] = (x[:, ok] - mean[ok]) / sd[ok]
    return out


def auc(scores, labels, k):
    """Eq. 11 with footnote 1 (ties ½) for integer scores 0..k; ½ when a class is absent."""
    pos = np.bincount(scores[labels == 1], minlength=k + 1)
    neg = np.bincount(scores[labels == 0], minlength=k + 1)
    n_pos, n_neg = int(pos.sum()), int(neg.sum())
    if n_pos == 0 or n_neg == 0:
        return 0.5
    below = np.cumsum(neg) - neg
    return float((pos * (below + 0.5 * neg)).sum()) / (n_pos * n_neg)


class Reward:
    def __init__(self, x, y, k, subsample, seed, algorithm):
        self.x_cols = np.asfortranarray(x)  # column gathers stay contiguous
        self.y = y
        self.k = k
        self.m = subsample
        self.algorithm = algorithm
        self.positives = np.flatnonzero(y == 1)
        self.negatives = np.flatnonzero(y == 0)
        self.rng = np.random.default_rng([seed, 1])

    def subsample(self):
        """Stratified, as reward.cpp's stratified_subsample: round(m·n₊/n) positives, >= 1 of each class."""
        n = len(self.y)
        m = self.m
        n_pos, n_neg = len(self.positives), len(self.negatives)
        m_pos = int(math.floor(n_pos / n * m + 0.5)) if n else 0
        if m >= 2 and n_pos > 0 and n_neg > 0:
            m_pos = min(max(m_pos, 1), m - 1)
        m_pos = min(max(m_pos, m - min(m, n_neg)), min(m, n_pos))
        chosen = np.concatenate([self.rng.choice(self.positives, m_pos, replace=False),
                                 self.rng.choice(self.negatives, m - m_pos, replace=False)])
        chosen.sort()
        return chosen

    def value(self, features):
        validation = self.subsample()  # drawn even for F = ∅, as banditfs draws one per iteration
        if not features:
            return 0.5
        cols = sorted(features)
        xf = np.ascontiguousarray(self.x_cols[:, cols])
        k = self.k
        nn = NearestNeighbors(n_neighbors=k + 1, algorithm=self.algorithm).fit(xf)
        ind = nn.kneighbors(xf[validation], return_distance=False)
        # Leave-one-out: drop z wherever it sits among the k + 1 (a duplicate row may precede it); where it is absent
        # (more than k rows at distance 0 from it) drop the (k+1)-th instead.
        keep = ind != validation[:, None]
        absent = keep.all(axis=1)
        keep[absent, k] = False
        neighbours = ind[keep].reshape(len(validation), k)
        scores = self.y[neighbours].sum(axis=1)
        return auc(scores, self.y[validation], k)


# ---------------------------------------------------------------------------------------------------------------
# Tree


class Action:
    __slots__ = ("feature", "child", "visits", "mean", "m2")

    def __init__(self, feature, child):
        self.feature = feature
        self.child = child  # a Node, or None for f_s
        self.visits = 0
        self.mean = 0.0
        self.m2 = 0.0

    def variance(self):
        return self.m2 / self.visits if self.visits > 0 else 0.0


class Node:
    __slots__ = ("depth", "visits", "actions", "by_feature", "rave")

    def __init__(self, depth):
        self.depth = depth  # |F|
        self.visits = 0  # T_F
        self.actions = []  # in the order added
        self.by_feature = {}  # feature -> Action
        self.rave = {}  # ℓ-RAVE: feature (or p for f_s) -> [count, sum]


def widening_limit(visits, b):
    """⌊T^{1/b}⌋, exact at perfect powers."""
    if visits <= 0:
        return 0
    m = int(math.floor(visits ** (1.0 / b)))
    while m > 0 and m ** b > visits:
        m -= 1
    while (m + 1) ** b <= visits:
        m += 1
    return m


def exploration(variance, parent_visits, visits, c_e):
    log_t = math.log(parent_visits)
    tuned = min(0.25, variance + math.sqrt(2.0 * log_t / visits))
    return math.sqrt(c_e * log_t / visits * tuned)


class Fuse:
    def __init__(self, p, args, rng):
        self.p = p
        self.heuristic = args.heuristic
        self.b = args.widening_b
        self.q = args.q
        self.c_e = args.c_e
        self.c = args.c
        self.c_l = args.c_l
        self.rng = rng
        self.root = Node(0)
        self.nodes = 1
        self.grave_sum = np.zeros(p)
        self.grave_count = np.zeros(p, dtype=np.int64)
        self.stop_sum = [0.0] * (p + 1)
        self.stop_count = [0] * (p + 1)

    # -- RAVE scores ---------------------------------------------------------------------------------------------

    def rave_scores(self, node):
        """(1-β)·ℓ-RAVE_{F,f} + β·g-RAVE_f for f = 0..p (p = f_s at level |F|), as one vector."""
        p, c_l = self.p, self.c_l
        scores = np.zeros(p + 1)
        if c_l > 0.0:  # β = 1 wherever t_l = 0
            np.divide(self.grave_sum, self.grave_count, out=scores[:p], where=self.grave_count > 0)
            d = node.depth
            scores[p] = self.stop_sum[d] / self.stop_count[d] if self.stop_count[d] > 0 else 0.0
        for f, (t_l, total) in node.rave.items():
            beta = c_l / (c_l + t_l) if c_l > 0.0 else 0.0
            scores[f] = (1.0 - beta) * (total / t_l) + beta * scores[f]
        return scores

    def pick(self, scores):
        """Argmax with a uniform draw among exact ties."""
        best = scores.max()
        ties = np.flatnonzero(scores == best)
        return int(ties[0]) if len(ties) == 1 else int(ties[self.rng.randrange(len(ties))])

    def add_action(self, node, feature):
        child = Node(node.depth + 1) if feature != self.p else None
        if child is not None:
            self.nodes += 1
        action = Action(feature, child)
        node.actions.append(action)
        node.by_feature[feature] = action
        return action

    # -- selection -------------------------------------------------------------------------------------------------

    def widen(self, node, in_set):
        target = min(widening_limit(node.visits, self.b), self.p - node.depth + 1)
        if len(node.actions) >= target:
            return
        scores = self.rave_scores(node)
        scores[list(in_set)] = -np.inf
        for a in node.actions:
            scores[a.feature] = -np.inf
        while len(node.actions) < target:
            f = self.pick(scores)
            scores[f] = -np.inf
            self.add_action(node, f)

    def select_discrete(self, node, in_set):
        self.widen(node, in_set)
        parent_visits = float(node.visits)
        best, best_score, ties = None, -math.inf, 0
        for a in node.actions:
            if a.visits == 0:
                return a  # untried first, in the order widening added them
            score = a.mean + exploration(a.variance(), parent_visits, float(a.visits), self.c_e)
            if best is None or score > best_score:
                best, best_score, ties = a, score, 1
            elif score == best_score:
                ties += 1
                if self.rng.randrange(ties) == 0:
                    best = a
        return best

    def select_continuous(self, node, in_set):
        scores = self.rave_scores(node)  # an untried action's score (c > 0)
        if self.c <= 0.0:
            scores[:] = np.inf
        scores[list(in_set)] = -np.inf
        parent_visits = float(node.visits)
        for a in node.actions:
            alpha = self.c / (self.c + a.visits) if self.c > 0.0 else 0.0
            rave = scores[a.feature] if self.c > 0.0 else 0.0
            scores[a.feature] = ((1.0 - alpha) * a.mean + alpha * rave +
                                 exploration(a.variance(), parent_visits, float(a.visits), self.c_e))
        f = self.pick(scores)
        action = node.by_feature.get(f)
        return action if action is not None else self.add_action(node, f)

    def random_phase(self, features, in_set):
        p, q, rng = self.p, self.q, self.rng
        while len(features) < p and rng.random() < q ** len(features):
            f = rng.randrange(p)
            while f in in_set:  # uniform over the features not in F
                f = rng.randrange(p)
            in_set.add(f)
            features.append(f)

    def descend(self):
        node = self.root
        steps, features, in_set = [], [], set()
        select = self.select_discrete if self.heuristic == "discrete" else self.select_continuous
        while True:
            if node.visits == 0:
                self.random_phase(features, in_set)
                return steps, node, features
            action = select(node, in_set)
            steps.append((node, action))
            if action.feature == self.p:
                return steps, None, features
            features.append(action.feature)
            in_set.add(action.feature)
            node = action.child

    # -- backup ----------------------------------------------------------------------------------------------------

    def backup(self, steps, leaf, features, v):
        size = len(features)
        p = self.p

        def update_node(node):
            node.visits += 1
            rave = node.rave
            # ℓ-RAVE of the final set's features below this node, and of f_s (index p) where the set stopped.
            keys = features[node.depth:] + [p] if node.depth == size else features[node.depth:]
            for f in keys:
                entry = rave.get(f)
                if entry is None:
                    rave[f] = [1, v]
                else:
                    entry[0] += 1
                    entry[1] += v

        for node, a in steps:
            update_node(node)
            a.visits += 1
            delta = v - a.mean
            a.mean += delta / a.visits
            a.m2 += delta * (v - a.mean)
        if leaf is not None:
            update_node(leaf)
        if features:
            idx = np.asarray(features)
            self.grave_sum[idx] += v
            self.grave_count[idx] += 1
        self.stop_sum[size] += v
        self.stop_count[size] += 1

    def ranking(self):
        mean = np.divide(self.grave_sum, self.grave_count, out=np.zeros(self.p), where=self.grave_count > 0)
        seen = self.grave_count > 0
        # lexsort: last key first -> unseen last, then g-RAVE desc, count desc, index asc
        return np.lexsort((np.arange(self.p), -self.grave_count, -mean, ~seen)), mean


# ---------------------------------------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", required=True, help="banditfs HDF5 data file (/X, /y, /feature_names[, /truth])")
    ap.add_argument("--rows", type=int, default=None, help="use the first N rows as L (default all)")
    ap.add_argument("--iterations", type=int, default=2000, help="timed iterations")
    ap.add_argument("--warmup", type=int, default=0, help="untimed iterations run first on the same tree")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--q", type=float, default=0.999)
    ap.add_argument("--c-e", type=float, default=1.0, help="banditfs's default (docs/fuse.md's sweep)")
    ap.add_argument("--c", type=float, default=100.0)
    ap.add_argument("--c-l", type=float, default=100.0)
    ap.add_argument("--widening-b", type=float, default=2.0)
    ap.add_argument("--heuristic", choices=("discrete", "continuous"), default="discrete")
    ap.add_argument("--subsample", type=int, default=100, help="|V|: validation rows per reward")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--algorithm", default="brute", choices=("auto", "kd_tree", "ball_tree", "brute"),
                    help="sklearn NearestNeighbors algorithm")
    ap.add_argument("--top", type=int, default=20, help="g-RAVE features printed")
    args = ap.parse_args()

    x, y, names, truth = read_h5(args.data, args.rows)
    n, p = x.shape
    if not 1 <= args.k < n:
        sys.exit(f"--k {args.k} needs more than {args.k} rows (have {n})")
    if not 2 <= args.subsample <= n:
        sys.exit(f"--subsample {args.subsample} must be in [2, {n}]")
    x = standardise(x)
    reward = Reward(x, y, args.k, args.subsample, args.seed, args.algorithm)
    fuse = Fuse(p, args, random.Random(args.seed))

    for _ in range(args.warmup):
        steps, leaf, features = fuse.descend()
        fuse.backup(steps, leaf, features, reward.value(features))

    sizes = []
    reward_seconds = 0.0
    start = time.perf_counter()
    for _ in range(args.iterations):
        steps, leaf, features = fuse.descend()
        t0 = time.perf_counter()
        v = reward.value(features)
        reward_seconds += time.perf_counter() - t0
        fuse.backup(steps, leaf, features, v)
        sizes.append(len(features))
    seconds = time.perf_counter() - start

    rate = args.iterations / seconds if seconds > 0 else float("inf")
    mean_size = float(np.mean(sizes)) if sizes else 0.0
    print(f"fuse_peer: p={p} rows={n} iterations={args.iterations} seconds={seconds:.3f} "
          f"iterations_per_s={rate:.2f} mean_final_size={mean_size:.2f}")
    print(f"fuse_peer_detail: heuristic={args.heuristic} warmup={args.warmup} reward_seconds={reward_seconds:.3f} "
          f"tree_seconds={seconds - reward_seconds:.3f} tree_nodes={fuse.nodes} "
          f"median_final_size={float(np.median(sizes)) if sizes else 0.0:.1f} max_final_size={max(sizes, default=0)}")

    order, mean = fuse.ranking()
    truth_set = set(truth.tolist()) if truth is not None else set()
    top = [int(f) for f in order[:args.top] if fuse.grave_count[f] > 0]
    hits = sum(1 for f in top if f in truth_set)
    header = f"g-RAVE top {len(top)}" + (f" ({hits} of {len(truth_set)} truth columns)" if truth is not None else "")
    print(header + ":")
    for r, f in enumerate(top, 1):
        mark = " *truth" if f in truth_set else ""
        print(f"  {r:2d} {names[f]:>8s} g-RAVE={mean[f]:.4f} count={int(fuse.grave_count[f])}{mark}")


if __name__ == "__main__":
    main()
