"""Tables and targets as the library API takes them (``docs/python.md``, "Data").

A pandas DataFrame goes the way its CSV file would go through ``banditfs run``: a numeric column is numbers (NaN =
missing), a categorical, boolean or text column is categorical (its labels as the CSV holds them, a missing cell
its own level), and the C++ side codes the levels with the CSV reader's rules (``data/categorical.hpp``). A numpy
array is numbers. X reaches C++ as a C-contiguous float32 array: one of those is passed without a copy, anything
else is converted once.
"""
import math
import numbers

import numpy as np



def is_frame(X):
    """True for a pandas DataFrame (without importing pandas for numpy input)."""
    return hasattr(X, "columns") and hasattr(X, "dtypes") and hasattr(X, "iloc")


def _number_label(value):
    """A number as the CSV reader names its level: the shortest round-trip form, 1 for 1.0 (``label_of``)."""
    v = float(value)
    if v.is_integer() and abs(v) < 1e16:
        return str(int(v))
    return repr(v)


def _label(value):
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, numbers.Number):
        return _number_label(value)
    return str(value)


def _codes(labels_of_rows, missing):
    """Codes 0..L-1 into the labels (first seen first; the C++ side sorts the levels), NaN where missing."""
    code_of = {}
    raw = np.full(len(labels_of_rows), np.nan, dtype=np.float32)
    for i, (label, absent) in enumerate(zip(labels_of_rows, missing)):
        if not absent:
            raw[i] = code_of.setdefault(label, len(code_of))
    return raw, list(code_of)


def _as_numbers(values, missing):
    """The column as float64 when every present cell is a number (a CSV reads such a column as numbers), else None."""
    out = np.full(len(values), np.nan)
    for i, (value, absent) in enumerate(zip(values, missing)):
        if absent:
            continue
        if isinstance(value, (bool, np.bool_)):
            return None
        try:
            out[i] = float(value)
        except (TypeError, ValueError):
            return None
        if math.isnan(out[i]):
            return None
    return out


def _column(series):
    """(raw float32 values, labels or None) of one DataFrame column."""
    import pandas as pd
    from pandas.api import types

    dtype = series.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        codes = series.cat.codes.to_numpy()
        labels = [_label(c) for c in series.cat.categories]
        return np.where(codes < 0, np.nan, codes).astype(np.float32), labels
    if types.is_bool_dtype(dtype):  # a CSV holds True / False: text, so categorical
        missing = series.isna().to_numpy()
        return _codes([_label(v) if not m else None for v, m in zip(series, missing)], missing)
    if types.is_numeric_dtype(dtype) and not types.is_complex_dtype(dtype):
        return series.to_numpy(dtype=np.float64, na_value=np.nan).astype(np.float32), None
    values = series.to_numpy(dtype=object)
    missing = pd.isna(series).to_numpy()
    numbers_ = _as_numbers(values, missing)
    if numbers_ is not None:
        return numbers_.astype(np.float32), None
    return _codes([_label(v) for v in values], missing)


def frame_table(frame):
    """(X float32 C-order, [names, categorical flags, labels]) of a DataFrame: names as text, categorical columns as
    codes and labels (the arguments of _core.Columns)."""
    n, p = frame.shape
    X = np.empty((n, p), dtype=np.float32)
    categorical = [0] * p
    labels = [[] for _ in range(p)]
    for j in range(p):
        values, column_labels = _column(frame.iloc[:, j])
        X[:, j] = values
        if column_labels is not None:
            categorical[j] = 1
            labels[j] = column_labels
    names = [str(c) for c in frame.columns]
    return X, [names, categorical, labels]


def numeric_columns():
    """The columns of a numpy X: x1..xp (the CLI's default names), none categorical."""
    return [[], [], []]


def binary_target(y, positive_label):
    """y for data.task = "binary" and the positive label to write into the job.

    scikit-learn names the classes by their sorted values and calls the greater the positive one; the CLI maps
    {0, 1} and {-1, 1} itself and needs data.positive_label for any other pair. So: a pair the CLI maps is passed as
    it is; any other pair (text labels included) becomes 0/1 with ``positive_label``, or the greater class when it is
    None, and that label goes into the job. More or fewer than two classes are left to the CLI's check and message.
    """
    y = np.asarray(y)
    if y.dtype.kind in "fiub":
        classes = np.unique(y.astype(np.float64))
        if positive_label is None and (set(classes) <= {0.0, 1.0} or set(classes) <= {-1.0, 1.0}):
            return y.astype(np.float64), None
        if len(classes) != 2:
            return y.astype(np.float64), positive_label
        positive = classes[1] if positive_label is None else positive_label
        return y.astype(np.float64), positive
    text = np.array([str(v) for v in y], dtype=object)
    classes = sorted(set(text))
    if len(classes) != 2:
        raise ValueError(
            f"data.task = \"binary\" needs exactly two classes in y; it has {len(classes)}: {classes[:3]}")
    positive = classes[1] if positive_label is None else str(positive_label)
    if positive not in classes:
        raise ValueError(f"data.positive_label = {positive!r} is not one of the two classes of y {classes}")
    return (text == positive).astype(np.float64), None
