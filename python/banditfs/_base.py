"""The scikit-learn side shared by every selector (``docs/python.md``): validation, the run, the fitted attributes."""
import sys

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from . import _core, _jobs, _tables


def progress_printer(verbose):
    """The on_progress callback of ``verbose``: None when 0; else it writes the CLI's progress line to sys.stderr
    (a terminal: one live line rewritten in place; otherwise a line each)."""
    if not verbose:
        return None
    stream = sys.stderr
    tty = hasattr(stream, "isatty") and stream.isatty()

    def on_progress(report):
        line = report["line"]
        if line is not None:
            stream.write(("\r" + line + "\033[K") if tty else (line + "\n"))
            if tty and report["last"]:
                stream.write("\n")
            stream.flush()

    return on_progress


class BaseSelector(SelectorMixin, BaseEstimator):
    """What the selectors share; a subclass names its method and maps its own parameters to job keys."""

    _method = None
    _binary_only = False

    def _own_items(self):
        """(section.key, value) of the selector's own parameters."""
        raise NotImplementedError

    def _items(self, positive_label=None):
        task = self.task if self.task is not None else ("binary" if self._binary_only else None)
        items = self._own_items()
        items += _jobs.section_items(self.params, "params")
        items += _jobs.section_items({"stability": self.stability} if self.stability else None, "stability")
        items += [("data.task", task), ("data.positive_label", positive_label if positive_label is not None
                                         else self.positive_label),
                  ("run.seed", _jobs.seed_of(self.random_state)), ("run.threads", _jobs.threads_of(self.n_jobs))]
        return items

    def _job(self, positive_label=None):
        return _jobs.make_job(self._method, self._items(positive_label))

    def to_job(self, data_path=None, target=None):
        """The equivalent job file: the canonical TOML text of these parameters (every key).

        Parameters
        ----------
        data_path : str, optional
            A CSV or HDF5 file to name in ``[data]`` (``source`` from its extension), so that ``banditfs run`` on the
            text reads the data this selector was fitted on once it is written there.
        target : str, optional
            The CSV's target column (``data.target``).

        Returns
        -------
        str
            TOML text for ``banditfs run``.
        """
        items = self._items(getattr(self, "positive_label_", None))
        if data_path is not None:
            source = "hdf5" if str(data_path).endswith((".h5", ".hdf5")) else "csv"
            items += [("data.source", source), ("data.path", str(data_path)), ("data.target", target)]
            if source == "csv" and getattr(self, "_categorical_names", None):
                # A CSV reads a column of numbers as numbers unless data.categorical names it (naming a text column
                # changes nothing), so every categorical column of the fitted DataFrame is named.
                items.append(("data.categorical", self._categorical_names))
        return _jobs.make_job(self._method, items).text

    # ---- fit ------------------------------------------------------------------------------------------------------

    def _table(self, X, reset):
        """X as the API takes it, with n_features_in_ / feature_names_in_ set (reset) or checked."""
        if _tables.is_frame(X):
            self._check_feature_names(X, reset=reset)
            self._check_n_features(X, reset=reset)
            n, p = X.shape
            if n < 2 or p < 1:
                raise ValueError(f"Found array with {n} sample(s) and {p} feature(s) while a minimum of 2 samples "
                                 "and 1 feature is required.")
            return _tables.frame_table(X)
        X = self._validate_data(X, reset=reset, dtype=np.float32, order="C", force_all_finite="allow-nan",
                                ensure_min_samples=2)
        return X, _tables.numeric_columns()

    def _target(self, y, n, task):
        if y is None:
            raise ValueError(f"{type(self).__name__} requires y to be passed, but the target y is None")
        y = column_or_1d(y, warn=True)
        if len(y) != n:
            raise ValueError(f"y has {len(y)} rows but X has {n}")
        if task == "binary":
            return _tables.binary_target(y, self.positive_label)
        return check_array(y, ensure_2d=False, dtype=np.float64), None

    def fit(self, X, y):
        """Runs the method on (X, y) in this process, as ``banditfs run`` runs its job.

        Parameters
        ----------
        X : array-like or pandas DataFrame of shape (n_samples, n_features)
            The features; NaN is a missing value; a DataFrame's categorical, boolean and text columns are
            categorical features, coded as the CLI codes a CSV file's.
        y : array-like of shape (n_samples,)
            The target: numbers (regression), or two classes (``task="binary"``).

        Returns
        -------
        self
        """
        job = self._job()  # a bad parameter fails here, before the data is looked at
        X_, columns = self._table(X, reset=True)
        y_, positive = self._target(y, X_.shape[0], job.task)
        if positive is not None:
            job = self._job(positive)
        result = _core.run_arrays(job, X_, y_, _core.Columns(*columns), "X", progress_printer(self.verbose))
        self.positive_label_ = positive
        self._categorical_names = [name for name, flag in zip(columns[0], columns[1]) if flag]
        self._set_result(result)
        return self

    def _set_result(self, result):
        """The fitted attributes: per input feature (noise or knockoff columns a job adds are in result_ only)."""
        p = self.n_features_in_
        self.result_ = result
        self.importances_ = result["importance"][:p]
        self.ranking_ = result["rank"][:p]
        selected = result["selected"]
        self.support_ = np.zeros(p, dtype=bool)
        self.support_[selected[selected < p]] = True
        self.stability_ = result["stability"]
        self.stop_reason_ = result["stop_reason"]

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_

    def transform(self, X):
        """The selected features of X: a DataFrame's selected columns with their dtypes (categorical and missing
        values as they are, for the next step of a Pipeline), else an array as scikit-learn's selectors give.

        Parameters
        ----------
        X : array-like or pandas DataFrame of shape (n_samples, n_features)

        Returns
        -------
        DataFrame or ndarray of shape (n_samples, n_selected_features)
        """
        if _tables.is_frame(X):
            check_is_fitted(self, "support_")
            self._check_feature_names(X, reset=False)
            self._check_n_features(X, reset=False)
            return X.iloc[:, np.flatnonzero(self.support_)]
        return super().transform(X)

    def _more_tags(self):
        return {"allow_nan": True, "requires_y": True, "binary_only": self._binary_only}
