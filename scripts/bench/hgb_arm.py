#!/usr/bin/python3
"""One arm at asset scale, three fits side by side (docs/performance.md, "hgb: histogram gradient boosting"): banditfs's
hgb, banditfs's gbm (XGBoost) and scikit-learn's HistGradientBoostingRegressor, one thread each, on the same data and
settings.

Data: `banditfs simulate friedman1 --n 5000 --p 516 --seed 1`, rows 0..3999 train, 4000..4999 test. Settings (the
paper's GBM): 200 trees, 50 leaves, depth 10, at least 20 rows per leaf, L2 0.01, learning rate 0.05, all columns,
no early stopping, max 255 bins. Prints each fit's seconds and test R², and hgb's ratios.

    /usr/bin/python3 scripts/bench/hgb_arm.py [--build build] [--workdir /tmp/hgb_arm_bench]
"""
import argparse
import os
import subprocess
import time

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--workdir", default="/tmp/hgb_arm_bench")
    args = ap.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    build = os.path.join(ROOT, args.build)
    data = os.path.join(args.workdir, "arm.h5")
    subprocess.run([os.path.join(build, "banditfs"), "simulate", "friedman1", "--n", "5000", "--p", "516", "--seed",
                    "1", "--out", data], check=True, stdout=subprocess.DEVNULL)
    with h5py.File(data, "r") as f:
        X = np.asarray(f["X"], dtype=np.float32)
        y = np.asarray(f["y"], dtype=np.float64)
    x_path, y_path = os.path.join(args.workdir, "X.f32"), os.path.join(args.workdir, "y.f64")
    X.tofile(x_path)
    y.tofile(y_path)
    bench = os.path.join(args.workdir, "hgb_arm")
    subprocess.run(["bash", os.path.join(ROOT, "scripts/bench/build_bench.sh"),
                    os.path.join(ROOT, "scripts/bench/hgb_arm.cpp"), bench, args.build], check=True)
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_WAIT_POLICY="passive")
    results = {}
    for which in ("hgb", "gbm"):
        out = subprocess.run([bench, which, x_path, y_path, "5000", "516", "4000", "1"], check=True, env=env,
                             capture_output=True, text=True).stdout.split()
        results[which] = (float(out[out.index("fit_seconds") + 1]), float(out[out.index("test_r2") + 1]))
    # scikit-learn last, with its OpenMP pool limited to one thread (threadpoolctl ships with scikit-learn).
    from threadpoolctl import threadpool_limits
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.metrics import r2_score
    model = HistGradientBoostingRegressor(learning_rate=0.05, max_iter=200, max_leaf_nodes=50, max_depth=10,
                                          min_samples_leaf=20, l2_regularization=0.01, max_bins=255,
                                          early_stopping=False)
    with threadpool_limits(limits=1):
        start = time.perf_counter()
        model.fit(X[:4000].astype(np.float64), y[:4000])
        seconds = time.perf_counter() - start
        results["sklearn"] = (seconds, r2_score(y[4000:], model.predict(X[4000:].astype(np.float64))))
    print(f"{'fit':<28} {'seconds':>8} {'test R2':>8}")
    names = {"hgb": "banditfs hgb", "gbm": "banditfs gbm (XGBoost)", "sklearn": "scikit-learn HGB"}
    for key in ("hgb", "gbm", "sklearn"):
        print(f"{names[key]:<28} {results[key][0]:8.2f} {results[key][1]:8.4f}")
    print(f"hgb / gbm {results['hgb'][0] / results['gbm'][0]:.2f}   hgb / scikit-learn "
          f"{results['hgb'][0] / results['sklearn'][0]:.2f}   R2 difference hgb - scikit-learn "
          f"{results['hgb'][1] - results['sklearn'][1]:+.4f}")


if __name__ == "__main__":
    main()
