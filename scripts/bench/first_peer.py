#!/usr/bin/python3
"""The NumPy + scikit-learn peer of banditfs's FIRST (paper 002): the speed baseline of the FIRST benchmark.

The same algorithm as `[method] name = "first"` with N_O = all rows:
  * T̂(u), eq. 10 with Appendix C's tie rule: for every row m, the N_I-th smallest Euclidean distance to it on the
    columns u (its own 0 included) and every row at or below that distance; the mean over m of the sample variance
    (divisor s - 1) of their y's. T̂(∅) = Var̂Y (eq. 14, divisor N - 1). One sklearn KDTree per u: `query` for the
    N_I-th distance, then `query_radius` (boundary included) on that distance widened by 1e-9 relative. Where the
    radius holds exactly N_I rows they are the neighbourhood (vectorised); where it holds more (ties, or rows the
    widening let in), the candidates' distances are recomputed the way banditfs computes them (columns of u added
    in ascending order) and the rows at or below the N_I-th smallest kept -- so ties fall as in banditfs.
  * NANNE (Algorithm 1) and NANNE-BE (Algorithm 2): Var̂f = max(Var̂Y - T̂(A), 0); Ŝ_i = max(T̂(A\\i) - T̂(A), 0) / Var̂f
    (all 0 when Var̂f = 0); rerun on the features with Ŝ > 0 until none is 0 or none is left.
  * FIRST (Algorithm 3; --forward full): from A = ∅, V̂_∅ = 0, add argmax_i V̂_{A∪i} = Var̂Y - T̂(A∪i) (ties to the
    lowest index) while it is strictly above V̂_A; --forward fast (FIRST-FAST, Algorithm S1) also drops, at each step,
    the candidates with V̂_{A∪i} < V̂_A for good. Then NANNE-BE on A; ψ̂ = Ŝ on the kept features, 0 elsewhere.
Columns are standardised (sd divisor N - 1, a constant column becomes 0; sums in row order, as banditfs) unless
--no-standardize. X is rounded to float32 first, as banditfs stores it, so both tools see the same numbers.
N_I defaults to banditfs's: 3 when y has two values, else 2.

Input: a CSV with a header row; y is the last column or --target NAME; every other column is a feature. (A .h5 file
in banditfs's schema, /X /y /feature_names, is read with h5py instead, e.g. straight from `banditfs simulate`.)
Output (stdout, JSON): psi, selected, the forward path and its V̂, var_y, N_I, seconds (the algorithm, from
standardising to ψ̂) and read_seconds. E.g.

  build/banditfs simulate friedman1 --n 2000 --p 10 --seed 1 --out /tmp/f1.h5
  /usr/bin/python3 scripts/bench/first_peer.py /tmp/f1.h5 --forward full
  /usr/bin/python3 scripts/bench/first_peer.py data.csv --target y --forward fast
Needs Debian's python3-numpy and python3-sklearn, i.e. /usr/bin/python3.
"""
import argparse
import csv
import json
import math
import sys
import time

import numpy as np
from sklearn.neighbors import KDTree

RADIUS_SLACK = 1e-9


def read_h5(path):
    import h5py

    with h5py.File(path, "r") as f:
        names = [n.decode() if isinstance(n, bytes) else str(n) for n in f["feature_names"][()]]
        return f["X"][()].astype(np.float32).astype(np.float64), f["y"][()].astype(np.float64), names


def read_csv(path, target):
    if path.endswith((".h5", ".hdf5")):
        return read_h5(path)
    with open(path, newline="") as handle:
        header = next(csv.reader(handle))
    header = [h.strip() for h in header]
    values = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64, ndmin=2)
    column = len(header) - 1 if target is None else header.index(target)
    features = [j for j in range(len(header)) if j != column]
    x = values[:, features].astype(np.float32).astype(np.float64)
    return x, values[:, column].copy(), [header[j] for j in features]


def sequential_sum(values):
    """Left-to-right sum, as banditfs's loops (np.sum is pairwise)."""
    return float(np.cumsum(values)[-1]) if len(values) else 0.0


def standardise(x):
    n = x.shape[0]
    for j in range(x.shape[1]):
        column = x[:, j]
        mean = sequential_sum(column) / n
        squares = sequential_sum((column - mean) * (column - mean))
        sd = math.sqrt(squares / (n - 1)) if n > 1 else 0.0
        x[:, j] = (column - mean) / sd if sd > 0.0 else 0.0
    return x


def sample_variance(values):
    return float(np.var(values, ddof=1)) if len(values) > 1 else 0.0


class Estimator:
    """T̂(u) on fixed data; counts the estimates."""

    def __init__(self, x, y, inner):
        self.x, self.y, self.inner = x, y, inner
        self.var_y = sample_variance(y)
        self.calls = 0

    def __call__(self, u):
        if not u:
            return self.var_y
        self.calls += 1
        xu = np.ascontiguousarray(self.x[:, sorted(u)])
        tree = KDTree(xu)
        distance, nearest = tree.query(xu, k=self.inner)
        reach = distance[:, -1] * (1.0 + RADIUS_SLACK)
        counts = tree.query_radius(xu, reach, count_only=True)
        variances = np.empty(xu.shape[0])
        exact = counts == self.inner
        variances[exact] = np.var(self.y[nearest[exact]], axis=1, ddof=1)
        tied = np.flatnonzero(~exact)
        if tied.size:
            for m, rows in zip(tied, tree.query_radius(xu[tied], reach[tied])):
                variances[m] = self._tied(xu, m, np.sort(rows))
        return float(np.mean(variances))

    def _tied(self, xu, m, rows):
        squared = np.zeros(rows.size)
        for j in range(xu.shape[1]):
            d = xu[rows, j] - xu[m, j]
            squared = squared + d * d
        distance = np.sqrt(squared)
        radius = np.partition(distance, self.inner - 1)[self.inner - 1]
        return sample_variance(self.y[rows[distance <= radius]])


def nanne(t, a):
    noise = t(a)
    explained = max(t.var_y - noise, 0.0)
    if explained == 0.0:
        return [0.0] * len(a)
    return [max(t(a[:i] + a[i + 1:]) - noise, 0.0) / explained for i in range(len(a))]


def nanne_backward(t, a):
    current = list(a)
    while current:
        indices = nanne(t, current)
        kept = [f for f, s in zip(current, indices) if s > 0.0]
        if len(kept) == len(current):
            return dict(zip(current, indices))
        current = kept
    return {}


def forward(t, p, fast):
    a, explained_path = [], []
    candidates = list(range(p))
    explained = 0.0
    while candidates:
        values = [t.var_y - t(a + [c]) for c in candidates]
        best = 0
        for c in range(1, len(candidates)):
            if values[c] > values[best]:
                best = c
        if not values[best] > explained:
            break
        previous, explained = explained, values[best]
        a.append(candidates[best])
        explained_path.append(explained)
        candidates = [f for c, f in enumerate(candidates) if c != best and not (fast and values[c] < previous)]
    return a, explained_path


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("csv", help="CSV with a header row (or a banditfs .h5)")
    parser.add_argument("--target", help="the CSV's y column (default: the last column)")
    parser.add_argument("--forward", choices=["full", "fast"], default="full", help="Algorithm 3 or FIRST-FAST (S1)")
    parser.add_argument("--inner", type=int, default=0, help="N_I (0 = 3 for binary y, else 2)")
    parser.add_argument("--no-standardize", action="store_true", help="use the columns as they are")
    args = parser.parse_args()

    start = time.perf_counter()
    x, y, names = read_csv(args.csv, args.target)
    read_seconds = time.perf_counter() - start
    start = time.perf_counter()
    inner = args.inner if args.inner > 0 else (3 if len(np.unique(y)) == 2 else 2)
    if inner >= x.shape[0]:
        sys.exit(f"first_peer: N_I = {inner} needs more rows than the {x.shape[0]} of {args.csv}")
    if not args.no_standardize:
        standardise(x)
    t = Estimator(x, y, inner)
    path, explained = forward(t, x.shape[1], args.forward == "fast")
    kept = nanne_backward(t, path)
    psi = [kept.get(j, 0.0) for j in range(x.shape[1])]
    seconds = time.perf_counter() - start
    json.dump({"method": "first", "peer": "numpy+sklearn KDTree", "forward_mode": args.forward, "N_I": inner,
               "n": int(x.shape[0]), "p": int(x.shape[1]), "var_y": t.var_y, "feature_names": names, "psi": psi,
               "selected": [j for j in range(len(psi)) if psi[j] > 0.0], "forward": path,
               "forward_explained": explained, "estimates": t.calls, "seconds": seconds,
               "read_seconds": read_seconds}, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
