#!/usr/bin/python3
"""Fixtures for the binary lasso (tests/unit/estimators_linear/test_binary.cpp): scikit-learn's L1-penalised
logistic regression at the penalties the test fits.

Our objective on columns standardised by their mean and population sd (ddof = 0), intercept unpenalised:
    -(1/n) sum_i loglik_i + lam * ||beta||_1
scikit-learn's LogisticRegression(penalty='l1') minimises ||w||_1 + C * sum_i logloss_i; dividing by n*C shows the two
agree when C = 1/(n*lam). sklearn is fitted on the pre-standardised columns with fit_intercept=True and the saga
solver (which, unlike liblinear, does not penalise the intercept), so its coefficients are on the standardised scale.
The script checks the KKT conditions of each solution and refuses to write fixtures that miss them by > 1e-8.

Run from the repository root:  /usr/bin/python3 tests/data/make_linear_classification_fixtures.py
Writes tests/data/classification/linear_logistic_train.csv (x0..x7, y; x as float32, shortest round-trip text) and
tests/data/classification/linear_logistic_sklearn.csv (lambda, C, intercept, coef0..coef7 on the standardised scale).
"""
import os

import numpy as np
from sklearn.linear_model import LogisticRegression

N, P = 300, 8
LAMBDAS = [0.004, 0.015, 0.04]
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "classification")


def simulate():
    rng = np.random.default_rng(20240611)
    means = np.linspace(-2.0, 5.0, P)
    scales = np.array([1.0, 0.3, 4.0, 2.0, 0.7, 10.0, 1.5, 0.05])
    X = (means + scales * rng.standard_normal((N, P))).astype(np.float32)
    z = (X.astype(np.float64) - means) / scales
    eta = 0.3 + 1.5 * z[:, 0] - 1.0 * z[:, 2] + 0.6 * z[:, 5]
    y = (rng.uniform(size=N) < 1.0 / (1.0 + np.exp(-eta))).astype(np.float64)
    return X, y


def kkt_violation(xs, y, b0, w, lam):
    p = 1.0 / (1.0 + np.exp(-(b0 + xs @ w)))
    grad = xs.T @ (p - y) / len(y)
    worst = abs((p - y).mean())  # the unpenalised intercept's gradient
    for g, wj in zip(grad, w):
        worst = max(worst, abs(g + lam * np.sign(wj)) if wj != 0.0 else max(0.0, abs(g) - lam))
    return worst


def main():
    X, y = simulate()
    x64 = X.astype(np.float64)
    xs = (x64 - x64.mean(axis=0)) / x64.std(axis=0)  # population sd, as the C++ lasso
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "linear_logistic_train.csv"), "w") as f:
        f.write(",".join([f"x{j}" for j in range(P)] + ["y"]) + "\n")
        for row, label in zip(X, y):
            f.write(",".join(np.format_float_positional(v, unique=True, trim="-") for v in row))
            f.write(f",{int(label)}\n")
    lines = ["lambda,C,intercept," + ",".join(f"coef{j}" for j in range(P))]
    for lam in LAMBDAS:
        C = 1.0 / (N * lam)
        model = LogisticRegression(penalty="l1", solver="saga", C=C, tol=1e-13, max_iter=2_000_000)
        model.fit(xs, y)
        b0, w = float(model.intercept_[0]), model.coef_[0].copy()
        w[np.abs(w) < 1e-12] = 0.0  # saga's exact zeros can come out as denormal-sized residue
        violation = kkt_violation(xs, y, b0, w, lam)
        print(f"lambda {lam}: C {C:.6g}, nonzero {np.count_nonzero(w)}, KKT violation {violation:.2e}")
        if violation > 1e-8:
            raise SystemExit(f"sklearn did not converge at lambda {lam} (KKT violation {violation:.2e})")
        lines.append(",".join(repr(v) for v in [lam, C, b0, *w]))
    with open(os.path.join(OUT, "linear_logistic_sklearn.csv"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
