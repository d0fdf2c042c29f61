#!/usr/bin/python3
"""Runs banditfs and its scikit-learn peer (peer_sklearn.py) on the same data and settings and compares them.

The peer benchmark, side by side (docs/performance.md, "The scikit-learn peer"). In one go it
  1. writes the data with `banditfs simulate DGP --n N --p P --seed S --out WORKDIR/data.h5`;
  2. runs banditfs on it: `banditfs run JOB --set data.source=hdf5 --set data.path=WORKDIR/data.h5
     --set run.threads=1 --set bandit.iterations=ITERATIONS --set run.seed=S` (JOB defaults to
     jobs/paper000/DGP_rf_ttts.toml: random forest 100 trees depth 10, TTTS, absolute nu = 0.01, B = 10);
  3. runs the peer on the same file with the job's policy, reward rule, threshold, repeats, trees, depth and
     forest max_features;
  4. prints both per-iteration times (wall, fit, importance), the ratio peer / banditfs, and both final
     separations (true-feature means, largest noise mean, separated yes/no, first separating iteration).
With --binary the data are `banditfs simulate DGP --binary` (y ~ Bernoulli(Phi(standardised f))),
banditfs runs with --set data.task=binary (reward.metric defaults to auc) and the peer with --binary
(RandomForestClassifier, AUC test score, permutation importance with scoring='roc_auc'), same reward rule.
The peer may run fewer iterations (--peer-iterations) to save time: banditfs then also runs just those first
iterations (same seed, so the same start) and the times are compared over them, since early iterations play larger
super-arms and cost more; separations are compared only when both ran the same number of iterations. Both run
single-threaded. "wall/feature" divides the wall time by the number of played features, which makes the ratio
independent of how large the two tools' super-arms happened to be.

  /usr/bin/python3 scripts/bench/compare_peer.py --iterations 200                    # the full-length comparison (slow)
  /usr/bin/python3 scripts/bench/compare_peer.py --p 200 --iterations 20             # a quick check
  /usr/bin/python3 scripts/bench/compare_peer.py --iterations 200 --peer-iterations 5 --json /tmp/cmp.json
  /usr/bin/python3 scripts/bench/compare_peer.py --binary --iterations 200 --peer-iterations 20   # binary target

Needs /usr/bin/python3 (Debian's python3-sklearn, numpy, h5py).
"""
import argparse
import json
import os
import subprocess
import sys
import time
import tomllib

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def default_binary():
    """The repo build if present, else the benchmark copy."""
    for path in (os.path.join(ROOT, "build", "banditfs"), "/work/bench-bin/banditfs"):
        if os.access(path, os.X_OK):
            return path
    return "banditfs"


def run_cmd(cmd, label):
    """Runs a command, echoing it; returns its stdout and the elapsed seconds, and stops on failure."""
    print("$ " + " ".join(cmd), flush=True)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"{label} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout, elapsed


def job_settings(job):
    """The settings of a banditfs job file the peer must share (estimator, reward, policy)."""
    with open(job, "rb") as f:
        cfg = tomllib.load(f)
    est, rew, ban = cfg.get("estimator", {}), cfg.get("reward", {}), cfg.get("bandit", {})
    if est.get("name") != "random_forest":
        sys.exit(f"{job}: the peer implements estimator random_forest only, not {est.get('name')!r}")
    if rew.get("rule", "absolute") not in ("absolute", "relative"):
        sys.exit(f"{job}: the peer implements the absolute and relative rules only")
    if ban.get("policy", "ttts") not in ("ts", "ttts"):
        sys.exit(f"{job}: the peer implements ts and ttts only")
    return {
        "policy": ban.get("policy", "ttts"),
        "rule": rew.get("rule", "absolute"),
        "threshold": rew.get("threshold", 0.01),
        "repeats": rew.get("repeats", 10),
        "n_estimators": est.get("n_estimators", 100),
        "max_depth": est.get("max_depth", 10),
        "forest_max_features": est.get("max_features", 1.0),
        "max_features": ban.get("max_features", 1.0),
    }


def separation(mean, truth):
    """Separation facts of a posterior-mean vector: true means, largest noise mean, separated or not."""
    noise = np.ones(mean.size, dtype=bool)
    noise[truth] = False
    return {"true_means": [float(m) for m in mean[truth]],
            "max_noise_mean": float(mean[noise].max()) if noise.any() else None,
            "separated": bool(mean[truth].min() >= 0.5 and (mean[noise] < 0.5).all())}


def run_banditfs(args, data, job, iterations, name):
    """Runs banditfs on the data file; returns its per-iteration times and final separation."""
    out = os.path.join(args.workdir, name)
    cmd = [args.exe, "run", job, "--quiet", "--out", out,
           "--set", "data.source=hdf5", "--set", f"data.path={data}", "--set", "run.threads=1",
           "--set", f"bandit.iterations={iterations}", "--set", f"run.seed={args.seed}"]
    if args.binary:
        cmd += ["--set", "data.task=binary"]
    _, elapsed = run_cmd(cmd, "banditfs")
    with open(os.path.join(out, "run.json")) as f:
        manifest = json.load(f)
    with h5py.File(os.path.join(out, "result.h5"), "r") as f:
        mean = f["importance" if "importance" in f else "posterior_mean"][()]  # new / older layout
        truth = np.sort(f["truth"][()].astype(int))
        arm_size = f["bandit/evaluations/arm_size" if "bandit" in f else "evaluations/arm_size"][()]
    t, iters = manifest["timings"], manifest["iterations"]
    res = {"iterations": iters, "process_seconds": elapsed, "mean_arm_size": float(arm_size.mean()),
           "played_features": int(arm_size.sum()),
           "wall": t["wall_seconds"] / iters, "fit": t["fit_seconds"] / iters,
           "importance": t["importance_seconds"] / iters,
           "separation_iteration": manifest.get("metrics", {}).get("separation_iteration", -1),
           **separation(mean, truth)}
    return res, truth


def run_peer(args, data, settings):
    """Runs peer_sklearn.py on the data file; returns its per-iteration times and final separation."""
    out = os.path.join(args.workdir, "peer.json")
    cmd = [sys.executable, os.path.join(HERE, "peer_sklearn.py"), "--data", data, "--quiet",
           "--iterations", str(args.peer_iterations), "--seed", str(args.seed), "--out", out,
           "--policy", settings["policy"], "--rule", settings["rule"], "--threshold", str(settings["threshold"]),
           "--repeats", str(settings["repeats"]), "--n-estimators", str(settings["n_estimators"]),
           "--max-depth", str(settings["max_depth"]), "--max-features", str(settings["max_features"]),
           "--forest-max-features", str(settings["forest_max_features"])]
    if args.binary:
        cmd.append("--binary")
    _, elapsed = run_cmd(cmd, "peer")
    with open(out) as f:
        res = json.load(f)
    t = res["timings"]
    return {"iterations": res["iterations"], "process_seconds": elapsed,
            "wall": t["per_iteration_wall_seconds"], "fit": t["per_iteration_fit_seconds"],
            "importance": t["per_iteration_importance_seconds"],
            "separation_iteration": res.get("separation_iteration", -1),
            "mean_arm_size": float(np.mean([r["arm_size"] for r in res["records"]])),
            "played_features": int(sum(r["arm_size"] for r in res["records"])),
            **separation(np.asarray(res["posterior_mean"]), np.asarray(res["truth"], dtype=int))}


def report(bfs_time, bfs, peer, truth, binary=False):
    """Prints the side-by-side table of times (over the same iterations) and of final separations."""
    def ratio(a, b):
        return f"{a / b:10.1f}x" if b > 0 else "         -"

    task = "binary target, AUC" if binary else "regression, R^2"
    print(f"\nper-iteration seconds over the same {peer['iterations']} iterations (single thread; {task})")
    print(f"{'':14s}{'banditfs':>12s}{'peer':>12s}{'peer/bfs':>11s}")
    for key in ("wall", "fit", "importance"):
        print(f"{key:14s}{bfs_time[key]:12.4f}{peer[key]:12.4f}{ratio(peer[key], bfs_time[key])}")
    per_b = bfs_time["wall"] * bfs_time["iterations"] / max(bfs_time["played_features"], 1)
    per_p = peer["wall"] * peer["iterations"] / max(peer["played_features"], 1)
    print(f"{'wall/feature':14s}{per_b:12.5f}{per_p:12.5f}{ratio(per_p, per_b)}   (seconds per played feature)")
    print(f"{'mean |S|':14s}{bfs_time['mean_arm_size']:12.1f}{peer['mean_arm_size']:12.1f}")
    if bfs is not bfs_time:
        print(f"(banditfs over all {bfs['iterations']} iterations: wall {bfs['wall']:.4f}s, fit {bfs['fit']:.4f}s, "
              f"importance {bfs['importance']:.4f}s, mean |S| {bfs['mean_arm_size']:.1f})")
    print(f"(processes: banditfs {bfs['process_seconds']:.1f}s, peer {peer['process_seconds']:.1f}s)")
    if bfs["iterations"] != peer["iterations"]:
        print(f"\nseparations not compared: the peer ran {peer['iterations']} iterations, banditfs "
              f"{bfs['iterations']} (banditfs: separated {'yes' if bfs['separated'] else 'no'}, "
              f"first at iteration {bfs['separation_iteration']})")
        return
    print(f"\nfinal separation after {bfs['iterations']} iterations")
    names = " ".join(f"{'x' + str(k + 1):>6s}" for k in truth)
    print(f"{'':10s}{names}  max-noise  separated  first-sep")
    for label, r in (("banditfs", bfs), ("peer", peer)):
        means = " ".join(f"{m:6.3f}" for m in r["true_means"])
        sep = "yes" if r["separated"] else "no"
        print(f"{label:10s}{means}  {r['max_noise_mean']:9.3f}  {sep:>9s}  {r['separation_iteration']:9d}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=200, help="banditfs iterations")
    ap.add_argument("--peer-iterations", type=int, default=None, help="peer iterations (default: --iterations)")
    ap.add_argument("--seed", type=int, default=1, help="data seed and run seed of both tools")
    ap.add_argument("--dgp", default="friedman1", choices=["friedman1", "friedman3"])
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--p", type=int, default=1000)
    ap.add_argument("--binary", action="store_true",
                    help="binary target (simulate --binary, data.task=binary, the peer's --binary)")
    ap.add_argument("--job", help="banditfs job (default: jobs/paper000/DGP_rf_ttts.toml)")
    ap.add_argument("--banditfs", dest="exe", default=default_binary(),
                    help="the banditfs executable (--binary selects a binary target here, as in peer_sklearn.py)")
    ap.add_argument("--workdir", help="where data and results go (default: /tmp/compare_peer/DGP_pP_sSEED)")
    ap.add_argument("--json", help="write both summaries as JSON here")
    args = ap.parse_args()
    if args.peer_iterations is None:
        args.peer_iterations = args.iterations
    job = args.job or os.path.join(ROOT, "jobs", "paper000", f"{args.dgp}_rf_ttts.toml")
    task = "_binary" if args.binary else ""
    args.workdir = args.workdir or f"/tmp/compare_peer/{args.dgp}{task}_p{args.p}_s{args.seed}"
    os.makedirs(args.workdir, exist_ok=True)
    settings = job_settings(job)

    data = os.path.join(args.workdir, "data.h5")
    run_cmd([args.exe, "simulate", args.dgp, "--n", str(args.n), "--p", str(args.p), "--seed", str(args.seed),
             "--out", data] + (["--binary"] if args.binary else []), "simulate")
    bfs, truth = run_banditfs(args, data, job, args.iterations, "banditfs")
    bfs_time = bfs
    if args.peer_iterations != args.iterations:
        # Arms shrink as the posterior learns, so early iterations cost more: time banditfs over the peer's
        # iterations too (same seed, so the same first iterations) for a like-for-like ratio.
        bfs_time, _ = run_banditfs(args, data, job, args.peer_iterations, f"banditfs_{args.peer_iterations}")
    peer = run_peer(args, data, settings)
    report(bfs_time, bfs, peer, truth, args.binary)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"settings": {**settings, "dgp": args.dgp, "n": args.n, "p": args.p, "seed": args.seed,
                                    "job": job, "banditfs": args.exe,
                                    "task": "binary" if args.binary else "regression"},
                       "banditfs": bfs, "banditfs_same_iterations": bfs_time, "peer": peer}, f, indent=1)


if __name__ == "__main__":
    main()
