// The exact tree fast path on binary models against the general path (ImportancePath::Generic) under the same
// permutations, for each binary metric (AUC, log-loss, accuracy): a random-forest classifier (identity link,
// double sum) and a binary:logistic gbm (float32 margin, then XGBoost's float32 sigmoid), with NaN entries and
// tied values; singleton and grouped columns; bit-identical scores, also for 1 and 2 threads.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>

#include "core/rng.hpp"
#include "estimators/estimator.hpp"
#include "estimators/tree_ensemble.hpp"
#include "importance/permutation.hpp"
#include "request_fixture.hpp"

using namespace bfs;
using bfs::test::make_request;

namespace {

/// Columns 0–2 N(0,1), 3 integer-valued in {0..3} (ties), 4 constant, 5.. noise; P(y = 1) depends on 0, 1, 3.
struct Data {
  Matrix X_train, X_test;
  Vector y_train, y_test;
};

void fill(Matrix& X, Vector& y, Rng& rng, double holes) {
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      X(i, j) = j == 3 ? static_cast<float>(rng.uniform_int(4)) : j == 4 ? 0.5f : static_cast<float>(rng.normal());
    }
    const double m = 1.8 * X(i, 0) - std::sin(2.0 * X(i, 1)) + 0.6 * (X(i, 3) - 1.5);
    y[i] = rng.uniform() < 1.0 / (1.0 + std::exp(-m)) ? 1.0 : 0.0;
    for (Index j = 0; j < X.cols(); ++j) {
      if (j != 4 && rng.uniform() < holes) X(i, j) = std::numeric_limits<float>::quiet_NaN();
    }
  }
}

Data make_data(Index n_train, Index n_test, Index p, std::uint64_t seed, double holes) {
  Rng rng(seed);
  Data d{Matrix(n_train, p), Matrix(n_test, p), Vector(n_train), Vector(n_test)};
  fill(d.X_train, d.y_train, rng, holes);
  fill(d.X_test, d.y_test, rng, holes);
  return d;
}

/// Fast path (must be the tree path) vs general path, bit for bit, for every binary metric; returns the AUC scores.
std::vector<double> check_binary_metrics(const Model& model, const Data& d,
                                         const std::vector<std::vector<Index>>& groups) {
  std::vector<double> auc_scores;
  for (Metric metric : {Metric::Auc, Metric::LogLoss, Metric::Accuracy}) {
    BOOST_TEST_CONTEXT("metric " << name_of(metric)) {
      const auto fast =
          permutation_importance(make_request(model, d.X_test, d.y_test, groups, metric, 1, ImportancePath::Auto));
      const auto slow =
          permutation_importance(make_request(model, d.X_test, d.y_test, groups, metric, 1, ImportancePath::Generic));
      const auto fast2 =
          permutation_importance(make_request(model, d.X_test, d.y_test, groups, metric, 2, ImportancePath::Auto));
      BOOST_TEST(static_cast<int>(fast.method) == static_cast<int>(ImportanceMethod::Trees));
      BOOST_TEST(static_cast<int>(slow.method) == static_cast<int>(ImportanceMethod::Generic));
      BOOST_TEST(fast.baseline == slow.baseline);
      BOOST_TEST(fast.scores == slow.scores, boost::test_tools::per_element());
      BOOST_TEST(fast.scores == fast2.scores, boost::test_tools::per_element());
      if (metric == Metric::Auc) auc_scores = fast.scores;
    }
  }
  return auc_scores;
}

const std::vector<std::vector<Index>> kGroups = {{0, 1}, {3, 2}, {4}, {1, 5, 6}, {7}};

/// A hand-built logistic ensemble: predict = predict_ensemble (double sum, double σ), or with another, equally
/// valid σ that the fast path does not know (e/(1 + e) for negative margins), so it must fall back.
class LogisticEnsembleModel : public Model {
 public:
  LogisticEnsembleModel(TreeEnsemble ensemble, Index p, bool other_sigmoid)
      : ensemble_(std::move(ensemble)), p_(p), other_sigmoid_(other_sigmoid) {}
  Vector predict(const Matrix& X) const override {
    if (!other_sigmoid_) return predict_ensemble(ensemble_, X);
    TreeEnsemble margin = ensemble_;
    margin.link = Link::Identity;
    Vector out = predict_ensemble(margin, X);
    for (double& m : out) m = m >= 0.0 ? 1.0 / (1.0 + std::exp(-m)) : std::exp(m) / (1.0 + std::exp(m));
    return out;
  }
  std::string serialize() const override { return ""; }
  Index num_features() const override { return p_; }
  bool supports_concurrent_predict() const override { return true; }
  const TreeEnsemble* trees() const override { return &ensemble_; }

 private:
  TreeEnsemble ensemble_;
  Index p_;
  bool other_sigmoid_;
};

/// Depth-4 complete trees over columns [0, 4) with thresholds drawn from X and leaf values N(0, 1) (margins).
TreeEnsemble random_logistic_ensemble(const Matrix& X, int n_trees, Rng& rng) {
  TreeEnsemble ens;
  ens.base_score = -0.3;
  ens.scale = 0.5;
  ens.link = Link::Logistic;
  for (int t = 0; t < n_trees; ++t) {
    FlatTree tree;
    for (int node = 0; node < 31; ++node) {
      const bool leaf = node >= 15;
      const auto f = leaf ? -1 : static_cast<std::int32_t>(rng.uniform_int(4));
      float threshold = leaf ? 0.0f : X(static_cast<Index>(rng.uniform_int(static_cast<std::uint64_t>(X.rows()))), f);
      if (std::isnan(threshold)) threshold = 0.0f;
      tree.feature.push_back(f);
      tree.threshold.push_back(threshold);
      tree.left.push_back(leaf ? -1 : 2 * node + 1);
      tree.right.push_back(leaf ? -1 : 2 * node + 2);
      tree.default_left.push_back(rng.uniform() < 0.5 ? 1 : 0);
      tree.value.push_back(leaf ? rng.normal() : 0.0);
    }
    ens.trees.push_back(std::move(tree));
  }
  return ens;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fast_paths_binary_trees)

BOOST_AUTO_TEST_CASE(random_forest_classifier_matches_the_general_path_bit_for_bit) {
  const Index p = 8;
  const auto d = make_data(300, 120, p, 1, 0.0);
  for (double max_features : {1.0, 0.5}) {
    RandomForestParams params;
    params.n_estimators = 40;
    params.max_depth = 8;
    params.max_features = max_features;
    const auto model =
        make_random_forest(params, Task::Binary)->fit(d.X_train, d.y_train, FitOptions{5, 1, {}, nullptr});
    BOOST_TEST_CONTEXT("max_features " << max_features) {
      const auto single = check_binary_metrics(*model, d, singleton_groups(p));
      BOOST_TEST(single[4] == 0.0);  // the constant column is never split on
      BOOST_TEST(single[0] > 0.02);  // the strongest signal
      check_binary_metrics(*model, d, kGroups);
    }
  }
}

BOOST_AUTO_TEST_CASE(logistic_hgb_with_missing_values_matches_the_general_path_bit_for_bit) {
  const Index p = 8;
  const auto d = make_data(400, 150, p, 2, 0.1);
  HgbParams params;
  params.n_estimators = 50;
  params.max_leaves = 10;
  params.min_samples_leaf = 5;
  params.colsample = 0.8;
  params.learning_rate = 0.3;
  const auto model = make_hgb(params, Task::Binary)->fit(d.X_train, d.y_train, FitOptions{9, 1, {}, nullptr});
  BOOST_REQUIRE(model->trees() != nullptr);
  BOOST_TEST((model->trees()->link == Link::Logistic));
  const auto single = check_binary_metrics(*model, d, singleton_groups(p));
  BOOST_TEST(single[4] == 0.0);
  BOOST_TEST(single[0] > 0.02);
  check_binary_metrics(*model, d, kGroups);
}

BOOST_AUTO_TEST_CASE(logistic_gbm_with_missing_values_matches_the_general_path_bit_for_bit) {
  const Index p = 8;
  const auto d = make_data(400, 150, p, 2, 0.1);
  for (int max_leaves : {0, 10}) {
    GbmParams params;
    params.n_estimators = 50;
    params.max_depth = max_leaves > 0 ? 0 : 4;
    params.max_leaves = max_leaves;
    params.colsample = 0.8;
    params.learning_rate = 0.3;
    const auto model = make_gbm(params, Task::Binary)->fit(d.X_train, d.y_train, FitOptions{9, 1, {}, nullptr});
    BOOST_REQUIRE(model->trees() != nullptr);
    BOOST_TEST((model->trees()->link == Link::Logistic));
    BOOST_TEST_CONTEXT("max_leaves " << max_leaves) {
      const auto single = check_binary_metrics(*model, d, singleton_groups(p));
      BOOST_TEST(single[4] == 0.0);
      BOOST_TEST(single[0] > 0.02);
      check_binary_metrics(*model, d, kGroups);
    }
  }
}

BOOST_AUTO_TEST_CASE(logistic_ensemble_summed_in_double_matches_and_an_unknown_link_falls_back) {
  const Index p = 8;
  const auto d = make_data(10, 130, p, 3, 0.1);
  Rng rng(4);
  const TreeEnsemble ensemble = random_logistic_ensemble(d.X_test, 20, rng);
  const LogisticEnsembleModel known(ensemble, p, false);
  const auto single = check_binary_metrics(known, d, singleton_groups(p));
  BOOST_TEST(single[6] == 0.0);  // column 6 is in no tree
  check_binary_metrics(known, d, kGroups);

  const LogisticEnsembleModel unknown(ensemble, p, true);
  for (Metric metric : {Metric::Auc, Metric::LogLoss}) {
    const auto fast =
        permutation_importance(make_request(unknown, d.X_test, d.y_test, kGroups, metric, 1, ImportancePath::Auto));
    const auto slow =
        permutation_importance(make_request(unknown, d.X_test, d.y_test, kGroups, metric, 1, ImportancePath::Generic));
    BOOST_TEST(static_cast<int>(fast.method) == static_cast<int>(ImportanceMethod::Generic));
    BOOST_TEST(fast.scores == slow.scores, boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_SUITE_END()
