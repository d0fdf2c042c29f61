#!/usr/bin/python3
"""FIRST's speed ([FIRST]; docs/first.md, "Speed" and the time column of §4), measured with banditfs.

Studies (each prints a Markdown table and, with --json, appends its rows to a JSON file):
  peer     banditfs against scripts/bench/first_peer.py (NumPy + scikit-learn KDTree, the same algorithm and tie
           rule) on friedman-mod, N = 1000, p = 1000, rho = 0.5, one thread each, one run per seed; psi-hat of the
           two compared (max |difference|), the time ratio for --seeds (the acceptance's figure is seed 1).
  p        banditfs time against p (--ps, default 50,100,200,500,1000) at N = 1000, rho = 0.5, and the log-log
           slope (least squares over the points).
  n        banditfs time against N (--ns, default 500,1000,2000,5000,10000) at p = 100, rho = 0.5, and the slope.
  fast     FIRST / FIRST-FAST time ratio on friedman-mod at --ps (default 500,1000), rho 0, 0.5, 0.9, seeds --seeds.
  ranks    1, 2 and 4 MPI ranks (one thread each) at p = 1000, N = 1000, rho = 0.5; result.h5's /importance
           compared with one rank's.
Times are banditfs's own `timings.wall_seconds` (run.json: the algorithm, without process start and the HDF5 read)
and the peer's `seconds` (the algorithm, from standardising to psi-hat). One thread each (run.threads = 1,
OMP_NUM_THREADS = 1). Run it on an idle machine.

  /usr/bin/python3 scripts/bench/first_speed.py peer --seeds 1,2,3
  /usr/bin/python3 scripts/bench/first_speed.py p n fast ranks --json /tmp/first_speed.json
Needs Debian's python3-numpy, python3-h5py and python3-sklearn, i.e. /usr/bin/python3; `ranks` needs mpirun.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PEER = os.path.join(ROOT, "scripts", "bench", "first_peer.py")
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1", "OMPI_MCA_mpi_yield_when_idle": "1"}


def env_one_thread(extra=None):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    env.update(extra or {})
    return env


def simulate(args, work, n, p, rho, seed):
    path = os.path.join(work, f"fm_n{n}_p{p}_r{rho}_s{seed}.h5")
    if not os.path.exists(path):
        subprocess.run([args.banditfs, "simulate", "friedman-mod", "--n", str(n), "--p", str(p), "--rho", str(rho),
                        "--seed", str(seed), "--out", path], check=True, stdout=subprocess.DEVNULL)
    return path


def run_banditfs(args, work, data, forward="full", ranks=1, tag="run"):
    job = os.path.join(work, "first.toml")
    with open(job, "w") as f:
        f.write('[method]\nname = "first"\n[data]\nsource = "hdf5"\n[run]\nseed = 1\nthreads = 1\n')
    out = os.path.join(work, tag)
    cmd = ([] if ranks == 1 else ["mpirun", "-n", str(ranks)]) + [
        args.banditfs, "run", job, "--quiet", "--out", out, "--set", f'data.path="{data}"',
        "--set", f'method.forward="{forward}"']
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env_one_thread(MPI_ENV if ranks > 1 else None))
    with open(os.path.join(out, "run.json")) as f:
        seconds = json.load(f)["timings"]["wall_seconds"]
    with h5py.File(os.path.join(out, "result.h5")) as h5:
        psi = np.asarray(h5["importance"][()], dtype=float)
    return seconds, psi


def slope(xs, ys):
    lx, ly = np.log(np.asarray(xs, float)), np.log(np.asarray(ys, float))
    return float(np.polyfit(lx, ly, 1)[0])


def study_peer(args, work):
    rows = []
    print("| seed | banditfs (s) | peer (s) | peer / banditfs | max abs psi difference |")
    print("| --- | --- | --- | --- | --- |")
    for seed in args.seeds:
        data = simulate(args, work, 1000, 1000, 0.5, seed)
        ours, psi = run_banditfs(args, work, data, tag=f"peer_{seed}")
        res = subprocess.run([sys.executable, PEER, data, "--forward", "full"], check=True, capture_output=True,
                             text=True, env=env_one_thread())
        peer = json.loads(res.stdout)
        diff = float(np.max(np.abs(np.asarray(peer["psi"], float) - psi)))
        rows.append({"study": "peer", "seed": seed, "banditfs": ours, "peer": peer["seconds"], "psi_diff": diff})
        print(f"| {seed} | {ours:.3f} | {peer['seconds']:.2f} | {peer['seconds'] / ours:.1f}x | {diff:.1e} |")
    return rows


def study_sweep(args, work, name, points, make):
    rows = []
    print(f"| {name} | banditfs (s), seed 1 |")
    print("| --- | --- |")
    for x in points:
        n, p = make(x)
        seconds, _ = run_banditfs(args, work, simulate(args, work, n, p, 0.5, 1), tag=f"{name}_{x}")
        rows.append({"study": name, name: x, "n": n, "p": p, "banditfs": seconds})
        print(f"| {x} | {seconds:.3f} |")
    print(f"\nlog-log slope of time against {name}: {slope(points, [r['banditfs'] for r in rows]):.2f}\n")
    return rows


def study_fast(args, work):
    rows = []
    print("| rho | p | full (s), mean | fast (s), mean | full / fast | seeds |")
    print("| --- | --- | --- | --- | --- | --- |")
    for p in args.ps or [500, 1000]:
        for rho in (0.0, 0.5, 0.9):
            full, fast = [], []
            for seed in args.seeds:
                data = simulate(args, work, 1000, p, rho, seed)
                full.append(run_banditfs(args, work, data, "full", tag="full")[0])
                fast.append(run_banditfs(args, work, data, "fast", tag="fast")[0])
            ratio = float(np.mean(full) / np.mean(fast))
            rows.append({"study": "fast", "p": p, "rho": rho, "full": full, "fast": fast, "ratio": ratio})
            print(f"| {rho} | {p} | {np.mean(full):.3f} | {np.mean(fast):.3f} | {ratio:.2f} | {len(full)} |")
    return rows


def study_ranks(args, work):
    data = simulate(args, work, 1000, 1000, 0.5, 1)
    rows, base = [], None
    print("| ranks | banditfs (s) | speed-up | /importance equal to 1 rank's |")
    print("| --- | --- | --- | --- |")
    for ranks in (1, 2, 4):
        seconds, psi = run_banditfs(args, work, data, ranks=ranks, tag=f"ranks_{ranks}")
        if base is None:
            base = (seconds, psi)
        same = bool(np.array_equal(psi, base[1]))
        rows.append({"study": "ranks", "ranks": ranks, "banditfs": seconds, "identical": same})
        print(f"| {ranks} | {seconds:.3f} | {base[0] / seconds:.2f}x | {'yes' if same else 'NO'} |")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("studies", nargs="+", choices=["peer", "p", "n", "fast", "ranks"])
    ap.add_argument("--banditfs", default=os.path.join(ROOT, "build", "banditfs"))
    ap.add_argument("--seeds", default="1", help="comma list of data seeds (peer, fast)")
    ap.add_argument("--ps", default=None, help="comma list of p (p: 50,...,1000; fast: 500,1000)")
    ap.add_argument("--ns", default="500,1000,2000,5000,10000", help="comma list of N for the n study")
    ap.add_argument("--json", help="append the measured rows to this JSON file")
    args = ap.parse_args()
    args.seeds = [int(s) for s in args.seeds.split(",")]
    args.ps = [int(s) for s in args.ps.split(",")] if args.ps else None
    rows = []
    with tempfile.TemporaryDirectory(prefix="first_speed_") as work:
        for study in args.studies:
            print(f"\n## {study}\n")
            if study == "peer":
                rows += study_peer(args, work)
            elif study == "p":
                rows += study_sweep(args, work, "p", args.ps or [50, 100, 200, 500, 1000], lambda x: (1000, x))
            elif study == "n":
                rows += study_sweep(args, work, "n", [int(s) for s in args.ns.split(",")], lambda x: (x, 100))
            elif study == "fast":
                rows += study_fast(args, work)
            else:
                rows += study_ranks(args, work)
    if args.json:
        old = json.load(open(args.json)) if os.path.exists(args.json) else []
        with open(args.json + ".tmp", "w") as f:
            json.dump(old + rows, f, indent=1)
        os.replace(args.json + ".tmp", args.json)
    return 0 if all(r.get("identical", True) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
