// The histogram gradient boosting (estimators/hgb.cpp): binning, split gain and leaf values by hand,
// agreement with scikit-learn's HistGradientBoosting (tests/data/hgb_reference.py), thread-count independence,
// serialization and bad input.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/detail/hgb_binning.hpp"
#include "estimators/detail/hgb_tree.hpp"
#include "estimators/estimator.hpp"
#include "estimators/tree_ensemble.hpp"
#include "simulate/dgp.hpp"

using namespace bfs;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Matrix column(const std::vector<float>& values) {
  Matrix X(static_cast<Index>(values.size()), 1);
  for (std::size_t i = 0; i < values.size(); ++i) X(static_cast<Index>(i), 0) = values[i];
  return X;
}

std::vector<Index> all_rows(Index n) {
  std::vector<Index> rows(static_cast<std::size_t>(n));
  std::iota(rows.begin(), rows.end(), Index{0});
  return rows;
}

hgb::BinnedColumns bin_all(const Matrix& X, int max_bin = 255) {
  const auto rows = all_rows(X.rows());
  return hgb::bin_rows(X, rows, max_bin, 1);
}

double r2(const Vector& y, const Vector& pred) {
  const double mean = y.mean();
  return 1.0 - (y - pred).squaredNorm() / (y.array() - mean).square().sum();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(hgb_estimator)

BOOST_AUTO_TEST_CASE(binning_midpoints_ties_nan_and_constant_columns) {
  // Fewer distinct values than bins: midpoints between consecutive distinct values; ties share a code.
  const auto ties = bin_all(column({1, 1, 1, 2, 2, 3}));
  BOOST_TEST(ties.edges[0] == (std::vector<float>{1.5f, 2.5f}), boost::test_tools::per_element());
  const std::vector<int> expected_codes{0, 0, 0, 1, 1, 2};
  for (int i = 0; i < 6; ++i) BOOST_TEST(ties.column(0)[i] == expected_codes[static_cast<std::size_t>(i)]);
  // NaN gets the code after the last value code, and does not count towards the edges.
  const auto holes = bin_all(column({kNaN, 4, kNaN, 2}));
  BOOST_TEST(holes.edges[0] == std::vector<float>{3.0f}, boost::test_tools::per_element());
  BOOST_TEST(holes.nan_code(0) == 2);
  BOOST_TEST(holes.column(0)[0] == 2);
  BOOST_TEST(holes.column(0)[1] == 1);
  BOOST_TEST(holes.column(0)[3] == 0);
  // A constant column has no edge: one value code and the NaN code.
  const auto constant = bin_all(column({7, 7, 7}));
  BOOST_TEST(constant.edges[0].empty());
  BOOST_TEST(constant.value_bins(0) == 1);
  // More distinct values than bins: NumPy's midpoint percentiles at 25, 50, 75 % of 0 … 9.
  std::vector<float> ten(10);
  std::iota(ten.begin(), ten.end(), 0.0f);
  const auto quartiles = bin_all(column(ten), 4);
  BOOST_TEST(quartiles.edges[0] == (std::vector<float>{2.5f, 4.5f, 6.5f}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_code_at_most_b_is_a_value_at_most_the_edge) {
  // Adjacent floats: the exact midpoint is not a float; the edge is rounded down so x <= edge keeps meaning code <= b.
  const float a = 1.0f, b = std::nextafter(1.0f, 2.0f);
  const auto binned = bin_all(column({a, b, a, b}));
  BOOST_REQUIRE(binned.edges[0].size() == 1u);
  BOOST_TEST(a <= binned.edges[0][0]);
  BOOST_TEST(!(b <= binned.edges[0][0]));
  Rng rng(3);
  std::vector<float> values(600);
  for (float& v : values) v = static_cast<float>(std::round(rng.normal() * 20.0) / 8.0);  // many ties
  const auto many = bin_all(column(values), 16);
  const auto& edges = many.edges[0];
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t e = 0; e < edges.size(); ++e) BOOST_TEST((values[i] <= edges[e]) == (many.column(0)[i] <= e));
}

BOOST_AUTO_TEST_CASE(binning_equals_a_comparison_sort_reference_for_any_thread_count) {
  // bin_rows sorts (key, row) words by radix; the reference sorts the values with std::sort and codes each value by
  // binary search (code_of). Columns: normal (every radix pass active), few distinct values (ties), both zeros and
  // NaN, negative large magnitudes, constant, all NaN; rows: all, and a bootstrap-like subset with repeats.
  constexpr Index kRows = 701, kColumns = 7;
  Matrix X(kRows, kColumns);
  Rng rng(12);
  for (Index i = 0; i < kRows; ++i) {
    X(i, 0) = static_cast<float>(rng.normal());
    X(i, 1) = static_cast<float>(rng.uniform_int(9));
    X(i, 2) = i % 5 == 0 ? kNaN : (i % 3 == 0 ? (i % 2 == 0 ? 0.0f : -0.0f) : static_cast<float>(rng.normal()));
    X(i, 3) = static_cast<float>(-1e30 * rng.uniform() - 1e20 * rng.normal());
    X(i, 4) = 2.5f;
    X(i, 5) = kNaN;
    X(i, 6) = static_cast<float>(rng.normal() * 1e-40);  // subnormal floats
  }
  std::vector<Index> subset(500);
  for (Index& r : subset) r = static_cast<Index>(rng.uniform_int(kRows));
  for (const std::vector<Index>& rows : {all_rows(kRows), subset}) {
    for (int threads : {1, 2, 3}) {
      const auto binned = hgb::bin_rows(X, rows, 255, threads);
      for (Index c = 0; c < kColumns; ++c) {
        std::vector<float> values;
        for (Index r : rows)
          if (!std::isnan(X(r, c))) values.push_back(X(r, c));
        std::sort(values.begin(), values.end());
        const std::vector<float> edges = hgb::bin_edges(values, 255);
        BOOST_TEST_REQUIRE(binned.edges[static_cast<std::size_t>(c)] == edges, boost::test_tools::per_element());
        for (std::size_t k = 0; k < rows.size(); ++k)
          BOOST_TEST_REQUIRE(binned.column(c)[k] == hgb::code_of(X(rows[k], c), edges));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(an_arm_selects_the_codes_of_a_batch_binned_once) {
  // A "period" binned once; an arm's rows (with repeats, as a bootstrap) and columns select its codes, which are the
  // codes of those values under the period's edges.
  Rng rng(5);
  Matrix period(300, 12);
  for (Index i = 0; i < period.rows(); ++i)
    for (Index j = 0; j < period.cols(); ++j)
      period(i, j) = j % 3 == 0 ? static_cast<float>(rng.uniform_int(7)) : static_cast<float>(rng.normal());
  period(4, 5) = kNaN;
  const auto binned = bin_all(period);
  const std::vector<Index> rows{4, 4, 0, 299, 17, 150};
  const std::vector<FeatureId> columns{11, 5, 0, 3};
  const auto arm = hgb::select_binned(binned, rows, columns);
  BOOST_REQUIRE(arm.cols() == 4);
  BOOST_REQUIRE(arm.rows == 6);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    BOOST_TEST(arm.edges[c] == binned.edges[static_cast<std::size_t>(columns[c])], boost::test_tools::per_element());
    for (std::size_t r = 0; r < rows.size(); ++r)
      BOOST_TEST(arm.column(static_cast<Index>(c))[r] == hgb::code_of(period(rows[r], columns[c]), arm.edges[c]));
  }
  BOOST_TEST(arm.column(1)[0] == arm.nan_code(1));  // row 4 of column 5 is NaN
}

BOOST_AUTO_TEST_CASE(a_fit_on_prepared_bins_equals_the_fit_that_bins_the_same_rows) {
  // Without a hold-out the fit bins exactly the rows it is given; prepared from the same matrix, the arm's origin
  // (all rows, all columns) must give the same model bit for bit. With an arm of the batch the fit still runs.
  SimulateSpec spec;
  spec.n = 400;
  spec.p = 15;
  spec.seed = 6;
  const Dataset data = simulate(spec);
  HgbParams params;
  params.n_estimators = 20;
  params.validation_fraction = 0.0;
  const auto estimator = make_hgb(params);
  const auto prepared = estimator->prepare(data.X, 2);
  BOOST_REQUIRE(prepared != nullptr);
  std::vector<Index> rows(static_cast<std::size_t>(data.X.rows()));
  std::iota(rows.begin(), rows.end(), Index{0});
  std::vector<FeatureId> columns(static_cast<std::size_t>(data.X.cols()));
  std::iota(columns.begin(), columns.end(), FeatureId{0});
  FitOptions with_origin{3, 1, {}, nullptr};
  with_origin.origin = FitOrigin{prepared.get(), rows, columns};
  const auto plain = estimator->fit(data.X, data.y, FitOptions{3, 1, {}, nullptr});
  const auto reused = estimator->fit(data.X, data.y, with_origin);
  BOOST_TEST(plain->serialize() == reused->serialize());
  // An arm: columns 2, 7, 9 of the first 300 rows, from the batch's bins; thresholds are the batch's edges.
  const std::vector<FeatureId> arm{2, 7, 9};
  const std::vector<Index> arm_rows(rows.begin(), rows.begin() + 300);
  Matrix X(300, 3);
  for (Index i = 0; i < 300; ++i)
    for (Index c = 0; c < 3; ++c) X(i, c) = data.X(i, arm[static_cast<std::size_t>(c)]);
  FitOptions arm_options{3, 1, {}, nullptr};
  arm_options.origin = FitOrigin{prepared.get(), arm_rows, arm};
  const auto model = estimator->fit(X, data.y.head(300), arm_options);
  const auto batch_bins = bin_all(data.X);
  for (const FlatTree& tree : model->trees()->trees) {
    for (std::size_t node = 0; node < tree.feature.size(); ++node) {
      if (tree.feature[node] < 0 || std::isinf(tree.threshold[node])) continue;
      const auto& edges = batch_bins.edges[static_cast<std::size_t>(arm[static_cast<std::size_t>(tree.feature[node])])];
      BOOST_TEST((std::find(edges.begin(), edges.end(), tree.threshold[node]) != edges.end()));
    }
  }
}

BOOST_AUTO_TEST_CASE(split_gain_and_leaf_values_by_hand) {
  // x = 1, 2, 3, 4; y = 1, 1, 3, 5; F0 = mean 2.5, g = F0 − y = 1.5, 1.5, −0.5, −2.5, h = 1; λ = 1.
  // Gains G_L²/(H_L+1) + G_R²/(H_R+1) − 0: x <= 1.5: 2.25/2 + 2.25/4 = 1.6875; x <= 2.5: 9/3 + 9/3 = 6;
  // x <= 3.5: 6.25/4 + 6.25/2 = 4.6875. The best is x <= 2.5 with gain 6; leaves −3/3 = −1 and +1.
  const Matrix X = column({1, 2, 3, 4});
  const auto binned = bin_all(X);
  const std::vector<double> g{1.5, 1.5, -0.5, -2.5}, h(4, 1.0);
  const auto grad = hgb::quantize(g, h);
  hgb::GrowLimits limits;
  limits.min_samples_leaf = 1;
  limits.min_child_weight = 0.0;
  limits.lambda = 1.0;
  const std::vector<std::uint32_t> rows{0, 1, 2, 3};
  const auto split = hgb::best_split_of_rows(binned, grad, rows, limits);
  BOOST_TEST(split.feature == 0);
  BOOST_TEST(split.bin == 1);
  BOOST_TEST(split.gain == 6.0, boost::test_tools::tolerance(1e-12));

  HgbParams params;
  params.n_estimators = 1;
  params.max_leaves = 2;
  params.learning_rate = 1.0;
  params.lambda = 1.0;
  params.min_samples_leaf = 1;
  params.min_child_weight = 0.0;
  params.validation_fraction = 0.0;
  const Vector y = (Vector(4) << 1, 1, 3, 5).finished();
  const auto model = make_hgb(params)->fit(X, y, FitOptions{1, 1, {}, nullptr});
  const TreeEnsemble& trees = *model->trees();
  BOOST_TEST(trees.base_score == 2.5);
  BOOST_REQUIRE(trees.trees.size() == 1u);
  const FlatTree& tree = trees.trees[0];
  BOOST_TEST(tree.feature[0] == 0);
  BOOST_TEST(tree.threshold[0] == 2.5f);
  BOOST_TEST(tree.value[static_cast<std::size_t>(tree.left[0])] == -1.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(tree.value[static_cast<std::size_t>(tree.right[0])] == 1.0, boost::test_tools::tolerance(1e-12));
  const Vector pred = model->predict(X);
  BOOST_TEST(pred[0] == 1.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(pred[3] == 3.5, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(nan_rows_go_to_the_better_side_and_a_split_on_nan_exists) {
  // y is high exactly on the NaN rows: the best split sends NaN alone to the right (threshold +inf).
  const Matrix X = column({1, 2, 3, 4, kNaN, kNaN});
  const auto binned = bin_all(X);
  const std::vector<double> g{1, 1, 1, 1, -2, -2}, h(6, 1.0);
  hgb::GrowLimits limits;
  limits.min_samples_leaf = 1;
  limits.min_child_weight = 0.0;
  const std::vector<std::uint32_t> rows{0, 1, 2, 3, 4, 5};
  const auto split = hgb::best_split_of_rows(binned, hgb::quantize(g, h), rows, limits);
  BOOST_TEST(split.bin == binned.value_bins(0) - 1);
  BOOST_TEST(!split.nan_left);
  BOOST_TEST(split.gain == 12.0, boost::test_tools::tolerance(1e-12));  // G_L = 4, G_R = −4: 16/4 + 16/2 − 0
  // Rows 0, 1 and the NaN rows low: "x <= 2.5, NaN left" beats every NaN-right split.
  const std::vector<double> g2{-1, -1, 1, 1, -1, -1};
  const auto split2 = hgb::best_split_of_rows(binned, hgb::quantize(g2, h), rows, limits);
  BOOST_TEST(split2.bin == 1);
  BOOST_TEST(split2.nan_left);
}

BOOST_AUTO_TEST_CASE(matches_scikit_learn_first_tree_and_test_score) {
  const char* root = std::getenv("BANDITFS_TEST_DATA");
  BOOST_TEST_REQUIRE(root != nullptr, "BANDITFS_TEST_DATA is not set (run the test through ctest)");
  std::ifstream in(std::string(root) + "/hgb_reference_cases.txt");
  BOOST_TEST_REQUIRE(in.good());
  std::string line;
  int cases = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string tag, name, splits_tag;
    Index n_train = 0, p = 0;
    int leaves = 0, trees = 0, min_leaf = 0, binary = 0, n_splits = 0, n_leaves = 0;
    double lr = 0, l2 = 0, score = 0;
    fields >> tag >> name >> n_train >> p >> leaves >> trees >> min_leaf >> lr >> l2 >> binary >> score >> splits_tag >>
        n_splits >> n_leaves;
    BOOST_REQUIRE(splits_tag == "splits");
    BOOST_TEST_CONTEXT("case " << name) {
      SimulateSpec spec;
      spec.n = 3000;
      spec.p = p;
      spec.seed = 1;
      spec.binary = binary != 0;
      const Dataset data = simulate(spec);
      const Matrix X_train = data.X.topRows(n_train), X_test = data.X.bottomRows(data.X.rows() - n_train);
      const Vector y_train = data.y.head(n_train), y_test = data.y.tail(data.y.size() - n_train);
      HgbParams params;
      params.n_estimators = trees;
      params.max_leaves = leaves;
      params.min_samples_leaf = min_leaf;
      params.learning_rate = lr;
      params.lambda = l2;
      params.validation_fraction = 0.0;
      const Task task = binary ? Task::Binary : Task::Regression;
      const auto model = make_hgb(params, task)->fit(X_train, y_train, FitOptions{1, 2, {}, nullptr});
      // The first tree, pre-order, as scikit-learn numbers its nodes.
      const FlatTree& tree = model->trees()->trees.at(0);
      std::vector<std::int32_t> stack{0};
      int split_count = 0, leaf_count = 0;
      while (!stack.empty()) {
        const auto node = static_cast<std::size_t>(stack.back());
        stack.pop_back();
        if (tree.feature[node] < 0) {
          ++leaf_count;
          continue;
        }
        int feature = -1;
        double threshold = 0;
        fields >> feature >> threshold;
        BOOST_TEST(tree.feature[node] == feature, "split " << split_count);
        BOOST_TEST(static_cast<double>(tree.threshold[node]) == threshold, boost::test_tools::tolerance(1e-6));
        ++split_count;
        stack.push_back(tree.right[node]);
        stack.push_back(tree.left[node]);
      }
      BOOST_TEST(split_count == n_splits);
      BOOST_TEST(leaf_count == n_leaves);
      const Vector pred = model->predict(X_test);
      if (binary) {
        double correct = 0;
        for (Index i = 0; i < pred.size(); ++i) correct += ((pred[i] > 0.5) == (y_test[i] > 0.5)) ? 1.0 : 0.0;
        BOOST_TEST(correct / static_cast<double>(pred.size()) == score, boost::test_tools::tolerance(0.01 / score));
      } else {
        BOOST_TEST(std::abs(r2(y_test, pred) - score) <= 0.005);
      }
    }
    ++cases;
  }
  BOOST_TEST(cases == 3);
}

BOOST_AUTO_TEST_CASE(models_do_not_depend_on_the_thread_count) {
  SimulateSpec spec;
  spec.n = 800;
  spec.p = 30;
  spec.seed = 4;
  Dataset data = simulate(spec);
  for (int k = 0; k < 40; ++k) data.X(k * 7, k % 30) = kNaN;
  for (Task task : {Task::Regression, Task::Binary}) {
    Vector y = data.y;
    if (task == Task::Binary)
      for (Index i = 0; i < y.size(); ++i) y[i] = y[i] > 14.0 ? 1.0 : 0.0;
    HgbParams params;
    params.n_estimators = 30;
    params.colsample = 0.6;
    params.max_depth = 4;
    const auto estimator = make_hgb(params, task);
    const auto one = estimator->fit(data.X, y, FitOptions{7, 1, {}, nullptr});
    const auto two = estimator->fit(data.X, y, FitOptions{7, 2, {}, nullptr});
    BOOST_TEST(one->serialize() == two->serialize());
    const auto other_seed = estimator->fit(data.X, y, FitOptions{8, 1, {}, nullptr});
    BOOST_TEST(one->serialize() != other_seed->serialize());  // colsample and the held-out rows follow the seed
    // Depth limit holds, and serialization restores the same predictions.
    for (const FlatTree& tree : one->trees()->trees) BOOST_TEST(tree_shape(tree).depth <= 4);
    const auto restored = estimator->deserialize(one->serialize());
    BOOST_TEST((restored->predict(data.X) - one->predict(data.X)).cwiseAbs().maxCoeff() == 0.0);
  }
}

BOOST_AUTO_TEST_CASE(early_stopping_keeps_the_best_round_and_bad_bytes_are_refused) {
  SimulateSpec spec;
  spec.n = 600;
  spec.p = 20;
  spec.seed = 2;
  const Dataset data = simulate(spec);
  HgbParams params;
  params.n_estimators = 2000;
  params.learning_rate = 0.5;
  params.early_stopping_rounds = 5;
  const auto model = make_hgb(params)->fit(data.X, data.y, FitOptions{3, 1, {}, nullptr});
  BOOST_TEST(model->trees()->trees.size() < 2000u);  // the hold-out stopped it
  BOOST_TEST(model->trees()->trees.size() >= 1u);
  const auto estimator = make_hgb(params);
  BOOST_CHECK_THROW(estimator->deserialize("not a model"), InputError);
  std::string bytes = model->serialize();
  BOOST_CHECK_THROW(estimator->deserialize(bytes.substr(0, bytes.size() / 2)), InputError);
  BOOST_CHECK_THROW(make_hgb(params, Task::Binary)->deserialize(bytes), InputError);
  Vector three = data.y;
  three[0] = 2.0;
  BOOST_CHECK_THROW(make_hgb(params, Task::Binary)->fit(data.X, three, FitOptions{}), InputError);
  HgbParams bad;
  bad.max_bin = 256;
  BOOST_CHECK_THROW(make_hgb(bad), ConfigError);
}

BOOST_AUTO_TEST_SUITE_END()
