"""scikit-learn's conformance suite on each selector (check_estimator, scikit-learn 1.2): every check passes or is
listed with its reason in the selector's _more_tags()["_xfail_checks"]."""
import unittest
import warnings

from sklearn.utils.estimator_checks import check_estimator

from banditfs import BanditSelector, FirstSelector, FuseSelector
from helpers import BANDIT, FUSE


class EstimatorChecks(unittest.TestCase):
    def check(self, estimator):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # generate_only: each check by name, so a failure names it.
            for est, check in check_estimator(estimator, generate_only=True):
                name = getattr(check, "func", check).__name__
                with self.subTest(check=name):
                    check(est)

    def test_bandit_selector(self):
        self.check(BanditSelector(**BANDIT))

    def test_first_selector(self):
        self.check(FirstSelector())

    def test_fuse_selector(self):
        self.check(FuseSelector(**{**FUSE, "reward_subsample": 8}))  # the checks fit 10 to 30 rows


if __name__ == "__main__":
    unittest.main()
