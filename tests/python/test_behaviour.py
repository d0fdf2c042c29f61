"""What a Python user expects of the selectors: pandas and numpy alike, categorical and NaN columns, Pipeline +
clone + GridSearchCV, Ctrl-C, errors naming the parameter, progress lines, results read back."""
import io
import os
import signal
import subprocess
import sys
import tempfile
import threading
import unittest
from contextlib import redirect_stderr

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import Pipeline

import banditfs
from banditfs import BanditSelector, FirstSelector
from helpers import BANDIT, CLI, regression_data, table


class Inputs(unittest.TestCase):
    def test_pandas_and_numpy_give_the_same_result(self):
        X, y = regression_data()
        frame = pd.DataFrame(X, columns=[f"x{j + 1}" for j in range(X.shape[1])])
        a = BanditSelector(**BANDIT, random_state=1).fit(X, y)
        b = BanditSelector(**BANDIT, random_state=1).fit(frame, pd.Series(y))
        np.testing.assert_array_equal(a.importances_, b.importances_)
        np.testing.assert_array_equal(a.trajectory_, b.trajectory_)
        np.testing.assert_array_equal(a.support_, b.support_)
        self.assertEqual(list(b.feature_names_in_), list(frame.columns))
        self.assertFalse(hasattr(a, "feature_names_in_"))
        # float64 and Fortran-ordered input: converted once, the same numbers
        c = BanditSelector(**BANDIT, random_state=1).fit(np.asfortranarray(X.astype(np.float64)), y)
        np.testing.assert_array_equal(a.importances_, c.importances_)

    def test_categorical_and_nan_columns(self):
        X, y = table()
        s = BanditSelector(**BANDIT, random_state=2).fit(X, y)
        self.assertEqual(s.importances_.shape, (5,))  # colour is one feature of its indicator columns
        self.assertEqual(s.result_["missing"].tolist(), [0, 15, 0, 0, 1])
        out = s.transform(X)
        self.assertIsInstance(out, pd.DataFrame)
        self.assertEqual(list(out.columns), list(X.columns[s.support_]))
        self.assertEqual(list(s.get_feature_names_out()), list(X.columns[s.support_]))
        # text (object) columns are categorical too, as in a CSV; an all-missing column is refused, as by the CLI
        X2 = X.assign(colour=X["colour"].astype(object))
        s2 = BanditSelector(**BANDIT, random_state=2).fit(X2, y)
        np.testing.assert_array_equal(s.importances_, s2.importances_)
        with self.assertRaisesRegex(ValueError, "column 'empty' is empty"):
            BanditSelector(**BANDIT).fit(X.assign(empty=np.nan), y)

    def test_pipeline_clone_grid_search(self):
        X, y = regression_data(n=90)
        pipe = Pipeline([("select", BanditSelector(**BANDIT, random_state=1)), ("model", LinearRegression())])
        self.assertEqual(clone(pipe).get_params()["select__iterations"], 6)
        scores = cross_val_score(pipe, X, y, cv=3)
        self.assertEqual(len(scores), 3)
        grid = GridSearchCV(pipe, {"select__threshold": [0.0, 0.05]}, cv=2).fit(X, y)
        self.assertIn(grid.best_params_["select__threshold"], (0.0, 0.05))


class Errors(unittest.TestCase):
    def test_bad_parameters_raise_value_error_naming_them(self):
        X, y = regression_data(n=40)
        for selector, name in [(BanditSelector(threshold=2.0), "reward.threshold"),
                               (BanditSelector(policy="nope"), "bandit.policy"),
                               (BanditSelector(estimator_params={"n_estimators": -1}), "estimator.n_estimators"),
                               (BanditSelector(params={"bandit.itrations": 3}), "bandit.itrations"),
                               (FirstSelector(max_selected=-2), "method.max_selected"),
                               (BanditSelector(threshold=object()), "reward.threshold")]:
            with self.subTest(name=name), self.assertRaisesRegex(ValueError, name.replace(".", r"\.")):
                selector.fit(X, y)

    def test_inf_in_x_names_row_and_column(self):
        X, y = regression_data(n=40)
        X[7, 3] = np.inf  # an array: scikit-learn's check says it; a DataFrame: the CLI's reader, naming the cell
        with self.assertRaisesRegex(ValueError, "infinity"):
            BanditSelector(**BANDIT).fit(X, y)
        with self.assertRaisesRegex(ValueError, "row 7.*'d'"):
            BanditSelector(**BANDIT).fit(pd.DataFrame(X, columns=list("abcdef")), y)

    def test_a_missing_result_is_an_os_error(self):
        with self.assertRaises(OSError):
            banditfs.read_result("/nonexistent/result.h5")


class Running(unittest.TestCase):
    def test_keyboard_interrupt_stops_a_long_fit(self):
        X, y = regression_data()
        long_fit = BanditSelector(**{**BANDIT, "iterations": 1000000}, n_jobs=1)
        main = threading.main_thread().ident
        timer = threading.Timer(1.0, signal.pthread_kill, (main, signal.SIGINT))
        timer.start()
        try:
            with self.assertRaises(KeyboardInterrupt):
                long_fit.fit(X, y)
        finally:
            timer.cancel()
        self.assertFalse(hasattr(long_fit, "support_"))

    def test_verbose_prints_the_progress_line(self):
        X, y = regression_data()
        err = io.StringIO()
        with redirect_stderr(err):
            BanditSelector(**BANDIT, verbose=1, params={"run.progress_seconds": 0.0}).fit(X, y)
        lines = err.getvalue().splitlines()
        self.assertEqual(len(lines), 6)
        self.assertRegex(lines[-1], r"^iteration 6/6 \(100%\) .* selected \d+$")
        err = io.StringIO()
        with redirect_stderr(err):
            BanditSelector(**BANDIT).fit(X, y)
        self.assertEqual(err.getvalue(), "")

    def test_to_job_and_read_result(self):
        X, y = regression_data()
        s = BanditSelector(**BANDIT, random_state=9)
        text = s.to_job()
        self.assertIn("iterations = 6", text)
        self.assertIn("seed = 9", text)
        self.assertEqual(banditfs.Job.parse(text).text, text)
        with tempfile.TemporaryDirectory() as work:
            sim = os.path.join(work, "sim.h5")
            subprocess.run([CLI, "simulate", "friedman1", "--n", "60", "--p", "5", "--out", sim], check=True,
                           stdout=subprocess.DEVNULL)
            job = os.path.join(work, "job.toml")
            with open(job, "w") as f:
                f.write(s.to_job(data_path=sim))
            subprocess.run([CLI, "run", job, "--out", os.path.join(work, "out"), "--quiet"], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            summary, datasets = banditfs.read_result(os.path.join(work, "out"))
            csv = pd.read_csv(os.path.join(work, "out", "summary.csv"))
        self.assertEqual(list(summary.columns), list(csv.columns))
        self.assertEqual(summary["name"].tolist(), csv["name"].tolist())
        np.testing.assert_allclose(summary["importance"], csv["importance"], atol=5e-7)
        self.assertEqual(datasets["trajectory"].shape, (6, 5))
        self.assertIn("alpha", datasets)


if __name__ == "__main__":
    unittest.main()


class Threads(unittest.TestCase):
    """The CLI's load rule (src/api/cpu_load.hpp), applied at import and at each fit."""

    def test_the_packages_constants_are_the_librarys(self):
        self.assertEqual(banditfs._LOAD_WINDOW_MS, banditfs._core.LOAD_WINDOW_MS)
        self.assertEqual(banditfs._BUSY_CPUS, banditfs._core.BUSY_CPUS)
        self.assertEqual(banditfs._CPU_BUSY_VARIABLE, banditfs._core.CPU_BUSY_VARIABLE)

    def test_busy_cpus_of_two_proc_stat_texts(self):
        before = "cpu  9 9 9 9 9 9 9 9\ncpu0 10 0 10 70 10 0 0 0\ncpu1 0 0 0 100 0 0 0 0\nintr 5\n"
        after = "cpu  9 9 9 9 9 9 9 9\ncpu0 20 0 10 90 20 0 0 10\ncpu1 10 0 0 130 0 0 0 0\nintr 9\n"
        # cpu0: 50 ticks, 20 idle + 10 iowait -> 0.4 busy; cpu1: 40 ticks, 30 idle -> 0.25 busy
        self.assertAlmostEqual(banditfs._busy_cpus(before, after, [0, 1]), 0.65, places=12)
        self.assertAlmostEqual(banditfs._busy_cpus(before, after, [1]), 0.25, places=12)

    def _in_a_new_python(self, busy):
        code = ("import os, banditfs; from helpers import BANDIT, regression_data; X, y = regression_data(); "
                "s = banditfs.BanditSelector(**BANDIT, n_jobs=2).fit(X, y); "
                "print(os.environ.get('OMP_WAIT_POLICY'), s.result_['threads'])")
        env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
        env["BANDITFS_CPU_BUSY"] = busy
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              cwd=os.path.dirname(os.path.abspath(__file__)))
        self.assertEqual(done.returncode, 0, done.stderr)
        return done.stdout.split()

    def test_busy_cpus_make_threads_wait_passively_and_fewer(self):
        self.assertEqual(self._in_a_new_python(str(len(os.sched_getaffinity(0)))), ["passive", "1"])

    def test_idle_cpus_keep_libgomps_default_and_the_threads(self):
        self.assertEqual(self._in_a_new_python("0"), ["None", "2"])
