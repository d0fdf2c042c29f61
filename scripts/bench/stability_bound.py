#!/usr/bin/python3
"""Stability selection's acceptance figures (docs/stability.md; docs/results.md, "Stability selection").

  --study bound  per method, D draws of a design with known truth, with [stability] max_false = 1: the mean number of
                 false selections of the stable set over the draws (the bound promises E[V] <= 1), its power, beside
                 one full-data run's power and false selections on the same draw.
                   bandit  friedman1 (n 300, p 50), random_forest          FIRST  ishigami (n 400, p 30)
                   fuse    madelon-like (n 600, p 40: 5 informative)       cmab   cmab-hte log (n 6000, p 30)
  --study real   diabetes + 500 N(0,1) noise columns and breast cancer + 300: the stable set, its noise columns,
                 whether bmi and s5 (diabetes) are in it, and a table of the highest selection frequencies.
  --study cost   one stability run with B pairs against 2B full-data runs of the bandit and FIRST (per sub-run, target
                 <= 0.55 of a full run), at 1 thread; and the same stability run on 2 MPI ranks against 1 (target >= 1.8x).

  /usr/bin/python3 scripts/bench/stability_bound.py --study bound --draws 20 --pairs 10
  /usr/bin/python3 scripts/bench/stability_bound.py --study real --pairs 10
  /usr/bin/python3 scripts/bench/stability_bound.py --study cost --pairs 50 --repeat 2   (B = 50, the default)

Every run is `banditfs run JOB --quiet --out DIR` with the draw's seed as run.seed (and the data seed); results under
--out (default results/stability). Prints markdown tables.
"""
import argparse
import json
import os
import subprocess
import time

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1", "OMP_NUM_THREADS": "1"}

# The designs of --study bound: the job (data and method keys) and, for an HDF5 design, the simulate command.
DESIGNS = {
    "bandit": dict(
        job='[data]\nsource = "simulate"\ndgp = "friedman1"\nn = 300\np = 50\nseed = {seed}\n'
            '[estimator]\nname = "random_forest"\nn_estimators = 30\nmax_depth = 6\n'
            '[bandit]\npolicy = "ttts"\niterations = 150\n',
        label="friedman1 300 x 50, random_forest, ttts 150 rounds"),
    "first": dict(
        job='[method]\nname = "first"\n[data]\nsource = "simulate"\ndgp = "ishigami"\nn = 400\np = 30\nseed = {seed}\n',
        label="ishigami 400 x 30"),
    "fuse": dict(
        simulate=["madelon-like", "--n", "600", "--p", "40", "--informative", "5", "--redundant", "0"],
        job='[method]\nname = "fuse"\niterations = 5000\n[data]\nsource = "hdf5"\npath = "{data}"\ntask = "binary"\n',
        label="madelon-like 600 x 40 (5 informative), 5000 iterations"),
    "cmab": dict(
        job='[method]\nname = "cmab-scores"\n[data]\nn = 6000\np = 30\nseed = {seed}\n',
        label="cmab-hte log 6000 x 30 (5 effect modifiers)"),
}


def banditfs_run(binary, job_text, out, threads, ranks=1):
    """Runs a job; returns the wall seconds."""
    os.makedirs(out, exist_ok=True)
    job = os.path.join(out, "job.toml")
    with open(job, "w") as f:
        f.write(job_text)
    cmd = [binary, "run", job, "--quiet", "--force", "--out", os.path.join(out, "run"), "--set", f"run.threads={threads}"]
    env = dict(os.environ)
    if ranks > 1:
        cmd = ["mpirun", "-n", str(ranks)] + cmd
        env.update(MPI_ENV)
    start = time.time()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    return time.time() - start


def read(out):
    with h5py.File(os.path.join(out, "run", "result.h5"), "r") as f:
        names = [n.decode() if isinstance(n, bytes) else n for n in f["feature_names"][()]]
        r = dict(names=names, selected=[int(j) for j in f["selected"][()]],
                 truth=[int(j) for j in f["truth"][()]] if "truth" in f else None)
        if "stability" in f:
            s = f["stability"]
            r.update(freq=s["selection_frequency"][()], threshold=float(s.attrs["threshold"]),
                     q=float(s.attrs["mean_selected"]), mb=float(s.attrs["bound_meinshausen_buhlmann"]),
                     ss=float(s.attrs["bound_shah_samworth"]))
    return r


def stability_section(pairs, extra="max_false = 1"):
    return f"[stability]\nenabled = true\npairs = {pairs}\n{extra}\n"


def false_and_power(r):
    truth = set(r["truth"])
    hits = sum(1 for j in r["selected"] if j in truth)
    return len(r["selected"]) - hits, hits / len(truth)


def bound_study(a):
    print("| method | design | draws | one run: false | one run: power | stable set: false | stable set: power "
          "| pi_thr | q | MB bound | SS bound | false <= 1 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for method in a.methods.split(","):
        design = DESIGNS[method]
        single, stable, facts = [], [], []
        for d in range(1, a.draws + 1):
            base = os.path.join(a.out, "bound", method, f"draw-{d}")
            data = os.path.join(base, "data.h5")
            if "simulate" in design and not os.path.exists(data):
                os.makedirs(base, exist_ok=True)
                subprocess.run([a.banditfs, "simulate"] + design["simulate"] + ["--seed", str(d), "--out", data],
                               check=True, stdout=subprocess.DEVNULL)
            job = design["job"].format(seed=d, data=data) + f"[run]\nseed = {d}\n"
            banditfs_run(a.banditfs, job, os.path.join(base, "single"), a.threads)
            banditfs_run(a.banditfs, job + stability_section(a.pairs), os.path.join(base, "stable"), a.threads)
            single.append(false_and_power(read(os.path.join(base, "single"))))
            r = read(os.path.join(base, "stable"))
            stable.append(false_and_power(r))
            facts.append((r["threshold"], r["q"], r["mb"], r["ss"]))
        s, t, f = np.array(single), np.array(stable), np.array(facts)
        print(f"| {method} | {design['label']} | {a.draws} | {s[:, 0].mean():.2f} | {s[:, 1].mean():.2f} | "
              f"{t[:, 0].mean():.2f} | {t[:, 1].mean():.2f} | {f[:, 0].mean():.3f} | {f[:, 1].mean():.2f} | "
              f"{f[:, 2].mean():.3f} | {np.nanmean(f[:, 3]) if not np.all(np.isnan(f[:, 3])) else float('nan'):.3f} | "
              f"{'yes' if t[:, 0].mean() <= 1 else 'no'} |", flush=True)


REAL = {
    "diabetes": dict(
        make=["scripts/examples_diabetes_csv.py", "{csv}", "--noise", "500", "--noise-seed", "1"],
        job='[data]\nsource = "csv"\npath = "{csv}"\ntarget = "progression"\n'
            '[estimator]\nname = "random_forest"\nn_estimators = 50\nmax_depth = 6\n'
            '[reward]\nrule = "relative"\nthreshold = 0.02\n[bandit]\npolicy = "ttts"\niterations = 300\n'),
    "breast_cancer": dict(
        make=["scripts/examples_breast_cancer_csv.py", "{csv}"],
        job='[data]\nsource = "csv"\npath = "{csv}"\ntarget = "diagnosis"\ntask = "binary"\nnoise_features = 300\n'
            '[estimator]\nname = "random_forest"\nn_estimators = 50\nmax_depth = 10\nmax_features = 0.33\n'
            '[reward]\nrule = "absolute"\nthreshold = 0.01\nmetric = "auc"\n[bandit]\npolicy = "ttts"\n'
            'iterations = 400\n'),
}


def real_study(a):
    for name, spec in REAL.items():
        base = os.path.join(a.out, "real", name)
        os.makedirs(base, exist_ok=True)
        csv = os.path.join(base, f"{name}.csv")
        if not os.path.exists(csv):
            cmd = ["/usr/bin/python3", os.path.join(ROOT, spec["make"][0])] + [x.format(csv=csv) for x in spec["make"][1:]]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        job = spec["job"].format(csv=csv) + "[run]\nseed = 1\n" + stability_section(a.pairs)
        seconds = banditfs_run(a.banditfs, job, base, a.threads)
        r = read(base)
        chosen = [r["names"][j] for j in r["selected"]]
        noise = [n for n in chosen if n.startswith("noise")]
        print(f"\n{name}: {len(r['names'])} features, {2 * a.pairs} runs in {seconds:.0f} s; pi_thr {r['threshold']:.3f}, "
              f"q {r['q']:.2f}, MB bound {r['mb']:.3f}, SS bound {r['ss']:.3f}")
        print(f"stable set ({len(chosen)}): {', '.join(chosen)}; noise columns in it: {len(noise)}"
              + ("; bmi and s5 in it: " + ("yes" if "bmi" in chosen and "s5" in chosen else "no")
                 if name == "diabetes" else ""))
        order = np.argsort(-r["freq"], kind="stable")[:a.top]
        print("\n| feature | selection frequency | in the stable set |\n|---|---:|---|")
        for j in order:
            print(f"| {r['names'][j]} | {r['freq'][j]:.2f} | {'yes' if j in r['selected'] else ''} |")
        top_noise = max((r["freq"][j] for j, n in enumerate(r["names"]) if n.startswith("noise")), default=0.0)
        print(f"\nhighest frequency of a noise column: {top_noise:.2f}", flush=True)


COST = {
    "bandit": '[data]\nsource = "simulate"\ndgp = "friedman1"\nn = 2000\np = 40\n'
              '[estimator]\nname = "random_forest"\nn_estimators = 30\nmax_depth = 8\n[bandit]\niterations = 60\n',
    "first": '[method]\nname = "first"\n[data]\nsource = "simulate"\ndgp = "friedman1"\nn = 4000\np = 30\n',
}


def cost_study(a):
    print("| method | one full run (s) | stability, 1 rank (s) | per sub-run / full run | 2 ranks (s) | speed-up |")
    print("|---|---:|---:|---:|---:|---:|")
    for method, job in COST.items():
        base = os.path.join(a.out, "cost", method)
        job = job + "[run]\nseed = 1\n"
        # A full run is short (about 1 s) and this machine's timings drift: the median of at least 5.
        full = float(np.median([banditfs_run(a.banditfs, job, os.path.join(base, "full"), 1)
                                for _ in range(max(5, a.repeat))]))
        stab_job = job + stability_section(a.pairs, "threshold = 0.6")
        one = min(banditfs_run(a.banditfs, stab_job, os.path.join(base, "stable-1"), 1) for _ in range(a.repeat))
        two = min(banditfs_run(a.banditfs, stab_job, os.path.join(base, "stable-2"), 1, ranks=2)
                  for _ in range(a.repeat))
        ratio = one / (2 * a.pairs * full)
        print(f"| {method} | {full:.2f} | {one:.2f} | {ratio:.3f} | {two:.2f} | {one / two:.2f} |", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--study", default="bound", help="bound, real, cost (comma-separated)")
    ap.add_argument("--banditfs", default=os.path.join(ROOT, "build", "banditfs"))
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "stability"))
    ap.add_argument("--methods", default="bandit,first,fuse,cmab")
    ap.add_argument("--draws", type=int, default=20)
    ap.add_argument("--pairs", type=int, default=10)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--top", type=int, default=12, help="real: rows of the frequency table")
    ap.add_argument("--repeat", type=int, default=1, help="cost: runs of each timing, the fastest kept")
    a = ap.parse_args()
    for study in a.study.split(","):
        {"bound": bound_study, "real": real_study, "cost": cost_study}[study](a)


if __name__ == "__main__":
    main()
