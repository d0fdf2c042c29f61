"""Shared by the Python tests (tests/python): tiny data, the CLI on the same data written to CSV."""
import os
import subprocess
import tempfile

import numpy as np
import pandas as pd

import banditfs

CLI = os.environ.get("BANDITFS", "build/banditfs")

# Tiny jobs: every test runs in seconds.
BANDIT = dict(estimator="random_forest", estimator_params={"n_estimators": 10, "max_depth": 4}, iterations=6,
              repeats=2)
FUSE = dict(iterations=300, reward_subsample=30, batch=4)


def regression_data(n=120, p=6, seed=0):
    """X float32 (x1 and x2 matter), y float64 holding float32 values (a CSV's %.9g writes every bit of both)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)).astype(np.float32)
    y = (3 * X[:, 0] + 2 * X[:, 1] ** 2 + 0.2 * rng.normal(size=n)).astype(np.float32).astype(np.float64)
    return X, y


def binary_data(n=160, p=6, seed=0):
    X, y = regression_data(n, p, seed)
    return X, (y > np.median(y)).astype(np.float64)


def table(n=150, seed=1):
    """A DataFrame with NaN in a numeric column and a categorical column with a missing cell, and a target."""
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({f"x{j}": rng.normal(size=n).astype(np.float32) for j in range(1, 5)})
    colour = rng.choice(["red", "green", "blue"], n).astype(object)
    colour[5] = None
    frame["colour"] = pd.Categorical(colour)
    frame.loc[::10, "x2"] = np.nan
    y = (frame["x1"].to_numpy(np.float64) * 2 + (frame["colour"] == "red").to_numpy() * 3 +
         0.1 * rng.normal(size=n)).astype(np.float32).astype(np.float64)
    return frame, y


def write_csv(path, X, y, target="y"):
    """X (array or DataFrame) and y as the CLI reads them: every float32 and float64 bit kept, NaN an empty cell."""
    names = [f"x{j + 1}" for j in range(X.shape[1])]
    frame = X.copy() if isinstance(X, pd.DataFrame) else pd.DataFrame(X, columns=names)
    for name in frame.columns:
        if frame[name].dtype == np.float32:
            frame[name] = [("" if np.isnan(v) else "%.9g" % v) for v in frame[name]]
    frame[target] = ["%.17g" % v for v in y]
    frame.to_csv(path, index=False)


def run_cli(job_text, *overrides):
    """`banditfs run` of job_text in a temporary directory; the result dict (banditfs.read_result's "result")."""
    with tempfile.TemporaryDirectory() as work:
        job = os.path.join(work, "job.toml")
        with open(job, "w") as f:
            f.write(job_text)
        args = [CLI, "run", job, "--out", os.path.join(work, "out"), "--quiet"]
        for o in overrides:
            args += ["--set", o]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        return banditfs.read_result(os.path.join(work, "out"))[1]["result"]
