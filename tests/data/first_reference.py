#!/usr/bin/env python3
"""NumPy reference of FIRST [FIRST] for tests/unit/methods/test_first_knn.cpp.

An independent, deliberately plain implementation of
  * T̂(u) — eq. 10 with Appendix C's tie rule: for each outer row m (here all N rows), the Euclidean distances on the
    columns u, the N_I-th smallest of them (row m's own 0 included), every row at or below it, and the sample
    variance (divisor s − 1) of their y's; the mean over m. T̂(∅) = Var̂Y (eq. 14, divisor N − 1).
  * NANNE (Algorithm 1): T̂_ε = T̂(A), Var̂f = max(Var̂Y − T̂_ε, 0); Ŝ_i = max(T̂(A∖i) − T̂_ε, 0) / Var̂f, or all 0
    when Var̂f = 0.
  * NANNE-BE (Algorithm 2): NANNE again on the features with Ŝ > 0 until none is 0 or none is left.
  * FIRST (Algorithm 3): from A = ∅, V̂_∅ = 0, add argmax_i V̂_{A∪i} = Var̂Y − T̂(A∪i) (ties to the lowest index)
    while it is strictly above V̂_A; "fast" (Algorithm S1) also drops, at each step, the candidates with
    V̂_{A∪i} < V̂_A for good. Then NANNE-BE on A; ψ̂ = Ŝ on the kept features, 0 elsewhere.
Columns are standardised first (sd divisor N − 1, a constant column becomes 0).

Ties decide neighbourhoods, so the distances must be the same doubles as banditfs's: sums that feed a distance run
in row order (np.cumsum, not NumPy's pairwise sum) and a squared distance adds the columns of u in ascending order.

Run it to print the 40 x 5 lattice fixture (integer columns with many ties and duplicate rows) and the expected
values as C++ initialisers for the unit test:  /usr/bin/python3 tests/data/first_reference.py
"""
import math

import numpy as np


def sequential_sum(values):
    """Left-to-right sum (what a C++ loop computes), unlike np.sum's pairwise summation."""
    return float(np.cumsum(values)[-1]) if len(values) else 0.0


def standardise(x):
    x = np.array(x, dtype=np.float64, copy=True)
    n = x.shape[0]
    for j in range(x.shape[1]):
        column = x[:, j]
        mean = sequential_sum(column) / n
        squares = sequential_sum((column - mean) * (column - mean))
        sd = math.sqrt(squares / (n - 1)) if n > 1 else 0.0
        x[:, j] = (column - mean) / sd if sd > 0.0 else 0.0
    return x


def sample_variance(values):
    if len(values) < 2:
        return 0.0
    mean = sequential_sum(values) / len(values)
    return sequential_sum((values - mean) * (values - mean)) / (len(values) - 1)


def total_index(x, y, u, inner):
    """T̂(u) over all rows; u is sorted first (the column order of the distance sums)."""
    if not u:
        return sample_variance(y)
    u = sorted(u)
    n = x.shape[0]
    total = 0.0
    for m in range(n):
        squared = np.zeros(n)
        for j in u:
            d = x[:, j] - x[m, j]
            squared = squared + d * d
        distance = np.sqrt(squared)
        radius = np.sort(distance)[inner - 1]
        total += sample_variance(y[distance <= radius])
    return total / n


def nanne(x, y, a, inner):
    var_y = sample_variance(y)
    noise = total_index(x, y, a, inner)
    explained = max(var_y - noise, 0.0)
    if explained == 0.0:
        return [0.0] * len(a), noise
    indices = []
    for i in range(len(a)):
        rest = a[:i] + a[i + 1:]
        indices.append(max(total_index(x, y, rest, inner) - noise, 0.0) / explained)
    return indices, noise


def nanne_backward(x, y, a, inner):
    """Algorithm 2: returns {feature: Ŝ} for the kept features."""
    current = list(a)
    while current:
        indices, _ = nanne(x, y, current, inner)
        kept = [f for f, s in zip(current, indices) if s > 0.0]
        if len(kept) == len(current):
            return dict(zip(current, indices))
        current = kept
    return {}


def forward(x, y, inner, fast=False):
    """Algorithm 3 (or S1 when fast): the forward path and V̂ after each addition."""
    p = x.shape[1]
    var_y = sample_variance(y)
    a, path, explained_path = [], [], []
    candidates = list(range(p))
    explained = 0.0
    while candidates:
        values = [var_y - total_index(x, y, a + [c], inner) for c in candidates]
        best = 0
        for c in range(1, len(candidates)):
            if values[c] > values[best]:
                best = c
        if not values[best] > explained:
            break
        previous, explained = explained, values[best]
        a.append(candidates[best])
        path.append(candidates[best])
        explained_path.append(explained)
        candidates = [f for c, f in enumerate(candidates) if c != best and not (fast and values[c] < previous)]
    return path, explained_path


def first(x, y, inner, fast=False):
    """ψ̂ (p entries) and the forward path."""
    path, explained = forward(x, y, inner, fast)
    kept = nanne_backward(x, y, path, inner)
    psi = [kept.get(j, 0.0) for j in range(x.shape[1])]
    return psi, path, explained


def lattice_fixture():
    """40 x 5 integer columns from a fixed LCG (values 0..3, 0..2, 0..4, 0..1, 0..3) and y = a function of the
    first three plus a quarter-step perturbation: ties on every column, duplicate rows on most subsets."""
    state = 12345
    levels = [4, 3, 5, 2, 4]
    rows = []
    for _ in range(40):
        row = []
        for k in levels:
            state = (1103515245 * state + 12345) % (1 << 31)
            row.append((state >> 16) % k)
        rows.append(row)
    x = np.array(rows, dtype=np.float64)
    y = np.array([2.0 * r[0] + r[1] * r[2] - 0.5 * r[2] + 0.25 * (i % 3) for i, r in enumerate(rows)])
    return x, y


def cpp_array(values, per_line=10):
    items = [repr(float(v)) if not float(v).is_integer() else f"{v:.0f}" for v in values]
    return ",\n".join(", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line))


def g17(v):
    return f"{v:.17g}"


def hand_case():
    x = np.array([[0.0], [0.0], [1.0], [3.0]])
    y = np.array([1.0, 3.0, 2.0, 6.0])
    t = total_index(x, y, [0], 2)
    assert abs(t - 13.0 / 4.0) < 1e-15, t
    assert abs(sample_variance(y) - 14.0 / 3.0) < 1e-15
    return t


def main():
    hand_case()
    raw, y = lattice_fixture()
    x = standardise(raw)
    print("// X (raw, row-major 40 x 5):")
    print(cpp_array(raw.ravel(), 20))
    print("// y:")
    print(cpp_array(y))
    print(f"// Var̂Y = {g17(sample_variance(y))}")
    subsets = [[0], [1], [2], [0, 1], [0, 2], [1, 2], [0, 1, 2], [0, 1, 2, 3, 4], [3, 4]]
    for inner in (2, 3):
        for u in subsets:
            print(f"// N_I = {inner}, T̂({u}) = {g17(total_index(x, y, u, inner))}")
    for inner in (2, 3):
        for fast in (False, True):
            psi, path, explained = first(x, y, inner, fast)
            print(f"// N_I = {inner}, fast = {fast}: forward {path}, V̂ {[g17(v) for v in explained]}")
            print(f"//   psi = {{{', '.join(g17(v) for v in psi)}}}")


if __name__ == "__main__":
    main()
