#!/usr/bin/python3
"""Ground-truth factor importance psi* of paper 002's simulation designs (FIRST, Huang & Joseph, section 5).

psi*_i is the total Sobol' index S_i^tot = T_i / Var[f(X)] (paper 002 eqs. 7-9; theorem 1: psi_i = S_i^tot under
R^2), computed as section 5 "Groundtruth Factor Importance" says: by the double Monte Carlo estimator (eq. 9) with
N_I = 2 inner draws (the Jansen form) and N_O = 100000 outer draws, measured relative only to the variables of the
true model (section 4): X_i is redrawn from X_i | X_{u \\ i}, u the design's true set, never conditioning on the
p - |u| unused columns, and psi*_j = 0 for j outside u. The conditional draw follows section 5: z_j = Phi^{-1}(G_j(x_j)),
Z_i | Z_{u \\ i} is Gaussian (Sigma_jk = rho^|j-k| on the original indices, so x1 and x7 of friedman-mod have
correlation rho^6 on the normal scale), and X_i = G_i^{-1}(Phi(Z_i)). Var[f(X)] is the plain Monte Carlo variance
of f over N_O further joint draws.

The mean functions re-implement src/simulate/dgp.cpp (banditfs simulate) in numpy:
  ishigami         eq. 16, x on [0, 1]:   sin(2 pi x1 - pi) + 7 sin^2(2 pi x2 - pi) + 0.1 (2 pi x3 - pi)^4 sin(2 pi x1 - pi)
  heavy-tailed     eq. 17, x on [0, 1]:   2 log(x1^2 + x2^4) / (cos x1 + sin x3) + x2^2 exp(x3) / sqrt(1.1 - x6)
  friedman-mod     eq. 18, x on [0, 1]:   10 sin(pi x1 x7) + 20 (x8 - 0.5)^2 + 10 x9 + 5 x10 - 20 x9 x10 - 10
  ishigami-classic section 3.3, x ~ U[-pi, pi]^3 independent (no rho): sin x1 + 7 sin^2 x2 + 0.1 x3^4 sin x1
The first three draw x from the Gaussian copula with uniform [0, 1] marginals (section 5, "Data Generation Mechanism").

  scripts/bench/first_truth.py DESIGN [--p P] [--rho R] [--n-outer 100000] [--n-inner 2] [--seed 1]
  scripts/bench/first_truth.py --self-test     (f at the C++ unit test's points; the Ishigami's analytic indices)

prints one JSON object: the design, p, rho, N_O, N_I, seed, the true set (1-based), Var f, and per feature (x1..xp)
psi (= S^tot), its Monte Carlo standard error, and psi normalised to sum to one (paper 002 figure 2's display).
"""
import argparse
import json
import math
import sys

import numpy as np
from scipy.special import ndtr  # Phi

PI = math.pi
# The true sets, 0-based as banditfs writes /truth (dgp_truth in src/simulate/dgp.hpp).
TRUTH = {
    "ishigami": [0, 1, 2],
    "heavy-tailed": [0, 1, 2, 5],
    "friedman-mod": [0, 6, 7, 8, 9],
    "ishigami-classic": [0, 1, 2],
}
COPULA = {"ishigami", "heavy-tailed", "friedman-mod"}  # the designs that take rho


def ishigami(a, b, c):
    return np.sin(a) + 7.0 * np.sin(b) ** 2 + 0.1 * c**4 * np.sin(a)


def mean_function(design, x):
    """f of `design` for the rows of x (columns x1.. as in the data set; 0-based indexing here)."""
    if design == "ishigami":  # eq. 16
        return ishigami(2 * PI * x[:, 0] - PI, 2 * PI * x[:, 1] - PI, 2 * PI * x[:, 2] - PI)
    if design == "ishigami-classic":  # section 3.3
        return ishigami(x[:, 0], x[:, 1], x[:, 2])
    if design == "heavy-tailed":  # eq. 17
        x1, x2, x3, x6 = x[:, 0], x[:, 1], x[:, 2], x[:, 5]
        with np.errstate(divide="ignore"):  # log 0 at x1 = x2 = 0 only, a null set
            return 2 * np.log(x1**2 + x2**4) / (np.cos(x1) + np.sin(x3)) + x2**2 * np.exp(x3) / np.sqrt(1.1 - x6)
    if design == "friedman-mod":  # eq. 18
        x1, x7, x8, x9, x10 = x[:, 0], x[:, 6], x[:, 7], x[:, 8], x[:, 9]
        return 10 * np.sin(PI * x1 * x7) + 20 * (x8 - 0.5) ** 2 + 10 * x9 + 5 * x10 - 20 * x9 * x10 - 10
    raise ValueError(design)


def to_x(design, z):
    """G^{-1}(Phi(z)): uniform [0, 1] marginals (section 5), or U[-pi, pi] for the classic Ishigami (section 3.3)."""
    u = ndtr(z)
    return 2 * PI * u - PI if design == "ishigami-classic" else u


def embed(design, xu, truth):
    """Rows of the design's columns u placed into x1..x_{max u + 1}; the unused columns get 0.5 (f ignores them)."""
    x = np.full((xu.shape[0], truth[-1] + 1), 0.5)
    x[:, truth] = xu
    return x


def total_indices(design, rho, n_outer, n_inner, rng):
    truth = TRUTH[design]
    k = len(truth)
    idx = np.asarray(truth, dtype=float)
    sigma = rho ** np.abs(idx[:, None] - idx[None, :])  # Sigma restricted to the true set
    chol = np.linalg.cholesky(sigma)
    z_joint = rng.standard_normal((n_outer, k)) @ chol.T
    f_joint = mean_function(design, embed(design, to_x(design, z_joint), truth))
    var_f = float(np.var(f_joint, ddof=1))
    T, se = np.zeros(k), np.zeros(k)
    for a in range(k):
        rest = [b for b in range(k) if b != a]
        # Z_a | Z_rest: mean s_ar S_rr^{-1} z_rest, variance s_aa - s_ar S_rr^{-1} s_ra (section 5).
        w = np.linalg.solve(sigma[np.ix_(rest, rest)], sigma[rest, a])
        cond_sd = math.sqrt(max(sigma[a, a] - sigma[a, rest] @ w, 0.0))
        z = rng.standard_normal((n_outer, k)) @ chol.T  # outer draws of Z_rest (column a is replaced below)
        cond_mean = z[:, rest] @ w
        inner = np.empty((n_outer, n_inner))
        for j in range(n_inner):
            z[:, a] = cond_mean + cond_sd * rng.standard_normal(n_outer)
            inner[:, j] = mean_function(design, embed(design, to_x(design, z), truth))
        terms = np.var(inner, axis=1, ddof=1)  # eq. 9's inner sum / (N_I - 1)
        T[a], se[a] = terms.mean(), terms.std(ddof=1) / math.sqrt(n_outer)
    return truth, var_f, T / var_f, se / var_f


def self_test():
    """The C++ unit test's hand-computed points (tests/unit/simulate/test_first_designs.cpp) and the Ishigami's
    analytic total indices (a = 7, b = 0.1, independent inputs)."""
    pts = [
        ("ishigami", [0.5, 0.5, 0.5], 0.0),
        ("ishigami", [0.75, 0.75, 1.0], 8.0 + 0.1 * PI**4),
        ("ishigami", [0.25, 0.25, 0.0], 6.0 - 0.1 * PI**4),
        ("ishigami-classic", [1.0, 2.0, 0.5, 99.0], math.sin(1) + 7 * math.sin(2) ** 2 + 0.00625 * math.sin(1)),
        ("heavy-tailed", [1, 1, 0, 99, -99, 0.5], 2 * math.log(2) / math.cos(1) + 1 / math.sqrt(0.6)),
        ("friedman-mod", [0.5] * 10, 10 * math.sin(PI / 4) - 7.5),
        ("friedman-mod", [1, 9, 9, 9, 9, 9, 0.5, 1, 1, 1], 0.0),
        ("friedman-mod", [0] * 9 + [1], 0.0),
    ]
    for design, x, want in pts:
        got = float(mean_function(design, np.asarray([x], dtype=float))[0])
        assert abs(got - want) < 1e-12 * max(1.0, abs(want)), (design, x, got, want)
    a, b = 7.0, 0.1
    v1, v2, v13 = 0.5 * (1 + b * PI**4 / 5) ** 2, a**2 / 8, b**2 * PI**8 * (1 / 18 - 1 / 50)
    v = v1 + v2 + v13
    exact = [(v1 + v13) / v, v2 / v, v13 / v]  # 0.5576, 0.4424, 0.2437
    for design in ("ishigami", "ishigami-classic"):
        _, _, psi, se = total_indices(design, 0.0, 200000, 2, np.random.default_rng(7))
        for i in range(3):
            assert abs(psi[i] - exact[i]) < 5 * se[i] + 0.01, (design, i, psi[i], exact[i], se[i])
    print(json.dumps({"self_test": "ok", "ishigami_exact_total_indices": [round(e, 4) for e in exact]}))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("design", nargs="?", choices=sorted(TRUTH))
    ap.add_argument("--p", type=int, help="features in the data set (default: the largest true index)")
    ap.add_argument("--rho", type=float, default=None, help="copula correlation in [0, 1) (default 0)")
    ap.add_argument("--n-outer", type=int, default=100000, help="N_O outer draws (paper: 100000)")
    ap.add_argument("--n-inner", type=int, default=2, help="N_I inner draws (paper: 2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        self_test()
        return
    if args.design is None:
        ap.error("a design is required (or --self-test)")
    truth_need = TRUTH[args.design][-1] + 1
    p = truth_need if args.p is None else args.p
    if p < truth_need:
        ap.error(f"--p {p} is below the {truth_need} features {args.design} needs")
    if args.rho is not None and args.design not in COPULA:
        ap.error(f"--rho does not apply to {args.design}")
    rho = 0.0 if args.rho is None else args.rho
    if not (math.isfinite(rho) and 0.0 <= rho < 1.0):
        ap.error(f"--rho {rho} must be a finite number in [0, 1)")
    if args.n_outer < 2 or args.n_inner < 2:
        ap.error("--n-outer and --n-inner must be at least 2")
    truth, var_f, psi_u, se_u = total_indices(args.design, rho, args.n_outer, args.n_inner,
                                              np.random.default_rng(args.seed))
    psi, se = np.zeros(p), np.zeros(p)
    psi[truth], se[truth] = psi_u, se_u
    out = {
        "design": args.design, "p": p, "rho": rho, "n_outer": args.n_outer, "n_inner": args.n_inner,
        "seed": args.seed, "truth": [t + 1 for t in truth], "var_f": var_f,
        "features": [f"x{j + 1}" for j in range(p)],
        "psi": [round(float(v), 6) for v in psi],
        "psi_se": [round(float(v), 6) for v in se],
        "psi_sum1": [round(float(v), 6) for v in psi / psi.sum()],
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
