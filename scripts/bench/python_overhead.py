#!/usr/bin/env python3
"""BanditSelector.fit against `banditfs run` on the quick start's data and job (jobs/quickstart.toml: friedman1,
300 rows, 200 features, random forest, TTTS, 100 iterations), the same threads: the median wall time of each over
--repeats runs, and their ratio (target: Python ≤ 1.05 × CLI). The data are simulated once to HDF5
(`banditfs simulate friedman1 --seed 1`); the CLI reads that file, Python the same arrays from it (h5py); the CLI's
time is its whole process (start, read, run, write), Python's the fit alone; the runs' own wall_seconds (the
method alone) are compared too. Both results are checked identical.

    /usr/bin/python3 scripts/bench/python_overhead.py [--banditfs build/banditfs] [--threads 2] [--repeats 5]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

import h5py
import numpy as np

import banditfs
from banditfs import BanditSelector

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--banditfs", default=os.path.join(root, "build", "banditfs"))
parser.add_argument("--threads", type=int, default=2)
parser.add_argument("--repeats", type=int, default=5)
args = parser.parse_args()

with open(os.path.join(root, "jobs", "quickstart.toml")) as f:
    quickstart = f.read()

with tempfile.TemporaryDirectory() as work:
    data = os.path.join(work, "friedman1.h5")
    subprocess.run([args.banditfs, "simulate", "friedman1", "--n", "300", "--p", "200", "--seed", "1", "--out", data],
                   check=True, stdout=subprocess.DEVNULL)
    with h5py.File(data, "r") as h5:
        X = np.ascontiguousarray(h5["X"][()], dtype=np.float32)
        y = h5["y"][()].astype(np.float64)
    job = os.path.join(work, "job.toml")
    with open(job, "w") as f:
        f.write(quickstart)
    sets = ["--set", 'data.source="hdf5"', "--set", f'data.path="{data}"', "--set", f"run.threads={args.threads}"]
    selector = BanditSelector(estimator="random_forest", estimator_params={"n_estimators": 100, "max_depth": 10},
                              rule="absolute", threshold=0.01, repeats=10, policy="ttts", iterations=100,
                              random_state=1, n_jobs=args.threads)
    cli_times, py_times, cli_walls, py_walls = [], [], [], []
    for r in range(args.repeats):  # interleaved, so a slow spell of the machine hits both
        out = os.path.join(work, f"out{r}")
        start = time.perf_counter()
        subprocess.run([args.banditfs, "run", job, "--out", out, "--quiet"] + sets, check=True,
                       stdout=subprocess.DEVNULL)
        cli_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        selector.fit(X, y)
        py_times.append(time.perf_counter() - start)
        cli = banditfs.read_result(out)[1]["result"]
        cli_walls.append(cli["timings"]["wall_seconds"])
        py_walls.append(selector.result_["timings"]["wall_seconds"])
        assert np.array_equal(cli["importance"], selector.result_["importance"]), "not the CLI's result"
        assert np.array_equal(cli["trajectory"], selector.result_["trajectory"]), "not the CLI's trajectories"
        print(f"run {r + 1}: CLI {cli_times[-1]:.2f} s, Python fit {py_times[-1]:.2f} s", flush=True)

cli_median, py_median = statistics.median(cli_times), statistics.median(py_times)
print(f"median of {args.repeats}, {args.threads} threads: CLI {cli_median:.2f} s, "
      f"BanditSelector.fit {py_median:.2f} s, ratio {py_median / cli_median:.3f} (target <= 1.05)")
cli_wall, py_wall = statistics.median(cli_walls), statistics.median(py_walls)
print(f"the runs' own wall_seconds (the method alone, no start-up, reading or writing): CLI {cli_wall:.2f} s, "
      f"Python {py_wall:.2f} s, ratio {py_wall / cli_wall:.3f}")
