#!/usr/bin/python3
"""Fingerprints of the datasets of an HDF5 file (the pin of the bandit's results).

  h5_fingerprints.py result.h5
      prints one line per dataset: path, dtype, shape and the SHA-256 of its bytes, sorted by path (how the pins in
      tests/data/fingerprints/*.sha256 were taken).
  h5_fingerprints.py --compare PINNED.sha256 result.h5
      compares result.h5 with fingerprints pinned in the bandit-only layout. The only permitted differences are
      the renames in LAYOUT_MAP and the new datasets in NEW_DATASETS: every pinned dataset must be present under its
      new name with the same dtype, shape and bytes, and every other dataset of result.h5 must be a new one listed
      there. Prints each difference and exits 1 when there is one, 0 otherwise.

Attributes (timings, the job text) are not fingerprinted: only the numbers are pinned.
"""
import hashlib
import sys

import h5py
import numpy as np

# The layout rule (src/methods/result.hpp, src/output/result_io.hpp): the method-neutral datasets live at the
# root of result.h5 (/feature_names, /importance, /selected, /rank, /trajectory, /truth) and the method's own datasets
# in the group named after the method (/bandit/...). The pins were taken before, in the bandit-only layout. Old name
# (or old group, ending in "/") -> new name (or group); a pinned name not listed keeps its path.
LAYOUT_MAP = [
    ("/posterior_mean", "/importance"),        # the bandit's importance is its posterior mean
    ("/alpha", "/bandit/alpha"),
    ("/beta", "/bandit/beta"),
    ("/iteration_period", "/bandit/iteration_period"),
    ("/evaluations/r2_test", "/bandit/evaluations/test_score"),  # also renamed: the metric is the group's "metric"
    ("/evaluations/", "/bandit/evaluations/"),
    ("/tuning/", "/bandit/tuning/"),
]
# Datasets of the new layout that the pins do not have (and nothing else may be extra).
NEW_DATASETS = {"/rank", "/importance_lo", "/importance_hi"}


def fingerprints(path):
    """{path: "dtype [shape] sha256"} of every dataset in the file."""
    out = {}

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            data = obj[()]
            if obj.dtype.kind in ("O", "S", "U"):
                items = [x.decode() if isinstance(x, bytes) else str(x) for x in np.asarray(data).ravel()]
                digest = hashlib.sha256("\n".join(items).encode()).hexdigest()
                dtype = "str"
            else:
                digest = hashlib.sha256(np.ascontiguousarray(data).tobytes()).hexdigest()
                dtype = str(obj.dtype)
            out[f"/{name}"] = f"{dtype} {list(obj.shape)} {digest}"

    with h5py.File(path, "r") as f:
        f.visititems(visit)
    return out


def new_name(old):
    for before, after in LAYOUT_MAP:
        if before.endswith("/") and old.startswith(before):
            return after + old[len(before):]
        if old == before:
            return after
    return old


def read_pins(path):
    pins = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                name, rest = line.split(" ", 1)
                pins[name] = rest
    return pins


def compare(pinned_path, result_path):
    actual = fingerprints(result_path)
    problems = []
    expected = {}
    for old, value in read_pins(pinned_path).items():
        expected[new_name(old)] = (old, value)
    for name, (old, value) in sorted(expected.items()):
        label = name if name == old else f"{name} (pinned as {old})"
        if name not in actual:
            problems.append(f"missing {label}")
        elif actual[name] != value:
            problems.append(f"changed {label}: pinned {value}, now {actual[name]}")
    for name in sorted(set(actual) - set(expected)):
        if name not in NEW_DATASETS:
            problems.append(f"unexpected dataset {name} {actual[name]}")
    for name in sorted(NEW_DATASETS - set(actual)):
        problems.append(f"missing new dataset {name}")
    print("\n".join(problems))
    return 1 if problems else 0


def main(argv):
    if len(argv) == 4 and argv[1] == "--compare":
        return compare(argv[2], argv[3])
    if len(argv) == 2 and not argv[1].startswith("--"):
        actual = fingerprints(argv[1])
        print("\n".join(f"{name} {value}" for name, value in sorted(actual.items())))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
