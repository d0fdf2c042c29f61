// Missing cells (NaN) in the tree estimators' X, on hand-made data: random_forest's two searches (the missing rows
// left or right, whichever gains more) and its rule for a node that saw none; hgb's learned direction and its rule
// for a column without missing training rows; gbm fits and predicts with NaN; complete data keeps NaN → right.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "core/rng.hpp"
#include "estimators/detail/forest_simd.hpp"
#include "estimators/estimator.hpp"
#include "test_data.hpp"

using namespace bfs;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// One column of values, and y.
test::Problem one_column(const std::vector<float>& x, const std::vector<double>& y) {
  test::Problem out{Matrix(static_cast<Index>(x.size()), 1), Vector(static_cast<Index>(y.size()))};
  for (std::size_t i = 0; i < x.size(); ++i) {
    out.X(static_cast<Index>(i), 0) = x[i];
    out.y[static_cast<Index>(i)] = y[i];
  }
  return out;
}

/// One tree of depth one on every row: the root's split is the best split of the data.
std::unique_ptr<Model> stump(const test::Problem& data) {
  RandomForestParams params;
  params.n_estimators = 1;
  params.max_depth = 1;
  params.bootstrap = false;
  return make_random_forest(params)->fit(data.X, data.y, FitOptions{1, 1, {}, nullptr});
}

double predict_one(const Model& model, std::vector<float> row) {
  Matrix X(1, static_cast<Index>(row.size()));
  for (std::size_t j = 0; j < row.size(); ++j) X(0, static_cast<Index>(j)) = row[j];
  return model.predict(X)[0];
}

/// Column 0 = 1 … 8, y a step after `left_rows` rows; column 1 constant, with a missing cell in row 0 when
/// `missing_elsewhere` (so the fit has missing cells, none of them in column 0).
test::Problem step_with_other_column(int left_rows, bool missing_elsewhere) {
  test::Problem out{Matrix(8, 2), Vector(8)};
  for (Index i = 0; i < 8; ++i) {
    out.X(i, 0) = static_cast<float>(i + 1);
    out.X(i, 1) = i == 0 && missing_elsewhere ? kNaN : 0.0f;
    out.y[i] = i < left_rows ? 0.0 : 10.0;
  }
  return out;
}

/// friedman1 with about 15% of the cells of columns 0–3 missing.
test::Problem friedman_with_holes(Index n, Index p, std::uint64_t seed) {
  test::Problem data = test::friedman1(n, p, 0.5, seed);
  Rng rng(seed + 100);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < 4; ++j)
      if (rng.uniform() < 0.15) data.X(i, j) = kNaN;
  return data;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(missing_values_in_trees)

BOOST_AUTO_TEST_CASE(random_forest_sends_missing_rows_left_when_they_belong_there) {
  // y says the missing rows are like x <= 3: "x <= 3.5 or missing" separates y perfectly; no missing-right split does.
  const auto data = one_column({1, 2, 3, 4, 5, 6, kNaN, kNaN}, {0, 0, 0, 10, 10, 10, 0, 0});
  const auto model = stump(data);
  const FlatTree& root = model->trees()->trees[0];
  BOOST_TEST(root.feature[0] == 0);
  BOOST_TEST(root.threshold[0] == 3.5f);
  BOOST_TEST(root.default_left[0] == 1);
  BOOST_TEST(predict_one(*model, {kNaN}) == 0.0);
  BOOST_TEST(predict_one(*model, {2.0f}) == 0.0);
  BOOST_TEST(predict_one(*model, {5.0f}) == 10.0);
}

BOOST_AUTO_TEST_CASE(random_forest_sends_missing_rows_right_when_they_belong_there) {
  const auto data = one_column({1, 2, 3, 4, 5, 6, kNaN, kNaN}, {0, 0, 0, 10, 10, 10, 10, 10});
  const auto model = stump(data);
  const FlatTree& root = model->trees()->trees[0];
  BOOST_TEST(root.threshold[0] == 3.5f);
  BOOST_TEST(root.default_left[0] == 0);
  BOOST_TEST(predict_one(*model, {kNaN}) == 10.0);
  BOOST_TEST(predict_one(*model, {2.0f}) == 0.0);
}

BOOST_AUTO_TEST_CASE(random_forest_splits_values_from_missing_at_infinity) {
  // Only missingness predicts y: every value left (threshold +inf, so a value beyond the training range too), the
  // missing rows right.
  const auto data = one_column({1, 2, 3, 4, 5, 6, kNaN, kNaN}, {0, 0, 0, 0, 0, 0, 10, 10});
  const auto model = stump(data);
  const FlatTree& root = model->trees()->trees[0];
  BOOST_TEST(std::isinf(root.threshold[0]));
  BOOST_TEST(root.default_left[0] == 0);
  BOOST_TEST(predict_one(*model, {100.0f}) == 0.0);
  BOOST_TEST(predict_one(*model, {kNaN}) == 10.0);
}

BOOST_AUTO_TEST_CASE(random_forest_sends_unseen_missing_to_the_child_with_more_rows) {
  // Column 0 has no missing cell: its split sends one at prediction to the larger child (5 rows left, or 5 right).
  const auto more_left = stump(step_with_other_column(5, true));
  BOOST_TEST(more_left->trees()->trees[0].feature[0] == 0);
  BOOST_TEST(more_left->trees()->trees[0].default_left[0] == 1);
  BOOST_TEST(predict_one(*more_left, {kNaN, 0.0f}) == 0.0);
  const auto more_right = stump(step_with_other_column(3, true));
  BOOST_TEST(more_right->trees()->trees[0].default_left[0] == 0);
  BOOST_TEST(predict_one(*more_right, {kNaN, 0.0f}) == 10.0);
  // Equal children: right (left only with strictly more rows, as scikit-learn's n_left > n_right).
  BOOST_TEST(stump(step_with_other_column(4, true))->trees()->trees[0].default_left[0] == 0);
  // A fit without any missing cell grows the trees it always grew: NaN right.
  const auto complete = stump(step_with_other_column(5, false));
  BOOST_TEST(complete->trees()->trees[0].default_left[0] == 0);
  BOOST_TEST(predict_one(*complete, {kNaN, 0.0f}) == 10.0);
}

BOOST_AUTO_TEST_CASE(random_forest_on_a_table_with_missing_cells_routes_them_on_complete_training_rows) {
  // Complete training rows of a table whose other rows miss cells (FitOptions::data_has_missing): a missing cell at
  // prediction goes to the larger child, as when the training rows miss a cell elsewhere; unset, right as before.
  RandomForestParams params;
  params.n_estimators = 1;
  params.max_depth = 1;
  params.bootstrap = false;
  const auto estimator = make_random_forest(params);
  FitOptions table_has_missing{1, 1, {}, nullptr};
  table_has_missing.data_has_missing = true;
  for (const int left_rows : {5, 3, 4}) {
    const auto data = step_with_other_column(left_rows, false);
    const auto model = estimator->fit(data.X, data.y, table_has_missing);
    BOOST_TEST(model->trees()->trees[0].feature[0] == 0);
    BOOST_TEST(model->trees()->trees[0].default_left[0] == (left_rows > 4 ? 1 : 0));
    BOOST_TEST(predict_one(*model, {kNaN, 0.0f}) == (left_rows > 4 ? 0.0 : 10.0));
    const auto before = estimator->fit(data.X, data.y, FitOptions{1, 1, {}, nullptr});
    BOOST_TEST(before->trees()->trees[0].default_left[0] == 0);
  }
  // Deep trees: the flag changes the missing cells' side and nothing else (same splits, same leaves).
  const test::Problem big = test::friedman1(300, 6, 0.5, 9);
  RandomForestParams deep;
  deep.n_estimators = 5;
  FitOptions flagged{3, 2, {}, nullptr};
  flagged.data_has_missing = true;
  const auto with = make_random_forest(deep)->fit(big.X, big.y, flagged);
  const auto without = make_random_forest(deep)->fit(big.X, big.y, FitOptions{3, 2, {}, nullptr});
  int left = 0;
  for (std::size_t t = 0; t < 5; ++t) {
    const FlatTree& a = with->trees()->trees[t];
    const FlatTree& b = without->trees()->trees[t];
    BOOST_TEST(a.feature == b.feature);
    BOOST_TEST(a.threshold == b.threshold);
    BOOST_TEST(a.value == b.value);
    for (std::size_t k = 0; k < a.feature.size(); ++k) {
      BOOST_TEST(b.default_left[k] == 0);
      left += a.default_left[k];
    }
  }
  BOOST_TEST(left > 0);  // some larger child is the left one
}

BOOST_AUTO_TEST_CASE(random_forest_with_missing_cells_is_the_same_on_every_path) {
  // Thread counts, the AVX2 filters or the portable ones, and a fit reusing the batch's sort: one forest. Every
  // column per node (max_features = 1) puts four of them in the SSE2 lanes scan, which must read the rows as the
  // filters store them (at most 256 rows: the AVX2 filters' scaled rows).
  struct Restore {
    ~Restore() { detail::forest::set_vector_paths(true); }
  } restore;
  for (const Index n : {200, 600}) {
    const auto data = friedman_with_holes(n, 8, 7);
    for (const double max_features : {0.5, 1.0}) {
      BOOST_TEST_CONTEXT("rows " << n << " max_features " << max_features) {
        RandomForestParams params;
        params.n_estimators = 6;
        params.max_features = max_features;
        const auto estimator = make_random_forest(params);
        const std::string reference = estimator->fit(data.X, data.y, FitOptions{3, 1, {}, nullptr})->serialize();
        BOOST_TEST(estimator->fit(data.X, data.y, FitOptions{3, 2, {}, nullptr})->serialize() == reference);
        detail::forest::set_vector_paths(false);
        BOOST_TEST(estimator->fit(data.X, data.y, FitOptions{3, 1, {}, nullptr})->serialize() == reference);
        detail::forest::set_vector_paths(true);
        const auto prepared = estimator->prepare(data.X, 1);
        std::vector<Index> rows(static_cast<std::size_t>(n));
        std::iota(rows.begin(), rows.end(), Index{0});
        std::vector<FeatureId> columns(8);
        std::iota(columns.begin(), columns.end(), FeatureId{0});
        FitOptions with_origin{3, 1, {}, nullptr};
        with_origin.origin = FitOrigin{prepared.get(), rows, columns};
        BOOST_TEST(estimator->fit(data.X, data.y, with_origin)->serialize() == reference);
        // The forest still learns friedman1 through the holes.
        const auto fresh = test::friedman1(1000, 8, 0.0, 8);
        const auto model = estimator->fit(data.X, data.y, FitOptions{3, 1, {}, nullptr});
        BOOST_TEST(test::r2(fresh.y, model->predict(fresh.X)) > 0.3);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(hgb_learns_the_missing_rows_direction) {
  HgbParams params;
  params.n_estimators = 1;
  params.learning_rate = 1.0;
  params.max_leaves = 2;
  params.min_samples_leaf = 1;
  params.min_child_weight = 0.0;
  params.validation_fraction = 0.0;
  const auto estimator = make_hgb(params);
  for (const double missing_y : {0.0, 10.0}) {
    const auto data = one_column({1, 2, 3, 4, 5, 6, kNaN, kNaN}, {0, 0, 0, 10, 10, 10, missing_y, missing_y});
    const auto model = estimator->fit(data.X, data.y, FitOptions{1, 1, {}, nullptr});
    const FlatTree& tree = model->trees()->trees[0];
    BOOST_TEST(tree.threshold[0] == 3.5f);
    BOOST_TEST(tree.default_left[0] == (missing_y == 0.0 ? 1 : 0));
    BOOST_TEST(std::abs(predict_one(*model, {kNaN}) - missing_y) < 1e-9);
  }
}

BOOST_AUTO_TEST_CASE(hgb_sends_unseen_missing_to_the_child_with_more_rows) {
  HgbParams params;
  params.n_estimators = 1;
  params.max_leaves = 2;
  params.min_samples_leaf = 1;
  params.min_child_weight = 0.0;
  params.validation_fraction = 0.0;
  const auto estimator = make_hgb(params);
  const auto default_left = [&](int left_rows, bool missing_elsewhere) {
    const auto data = step_with_other_column(left_rows, missing_elsewhere);
    const auto model = estimator->fit(data.X, data.y, FitOptions{1, 1, {}, nullptr});
    const FlatTree& tree = model->trees()->trees[0];
    BOOST_TEST(tree.feature[0] == 0);
    return static_cast<int>(tree.default_left[0]);
  };
  BOOST_TEST(default_left(5, true) == 1);
  BOOST_TEST(default_left(3, true) == 0);
  BOOST_TEST(default_left(4, true) == 0);   // equal: right
  BOOST_TEST(default_left(5, false) == 0);  // complete training rows: the trees they always gave
}

BOOST_AUTO_TEST_CASE(hgb_on_a_table_with_missing_cells_routes_them_on_complete_training_rows) {
  // FitOptions::data_has_missing: complete training rows of a table with missing cells take the larger child.
  HgbParams params;
  params.n_estimators = 1;
  params.max_leaves = 2;
  params.min_samples_leaf = 1;
  params.min_child_weight = 0.0;
  params.validation_fraction = 0.0;
  const auto estimator = make_hgb(params);
  for (const int left_rows : {5, 3, 4}) {
    const auto data = step_with_other_column(left_rows, false);
    FitOptions options{1, 1, {}, nullptr};
    options.data_has_missing = true;
    const auto model = estimator->fit(data.X, data.y, options);
    const FlatTree& tree = model->trees()->trees[0];
    BOOST_TEST(tree.feature[0] == 0);
    BOOST_TEST(tree.default_left[0] == (left_rows > 4 ? 1 : 0));
    const double nan_row = predict_one(*model, {kNaN, 0.0f});
    BOOST_TEST(nan_row == predict_one(*model, {left_rows > 4 ? 1.0f : 8.0f, 0.0f}));
  }
}

BOOST_AUTO_TEST_CASE(hgb_with_missing_cells_reuses_the_batch_bins_exactly) {
  const auto data = friedman_with_holes(300, 8, 9);
  HgbParams params;
  params.n_estimators = 15;
  params.validation_fraction = 0.0;
  const auto estimator = make_hgb(params);
  const auto prepared = estimator->prepare(data.X, 1);
  std::vector<Index> rows(300);
  std::iota(rows.begin(), rows.end(), Index{0});
  std::vector<FeatureId> columns(8);
  std::iota(columns.begin(), columns.end(), FeatureId{0});
  FitOptions with_origin{3, 1, {}, nullptr};
  with_origin.origin = FitOrigin{prepared.get(), rows, columns};
  const auto plain = estimator->fit(data.X, data.y, FitOptions{3, 1, {}, nullptr});
  BOOST_TEST(estimator->fit(data.X, data.y, with_origin)->serialize() == plain->serialize());
  BOOST_TEST(estimator->fit(data.X, data.y, FitOptions{3, 2, {}, nullptr})->serialize() == plain->serialize());
}

BOOST_AUTO_TEST_CASE(gbm_fits_and_predicts_with_missing_cells) {
  const auto data = friedman_with_holes(300, 6, 10);
  GbmParams params;
  params.n_estimators = 30;
  const auto model = make_gbm(params)->fit(data.X, data.y, FitOptions{2, 1, {}, nullptr});
  const Vector y_hat = model->predict(data.X);
  BOOST_TEST(y_hat.allFinite());
  BOOST_TEST(test::r2(data.y, y_hat) > 0.5);
  // The missing cells follow the trees' default directions: an all-missing row gets a finite prediction.
  BOOST_TEST(std::isfinite(predict_one(*model, std::vector<float>(6, kNaN))));
}

BOOST_AUTO_TEST_SUITE_END()
