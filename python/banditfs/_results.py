"""Results written by ``banditfs run`` (a cluster's, say) read back (``docs/python.md``, "Results")."""
import numpy as np

from . import _core

_STABILITY_COLUMNS = ("selection_frequency", "importance_mean", "importance_sd", "importance_q05", "importance_q50",
                      "importance_q95", "rank_mean", "rank_sd")


def summary_frame(result):
    """The per-feature table of a result dict: summary.csv's columns in its order (``output/summary_csv.cpp``), the
    numbers at full precision (summary.csv rounds the importance to 6 decimals)."""
    import pandas as pd

    p = len(result["feature_names"])
    selected = np.zeros(p, dtype=np.int64)
    selected[result["selected"]] = 1
    columns = {"feature": np.arange(p), "name": result["feature_names"], "importance": result["importance"],
               "selected": selected, "rank": result["rank"]}
    if result["missing"] is not None:
        columns["missing"] = result["missing"]
    if result["importance_lo"] is not None:
        columns["importance_lo"] = result["importance_lo"]
        columns["importance_hi"] = result["importance_hi"]
    if result["stability"] is not None:
        for name in _STABILITY_COLUMNS:
            columns[name] = result["stability"][name]
    for name in result["feature_columns"]:
        columns[name] = result["datasets"][name]
    return pd.DataFrame(columns)


def read_result(path):
    """A run's result: its per-feature table and the method's own datasets.

    Parameters
    ----------
    path : str or os.PathLike
        A result.h5, or the run's output directory.

    Returns
    -------
    summary : pandas.DataFrame
        One row per feature with summary.csv's columns (feature, name, importance, selected, rank, then missing,
        the interval, the summary of R runs and the method's feature columns when the result has them).
    datasets : dict
        The method's own datasets by name (``"alpha"``, ``"evaluations/test_score"``, ...), plus ``"trajectory"``
        when the method has one, and ``"result"``: the whole result (facts, timings, the job's text, ...).

    Raises
    ------
    OSError
        A missing or unreadable file, or a torn output set (the CLI's message).
    """
    result = _core.read_result(str(path))
    datasets = dict(result["datasets"])
    if result["trajectory"] is not None:
        datasets["trajectory"] = result["trajectory"]
    datasets["result"] = result
    return summary_frame(result), datasets
