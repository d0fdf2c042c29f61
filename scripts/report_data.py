"""Reading a banditfs result directory for scripts/report.py: the checks that refuse a missing or torn directory,
and the result's facts and per-feature data as one dictionary.

What is read (docs/design.md §4; methods/result.hpp's layout rule): result.h5's neutral root datasets
(/feature_names, /importance, /selected, /rank, /importance_lo, /importance_hi, /trajectory, /truth, /missing), its
root attributes (the run's facts and timings), the summary of R runs in /stability, the method's own group (/bandit,
/first, /fuse, /cmab: its attributes and small datasets), and run.json beside it (which pins result.h5's size and
FNV-1a digest, so a set torn by a kill between renames is recognised, as `banditfs inspect` does).
"""
import json
import os
import tomllib

import h5py
import numpy as np

from banditfs_style import attrs_of, decode

# Above this size result.h5's digest is not recomputed (pure Python FNV-1a reads about 2 MB/s); its size still is.
DIGEST_LIMIT_BYTES = 16 * 1024 * 1024
# Method datasets read into memory; larger ones (e.g. /cmab/cells on a wide log) are not needed by any picture.
DATASET_LIMIT_ELEMENTS = 5_000_000


class ReportError(Exception):
    """A result directory the report cannot be made of; the message names the file and what to do."""


def fnv1a64(path):
    """The 64-bit FNV-1a digest of a file as 16 hex digits (core/fnv1a.hpp)."""
    value = 0xCBF29CE484222325
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            for byte in chunk:
                value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{value:016x}"


def check_directory(directory):
    """-> (result.h5 path, run.json dict): ReportError when the directory, result.h5 or run.json is missing, run.json
    is not JSON, or result.h5 is not the file run.json pins (the output set is torn)."""
    if not os.path.isdir(directory):
        raise ReportError(f"'{directory}' is not a directory: give the output directory of a banditfs run "
                          "(the one holding result.h5, summary.csv and run.json)")
    h5 = os.path.join(directory, "result.h5")
    manifest = os.path.join(directory, "run.json")
    if not os.path.isfile(h5):
        raise ReportError(f"'{h5}' does not exist: '{directory}' holds no banditfs result (did the run finish?)")
    if not os.path.isfile(manifest):
        raise ReportError(f"'{manifest}' does not exist beside '{h5}': the output set is incomplete (a run ended "
                          "while writing it?); run the job again to rewrite the set")
    try:
        with open(manifest, encoding="utf-8") as f:
            run_json = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"'{manifest}' is not valid JSON ({e}): the output set is torn; run the job again")
    for entry in run_json.get("outputs", []) if isinstance(run_json, dict) else []:
        if entry.get("name") != "result.h5":
            continue
        size = os.path.getsize(h5)
        if size != entry.get("bytes") or (size <= DIGEST_LIMIT_BYTES and fnv1a64(h5) != entry.get("fnv1a64")):
            raise ReportError(f"'{h5}' does not match the run.json beside it (size or digest differ): the output set "
                              "is torn — a run ended while writing it. Run the job again to rewrite the set")
    return h5, run_json


def flags(ids, p):
    out = np.zeros(p, dtype=bool)
    ids = np.asarray(ids, dtype=np.int64).ravel()
    out[ids[(ids >= 0) & (ids < p)]] = True
    return out


def read_group(group):
    """{name: array} of a group's datasets (subgroups as "sub/name"), skipping very large ones."""
    out = {}

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset) and obj.size <= DATASET_LIMIT_ELEMENTS:
            value = obj[()]
            if obj.dtype.kind in ("S", "O"):
                value = [decode(v) for v in np.asarray(value).ravel()]
            out[name] = value

    group.visititems(visit)
    return out


def read_result(h5, run_json):
    """The report's dictionary of a result.h5 (see the module's docstring); ReportError naming the file when it
    cannot be read or its per-feature datasets disagree."""
    try:
        with h5py.File(h5, "r") as f:
            r = read_open_file(f)
    except KeyError as e:  # a dataset the layout requires is absent
        raise ReportError(f"cannot read '{h5}': {e.args[0] if e.args else e}")
    except (OSError, ValueError, TypeError) as e:
        raise ReportError(f"cannot read '{h5}': {e}")
    p = len(r["names"])
    for key in ("importance", "rank", "lo", "hi", "missing"):
        if r[key] is not None and np.shape(r[key]) != (p,):
            raise ReportError(f"'{h5}': /{key} has {np.shape(r[key])} entries, /feature_names {p}")
    if r["trajectory"] is not None and (r["trajectory"].ndim != 2 or r["trajectory"].shape[1] != p):
        raise ReportError(f"'{h5}': /trajectory does not match /feature_names ({p} features)")
    # The per-feature summary the pictures read; other /stability datasets (the runs' seeds, ...) are not drawn.
    for key in ("selection_frequency", "importance_mean", "rank_mean"):
        values = r["stability"].get(key)
        if values is not None and values.shape != (p,):
            raise ReportError(f"'{h5}': /stability/{key} has {values.shape} entries, /feature_names {p}")
    r["run_json"] = run_json if isinstance(run_json, dict) else {}
    try:
        r["job"] = tomllib.loads(r["attrs"].get("job", "") or "")
    except tomllib.TOMLDecodeError:
        r["job"] = {}
    return r


def optional(f, name, dtype=np.float64):
    return np.asarray(f[name][()], dtype=dtype) if name in f else None


def read_open_file(f):
    attrs = attrs_of(f)
    names = [decode(n) for n in f["feature_names"][()]]
    p = len(names)
    importance = optional(f, "importance")
    if importance is None:  # the older bandit-only layout
        importance = optional(f, "posterior_mean")
        attrs.setdefault("method", "bandit")
        attrs.setdefault("importance_meaning", "posterior mean")
    if importance is None:
        raise KeyError("neither /importance nor /posterior_mean")
    truth = optional(f, "truth", np.int64)
    group_name = str(attrs.get("group") or attrs.get("method") or "")
    group = f.get(group_name) if group_name else None
    stability, stability_attrs = {}, {}
    if isinstance(f.get("stability"), h5py.Group):
        stability = {k: np.asarray(v[()]) for k, v in f["stability"].items() if isinstance(v, h5py.Dataset)}
        stability_attrs = attrs_of(f["stability"])
    return {
        "attrs": attrs,
        "names": names,
        "importance": importance,
        "selected": flags(f["selected"][()], p),
        "truth": flags(truth, p) if truth is not None else None,
        "rank": optional(f, "rank", np.int64),
        "lo": optional(f, "importance_lo"),
        "hi": optional(f, "importance_hi"),
        "trajectory": optional(f, "trajectory", np.float32),
        "missing": optional(f, "missing", np.int64),
        "stability": stability,
        "stability_attrs": stability_attrs,
        "group": group_name,
        "facts": attrs_of(group) if isinstance(group, h5py.Group) else {},
        "datasets": read_group(group) if isinstance(group, h5py.Group) else {},
    }


def csv_rows(path, limit_bytes=500 * 1024 * 1024):
    """Data lines of a CSV file (its lines less the header), None when it cannot be read or is very large."""
    try:
        if os.path.getsize(path) > limit_bytes:
            return None
        with open(path, "rb") as f:
            lines = sum(1 for line in f if line.strip())
        return max(lines - 1, 0)
    except OSError:
        return None


def h5_rows(path):
    try:
        with h5py.File(path, "r") as f:
            for name in ("y", "reward", "X"):
                if name in f:
                    return int(f[name].shape[0])
    except (OSError, ValueError):
        return None
    return None


def data_rows(r):
    """(n, how it is known): the number of rows the method saw, from the job (simulated data), the method's facts
    (cmab-scores) or the data file itself when it can still be read; (None, why not) otherwise."""
    data = r["job"].get("data", {}) if isinstance(r["job"].get("data"), dict) else {}
    if "n" in r["facts"] and isinstance(r["facts"]["n"], int):
        return r["facts"]["n"], "rows of the log"
    source = data.get("source", "")
    if source == "simulate":
        return (data["n"], "simulated rows") if "n" in data else (None, "simulated (n at its default)")
    path = data.get("path")
    if not path:
        return None, "not recorded in the result"
    rows = csv_rows(path) if source == "csv" else h5_rows(path) if source == "hdf5" else None
    if rows is None:
        return None, f"not recorded in the result ({path} not readable from here)"
    dropped = int(r["attrs"].get("rows_without_target", 0) or 0)
    note = f"rows of {os.path.basename(path)}" + (f", {dropped} without a target dropped" if dropped else "")
    return rows - dropped, note
