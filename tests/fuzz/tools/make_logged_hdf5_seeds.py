#!/usr/bin/python3
"""Writes the small HDF5 seed files of tests/fuzz/corpus/logged_hdf5/ (docs/fuzzing.md): contextual-bandit logs in
the layout of src/data/logged_data.hpp's header comment, in the layouts, types and string forms the reader accepts
(plus a few it must refuse), each file 1-6 KB. Not part of the build; run once (h5py):
    /usr/bin/python3 tests/fuzz/tools/make_logged_hdf5_seeds.py tests/fuzz/corpus/logged_hdf5
The corpus also holds one file written by `banditfs simulate cmab-hte --n 30 --p 10 --seed 3` (12 KB).
"""
import os
import sys

import h5py
import numpy as np


def dataset(f, name, data, layout="contiguous", dtype=None, chunks=None, gzip=False):
    if layout == "compact":  # h5py has no keyword for it: the low-level API
        arr = np.asarray(data)
        tid = h5py.h5t.py_create(arr.dtype, logical=True)
        dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        dcpl.set_layout(h5py.h5d.COMPACT)
        dsid = h5py.h5d.create(f.id, name.encode(), tid, h5py.h5s.create_simple(arr.shape), dcpl=dcpl)
        dsid.write(h5py.h5s.ALL, h5py.h5s.ALL, arr, mtype=tid)
        return
    kwargs = {}
    if layout == "chunked":
        kwargs["chunks"] = chunks if chunks is not None else True
        if gzip:
            kwargs["compression"] = "gzip"
    f.create_dataset(name, data=data, dtype=dtype, **kwargs)


VLEN = h5py.string_dtype("utf-8")


def fixed(strings, pad=b"\0"):
    width = max(1, max(len(s) for s in strings))
    return np.array([s.encode().ljust(width, pad) for s in strings], dtype=f"S{width}")


def space_padded(f, name, strings):
    """A fixed-length, space-padded (Fortran-style) string dataset."""
    arr = fixed(strings, b" ")
    tid = h5py.h5t.C_S1.copy()
    tid.set_size(arr.dtype.itemsize)
    tid.set_strpad(h5py.h5t.STR_SPACEPAD)
    space = h5py.h5s.create_simple(arr.shape)
    dsid = h5py.h5d.create(f.id, name.encode(), tid, space)
    dsid.write(h5py.h5s.ALL, h5py.h5s.ALL, arr, mtype=tid)


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(15)

    # The smallest whole log: compact datasets, latest format, no feature names (x1..xp).
    with h5py.File(f"{out}/compact_latest_minimal.h5", "w", libver="latest") as f:
        dataset(f, "X", np.arange(12, dtype=np.float32).reshape(4, 3) / 4, "compact")
        dataset(f, "arm", np.array([0, 1, 0, 1], dtype=np.int32), "compact")
        dataset(f, "arm_labels", fixed(["a", "b"]), "compact")
        dataset(f, "reward", np.array([1, 0, 0, 1], dtype=np.float64), "compact")

    # Categorical columns with CSR labels (fixed-length strings), a flagged column without labels, NaN, truth,
    # correlational; contiguous, earliest format.
    with h5py.File(f"{out}/categorical_contiguous_earliest.h5", "w", libver="earliest") as f:
        x = np.array([[0.5, 1, 0, 3], [np.nan, 0, 2, 7], [1.5, np.nan, 1, 0], [2.5, 1, 2, 1], [-1, 0, 0, 2], [0, 1, 1, 5]],
                     dtype=np.float32)
        dataset(f, "X", x)
        dataset(f, "arm", np.array([2, 0, 1, 2, 1, 0], dtype=np.int32))
        dataset(f, "arm_labels", fixed(["ctl", "t1", "t2"]))
        dataset(f, "reward", np.array([1, 0, 1, 1, 0, 0], dtype=np.float64))
        dataset(f, "feature_names", fixed(["age", "sex", "region", "count"]))
        dataset(f, "categorical", np.array([0, 1, 1, 1], dtype=np.int32))
        dataset(f, "category_labels", fixed(["f", "m", "north", "south", "west"]))
        dataset(f, "category_offsets", np.array([0, 0, 2, 5, 5], dtype=np.int64))
        dataset(f, "truth", np.array([0, 2], dtype=np.int32))
        f.attrs.create("correlational", np.array([3], dtype=np.int32))

    # The writer's layout: /X chunked min(65536, n) x min(64, p), variable-length strings.
    with h5py.File(f"{out}/chunked_writer_layout_vlen.h5", "w", libver="latest") as f:
        n, p = 8, 5
        dataset(f, "X", rng.standard_normal((n, p)).astype(np.float32), "chunked", chunks=(n, p))
        dataset(f, "arm", np.array([0, 1, 2, 0, 1, 2, 0, 1], dtype=np.int32))
        dataset(f, "arm_labels", np.array(["arm0", "arm1", "arm2"], dtype=object), dtype=VLEN)
        dataset(f, "reward", np.array([0, 1, 1, 0, 1, 0, 0, 1], dtype=np.float64))
        dataset(f, "feature_names", np.array([f"x{j + 1}" for j in range(p)], dtype=object), dtype=VLEN)
        dataset(f, "categorical", np.array([0, 0, 0, 0, 1], dtype=np.int32))
        dataset(f, "category_labels", np.array(["lo", "hi"], dtype=object), dtype=VLEN)
        dataset(f, "category_offsets", np.array([0, 0, 0, 0, 0, 2], dtype=np.int64))
        f["X"][:, 4] = np.array([0, 1, 1, 0, np.nan, 1, 0, 0], dtype=np.float32)

    # Small chunks (strips of 3 rows, 2 columns) with gzip; integer X, arm and reward; space-padded labels.
    with h5py.File(f"{out}/gzip_small_chunks_integers.h5", "w", libver="latest") as f:
        n, p = 7, 5
        dataset(f, "X", rng.integers(-50, 50, (n, p)).astype(np.int16), "chunked", chunks=(3, 2), gzip=True)
        dataset(f, "arm", np.array([1, 0, 1, 0, 1, 1, 0], dtype=np.uint8), "chunked", chunks=(4,), gzip=True)
        space_padded(f, "arm_labels", ["no", "yes"])
        dataset(f, "reward", np.array([1, 1, 0, 0, 1, 0, 1], dtype=np.int8))
        space_padded(f, "feature_names", ["a", "bb", "ccc", "dddd", "e"])

    # float64 X, big-endian arm, the attribute and truth at their bounds.
    with h5py.File(f"{out}/float64_bigendian.h5", "w", libver="earliest") as f:
        dataset(f, "X", np.array([[1e30, -1e-30], [3.4e38, 0], [-3.4e38, 1]], dtype=np.float64))
        dataset(f, "arm", np.array([1, 0, 1], dtype=">i4"))
        dataset(f, "arm_labels", fixed(["1", "0"]))
        dataset(f, "reward", np.array([0, 1, 0], dtype=">f8"))
        dataset(f, "truth", np.array([0, 1], dtype=np.int32))
        f.attrs.create("correlational", np.array([1, 0], dtype=">i2"))

    # Logs the reader must refuse (at open or in columns()).
    def base(f, x, arm, reward):
        dataset(f, "X", np.asarray(x, dtype=np.float32), "compact")
        dataset(f, "arm", np.asarray(arm, dtype=np.int32), "compact")
        dataset(f, "arm_labels", fixed(["a", "b"]), "compact")
        dataset(f, "reward", np.asarray(reward, dtype=np.float64), "compact")

    with h5py.File(f"{out}/bad_arm_code.h5", "w", libver="latest") as f:
        base(f, [[1], [2], [3]], [0, 1, 2], [0, 1, 1])
    with h5py.File(f"{out}/bad_inf_in_x.h5", "w", libver="latest") as f:
        base(f, [[1, np.inf], [2, 0], [3, 1]], [0, 1, 0], [0, 1, 1])
    with h5py.File(f"{out}/bad_code_outside_labels.h5", "w", libver="latest") as f:
        base(f, [[1, 0], [2, 2], [3, 1]], [0, 1, 0], [0, 1, 1])
        dataset(f, "categorical", np.array([0, 1], dtype=np.int32), "compact")
        dataset(f, "category_labels", fixed(["u", "v"]), "compact")
        dataset(f, "category_offsets", np.array([0, 0, 2], dtype=np.int64), "compact")
    with h5py.File(f"{out}/bad_labels_on_numeric_column.h5", "w", libver="latest") as f:
        base(f, [[1, 0], [2, 1], [3, 1]], [0, 1, 0], [0, 1, 1])
        dataset(f, "category_labels", fixed(["u", "v"]), "compact")
        dataset(f, "category_offsets", np.array([0, 2, 2], dtype=np.int64), "compact")
    with h5py.File(f"{out}/bad_reward_half.h5", "w", libver="latest") as f:
        base(f, [[1], [2], [3]], [0, 1, 0], [0, 0.5, 1])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/fuzz/corpus/logged_hdf5")
