"""CmabScores: feature scores of a contextual-bandit log (method ``cmab-scores``; docs/cmab.md)."""
import numpy as np
from sklearn.utils.validation import check_array, column_or_1d

from . import _core, _jobs, _tables
from ._base import BaseSelector, progress_printer


def _sorted_labels(labels):
    """The log reader's label order (detail::sort_labels): by value when every label is a number (ties by text),
    else as text."""
    try:
        keys = [(float(label), label) for label in labels]
    except ValueError:
        return sorted(labels)
    if any(np.isnan(k[0]) or np.isinf(k[0]) for k in keys):
        return sorted(labels)
    return [label for _, label in sorted(keys)]


def _resorted(raw, labels):
    """A categorical column's codes remapped to the sorted labels (a log's codes follow them)."""
    order = _sorted_labels(labels)
    new_code = {label: code for code, label in enumerate(order)}
    remap = np.array([new_code[label] for label in labels], dtype=np.float32)
    present = ~np.isnan(raw)
    out = raw.copy()
    out[present] = remap[raw[present].astype(np.int64)]
    return out, order


class CmabScores(BaseSelector):
    """Scores the features of a contextual-bandit log by how much they change the best arm (method ``cmab-scores``).

    ``fit(X, arm, reward)``: X the context of each row, arm the arm served, reward 0 or 1.

    Parameters
    ----------
    bins : int, optional
        ``method.bins``: quantile bins per numeric feature.
    select : str, optional
        ``method.select`` (shadow, top).
    select_top : int, optional
        ``method.select_top``.
    control_arm : str, optional
        ``method.control_arm``.
    params, random_state, n_jobs, verbose
        As for BanditSelector (``params``: any other job key).

    Attributes
    ----------
    support_, importances_, ranking_, n_features_in_, feature_names_in_, result_
        As for BanditSelector; importances_ are the combined scores.
    arm_labels_ : list of str
        The arms, in the log reader's order.
    """

    _method = "cmab-scores"

    def __init__(self, bins=None, select=None, select_top=None, control_arm=None, params=None, random_state=None,
                 n_jobs=None, verbose=0):
        self.bins = bins
        self.select = select
        self.select_top = select_top
        self.control_arm = control_arm
        self.params = params
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.verbose = verbose

    def _own_items(self):
        return [("method.bins", self.bins), ("method.select", self.select), ("method.select_top", self.select_top),
                ("method.control_arm", self.control_arm)]

    def _items(self, positive_label=None):
        return (self._own_items() + _jobs.section_items(self.params, "params") +
                [("run.seed", _jobs.seed_of(self.random_state)), ("run.threads", _jobs.threads_of(self.n_jobs))])

    def to_job(self, data_path=None, arm=None, reward=None):
        """The equivalent job file: the canonical TOML text of these parameters (every key).

        Parameters
        ----------
        data_path : str, optional
            A log file (CSV or HDF5) to name in ``[data]``.
        arm, reward : str, optional
            Its columns of the arm served and of the reward (``data.arm``, ``data.reward``).

        Returns
        -------
        str
            TOML text for ``banditfs run``.
        """
        items = self._items()
        if data_path is not None:
            source = "hdf5" if str(data_path).endswith((".h5", ".hdf5")) else "csv"
            items += [("data.source", source), ("data.path", str(data_path)), ("data.arm", arm),
                      ("data.reward", reward)]
        return _jobs.make_job(self._method, items).text

    def fit(self, X, arm, reward):
        """Scores the features of the log (X, arm, reward).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_rows, n_features)
            The context; NaN is missing; a DataFrame's text and categorical columns are categorical.
        arm : array-like of shape (n_rows,)
            The arm served (any labels; at least two).
        reward : array-like of shape (n_rows,)
            0 or 1.

        Returns
        -------
        self
        """
        job = self._job()
        X_, columns = self._table(X, reset=True)
        names, categorical, labels = columns
        for j in np.flatnonzero(categorical):
            X_[:, j], labels[j] = _resorted(X_[:, j], labels[j])
        arm = column_or_1d(arm)
        arm_text = np.array([_tables._label(a) for a in arm], dtype=object)
        self.arm_labels_ = _sorted_labels(sorted(set(arm_text)))
        code = {label: c for c, label in enumerate(self.arm_labels_)}
        arm_codes = np.array([code[a] for a in arm_text], dtype=np.int32)
        reward = check_array(column_or_1d(reward), ensure_2d=False, dtype=np.float64)
        columns = _core.Columns(names, categorical, labels)
        result = _core.run_log(job, X_, arm_codes, self.arm_labels_, reward, columns, "X",
                               progress_printer(self.verbose))
        self.positive_label_ = None
        self._set_result(result)
        return self

    def _more_tags(self):
        return {"allow_nan": True, "requires_y": True}
