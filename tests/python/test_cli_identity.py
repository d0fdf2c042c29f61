"""A selector and `banditfs run` on the same data (written to CSV), job (the selector's to_job) and seed give the
same result bit for bit: importances, selection, ranks, trajectories and the method's datasets."""
import os
import tempfile
import unittest

import numpy as np
import pandas as pd

from banditfs import BanditSelector, CmabScores, FirstSelector, FuseSelector
from helpers import BANDIT, FUSE, binary_data, regression_data, run_cli, table, write_csv


def assert_same(test, ours, cli):
    for key in ("feature_names", "stop_reason", "iterations"):
        test.assertEqual(ours[key], cli[key], key)
    for key in ("importance", "selected", "rank", "trajectory", "importance_lo", "importance_hi", "missing"):
        if ours[key] is None:
            test.assertIsNone(cli[key], key)
        else:
            np.testing.assert_array_equal(ours[key], cli[key], err_msg=key)  # exact: NaN equal to NaN, no tolerance
    test.assertEqual(sorted(ours["datasets"]), sorted(cli["datasets"]))
    for name, values in ours["datasets"].items():
        if isinstance(values, list):
            test.assertEqual(values, cli["datasets"][name], name)
        else:
            np.testing.assert_array_equal(values, cli["datasets"][name], err_msg=name)


class CliIdentity(unittest.TestCase):
    def identical(self, selector, X, y, *overrides):
        selector.fit(X, y)
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "data.csv")
            write_csv(path, X, y)
            cli = run_cli(selector.to_job(data_path=path, target="y"), *overrides)
        assert_same(self, selector.result_, cli)
        return selector

    def test_bandit(self):
        X, y = regression_data()
        s = self.identical(BanditSelector(**BANDIT, random_state=3, n_jobs=2), X, y)
        self.assertEqual(s.trajectory_.shape, (6, 6))
        self.assertTrue(np.array_equal(s.alpha_ / (s.alpha_ + s.beta_), s.importances_))

    def test_bandit_binary_table_with_noise_columns(self):
        # A DataFrame with NaN and a categorical column; y as two text classes; 3 noise columns the job adds.
        X, y = table()
        # numeric categories: the CSV reads them as numbers unless to_job names them in data.categorical
        X["grade"] = pd.Categorical(np.random.default_rng(3).choice([1, 2, 3], len(X)))
        y = y + 3.0 * (X["grade"] == 2).to_numpy()  # the middle level matters: its coding changes the fits
        labels = np.where(y > np.median(y), "high", "low")
        s = BanditSelector(**BANDIT, task="binary", params={"data.noise_features": 3}, random_state=5)
        s.fit(X, labels)
        self.assertEqual(s.positive_label_, None)
        self.assertEqual(len(s.result_["feature_names"]), X.shape[1] + 3)
        self.assertEqual(len(s.importances_), X.shape[1])
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "data.csv")
            write_csv(path, X, (labels == "low").astype(float))  # "low" > "high": the greater class is positive
            cli = run_cli(s.to_job(data_path=path, target="y"))
        assert_same(self, s.result_, cli)
        self.assertEqual(cli["datasets"]["alpha"].shape, (X.shape[1] + 3,))

    def test_first(self):
        X, y = regression_data()
        self.identical(FirstSelector(random_state=2), X, y)

    def test_fuse(self):
        X, y = binary_data()
        self.identical(FuseSelector(**FUSE, random_state=4), X, y)

    def test_cmab_scores(self):
        rng = np.random.default_rng(7)
        n = 3000
        X = rng.normal(size=(n, 3)).astype(np.float32)
        arm = rng.choice(["treated", "control"], n)
        p = 0.3 + 0.4 * ((X[:, 0] > 0) == (arm == "treated"))
        reward = (rng.random(n) < p).astype(np.float64)
        s = CmabScores(bins=4, random_state=1).fit(X, arm, reward)
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "log.csv")
            frame = pd.DataFrame({f"x{j + 1}": ["%.9g" % v for v in X[:, j]] for j in range(3)})
            frame["arm"] = arm
            frame["reward"] = reward.astype(int)
            frame.to_csv(path, index=False)
            cli = run_cli(s.to_job(data_path=path, arm="arm", reward="reward"))
        assert_same(self, s.result_, cli)


if __name__ == "__main__":
    unittest.main()
