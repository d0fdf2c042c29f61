// random_forest: accuracy on Friedman #1, exact fits, hyperparameters, determinism, serialization, bad input.
#include <boost/test/unit_test.hpp>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "core/error.hpp"
#include "estimators/detail/forest_simd.hpp"
#include "estimators/estimator.hpp"
#include "estimators/tree_ensemble.hpp"
#include "test_data.hpp"

using namespace bfs;

namespace {

std::unique_ptr<Model> fit_rf(const RandomForestParams& params, const test::Problem& data, std::uint64_t seed = 1,
                              int threads = 1) {
  return make_random_forest(params)->fit(data.X, data.y, FitOptions{seed, threads, {}, nullptr});
}

/// Leaf index (in the flat arrays) a row lands in.
std::int32_t leaf_of(const FlatTree& tree, const float* row) {
  std::int32_t node = 0;
  while (tree.feature[node] >= 0)
    node = row[tree.feature[node]] <= tree.threshold[node] ? tree.left[node] : tree.right[node];
  return node;
}

/// FNV-1a of the serialized model: a fingerprint of every split, threshold and leaf value.
std::uint64_t fingerprint(const Model& model) {
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char c : model.serialize()) h = (h ^ c) * 1099511628211ull;
  return h;
}

/// Data shaped like an offline evaluation's training part: rows drawn with replacement (duplicate rows), column 1 on
/// a coarse grid (ties), column 2 constant. Only + and · (no libm), so the fingerprints do not depend on the platform.
test::Problem resampled_rows(Index n, Index p, std::uint64_t seed) {
  Rng rng(seed);
  Matrix X(n, p);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) X(i, j) = static_cast<float>(rng.uniform());
    X(i, 1) = static_cast<float>(rng.uniform_int(5)) / 4.0f;
    X(i, 2) = 0.5f;
    const double x0 = X(i, 0), x1 = X(i, 1), x3 = X(i, 3), x4 = X(i, 4);
    y[i] = 10.0 * x0 * x1 + 20.0 * (x3 - 0.5) * (x3 - 0.5) + 5.0 * x4 + rng.uniform();
  }
  test::Problem out{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    const auto r = static_cast<Index>(rng.uniform_int(static_cast<std::uint64_t>(n)));
    out.X.row(i) = X.row(r);
    out.y[i] = y[r];
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(random_forest)

BOOST_AUTO_TEST_CASE(fits_friedman1) {
  const auto train = test::friedman1(500, 10, 1.0, 11);
  const auto fresh = test::friedman1(1000, 10, 0.0, 12);
  const auto model = fit_rf(RandomForestParams{}, train);
  BOOST_TEST(model->num_features() == 10);
  const double r2 = test::r2(fresh.y, model->predict(fresh.X));
  BOOST_TEST_MESSAGE("random_forest friedman1 R2 = " << r2);
  BOOST_TEST(r2 > 0.6);
}

BOOST_AUTO_TEST_CASE(single_deep_tree_fits_a_step_exactly) {
  // x0 on a grid of 10 values, y a step at 0.35; columns 1..3 are noise. One tree on all rows, all features.
  Rng rng(3);
  test::Problem data{Matrix(200, 4), Vector(200)};
  for (Index i = 0; i < 200; ++i) {
    data.X(i, 0) = static_cast<float>(i % 10) / 10.0f;
    for (Index j = 1; j < 4; ++j) data.X(i, j) = static_cast<float>(rng.uniform());
    data.y[i] = data.X(i, 0) < 0.35f ? 5.0 : -2.0;
  }
  RandomForestParams params;
  params.n_estimators = 1;
  params.bootstrap = false;
  params.max_depth = 0;
  const auto model = fit_rf(params, data);
  const Vector pred = model->predict(data.X);
  for (Index i = 0; i < 200; ++i) BOOST_TEST(pred[i] == data.y[i]);
  const FlatTree& tree = model->trees()->trees.at(0);
  BOOST_TEST(tree.feature.size() == 3u);  // one split, two pure leaves
  BOOST_TEST(tree.feature[0] == 0);
  BOOST_TEST((tree.threshold[0] > 0.3f && tree.threshold[0] < 0.4f));  // halfway between 0.3 and 0.4
}

BOOST_AUTO_TEST_CASE(unlimited_depth_without_bootstrap_interpolates_training_data) {
  const auto data = test::friedman1(300, 6, 1.0, 5);
  RandomForestParams params;
  params.n_estimators = 3;
  params.bootstrap = false;
  params.max_depth = 0;
  params.max_features = 0.5;
  const Vector pred = fit_rf(params, data)->predict(data.X);
  BOOST_TEST((pred - data.y).cwiseAbs().maxCoeff() < 1e-9);
}

BOOST_AUTO_TEST_CASE(bit_identical_for_any_thread_count) {
  const auto data = test::friedman1(400, 30, 1.0, 7);
  const auto fresh = test::friedman1(200, 30, 1.0, 8);
  RandomForestParams params;
  params.n_estimators = 25;
  params.max_features = 0.3;
  const auto one = fit_rf(params, data, 99, 1);
  const auto two = fit_rf(params, data, 99, 2);
  const auto three = fit_rf(params, data, 99, 3);
  BOOST_TEST((one->predict(fresh.X).array() == two->predict(fresh.X).array()).all());
  BOOST_TEST(one->serialize() == two->serialize());
  BOOST_TEST(one->serialize() == three->serialize());
  // ... and the seed matters.
  BOOST_TEST(one->serialize() != fit_rf(params, data, 100, 2)->serialize());
}

BOOST_AUTO_TEST_CASE(serialize_round_trip_is_exact) {
  const auto data = test::friedman1(300, 8, 1.0, 9);
  auto fresh = test::friedman1(100, 8, 1.0, 10);
  fresh.X(0, 3) = std::numeric_limits<float>::quiet_NaN();
  const auto estimator = make_random_forest(RandomForestParams{});
  const auto model = estimator->fit(data.X, data.y, FitOptions{3, 2, {}, nullptr});
  const std::string bytes = model->serialize();
  const auto restored = estimator->deserialize(bytes);
  BOOST_TEST(restored->num_features() == 8);
  const Vector a = model->predict(fresh.X), b = restored->predict(fresh.X);
  BOOST_TEST((a.array() == b.array()).all());
  BOOST_TEST(restored->serialize() == bytes);
  BOOST_CHECK_THROW(estimator->deserialize(bytes.substr(0, bytes.size() / 2)), InputError);
  BOOST_CHECK_THROW(estimator->deserialize("garbage"), InputError);
}

BOOST_AUTO_TEST_CASE(tree_walker_equals_predict) {
  const auto data = test::friedman1(300, 8, 1.0, 13);
  auto fresh = test::friedman1(103, 8, 1.0, 14);  // 103: predict_ensemble's four-row walks and the rows left over
  fresh.X(5, 0) = std::numeric_limits<float>::quiet_NaN();  // NaN goes right (default_left 0) in both walks
  fresh.X(101, 1) = std::numeric_limits<float>::quiet_NaN();
  RandomForestParams params;
  params.n_estimators = 17;
  const auto model = fit_rf(params, data);
  const TreeEnsemble* ensemble = model->trees();
  BOOST_REQUIRE(ensemble != nullptr);
  BOOST_TEST(ensemble->trees.size() == 17u);
  BOOST_TEST(ensemble->base_score == 0.0);
  BOOST_TEST(ensemble->scale == 1.0 / 17);
  BOOST_TEST(!ensemble->strict_less);
  const Vector pred = model->predict(fresh.X);
  for (Index i = 0; i < fresh.X.rows(); ++i) {
    double sum = 0.0;
    for (const FlatTree& tree : ensemble->trees) sum += predict_tree(tree, fresh.X.row(i).data(), false);
    BOOST_TEST(ensemble->base_score + ensemble->scale * sum == pred[i]);
  }
}

BOOST_AUTO_TEST_CASE(max_depth_is_honoured) {
  const auto data = test::friedman1(300, 8, 1.0, 15);
  for (int depth : {1, 3}) {
    RandomForestParams params;
    params.n_estimators = 20;
    params.max_depth = depth;
    const auto model = fit_rf(params, data);
    for (const FlatTree& tree : model->trees()->trees) {
      const TreeShape shape = tree_shape(tree);
      BOOST_TEST(shape.depth <= depth);
      BOOST_TEST(shape.nodes == static_cast<std::int64_t>(tree.feature.size()));
      if (depth == 1) BOOST_TEST(tree.feature.size() <= 3u);
    }
  }
}

BOOST_AUTO_TEST_CASE(min_samples_leaf_and_split_are_honoured) {
  const auto data = test::friedman1(400, 5, 1.0, 16);
  for (bool bootstrap : {false, true}) {
    RandomForestParams params;
    params.n_estimators = 10;
    params.max_depth = 0;
    params.min_samples_leaf = 15;
    params.bootstrap = bootstrap;
    const auto model = fit_rf(params, data);
    for (const FlatTree& tree : model->trees()->trees) {
      std::map<std::int32_t, int> rows_per_leaf;
      for (Index i = 0; i < data.X.rows(); ++i) ++rows_per_leaf[leaf_of(tree, data.X.row(i).data())];
      // Every leaf holds >= 15 distinct training rows of its sample, hence >= 15 rows of the full data.
      for (const auto& [leaf, count] : rows_per_leaf) BOOST_TEST(count >= 15);
      BOOST_TEST(tree_shape(tree).leaves > 4);  // it did grow
    }
  }
  RandomForestParams params;
  params.n_estimators = 5;
  params.max_depth = 0;
  params.bootstrap = false;
  params.min_samples_split = 400;  // the root (400 rows) may split, its children may not
  const auto stumps = fit_rf(params, data);
  for (const FlatTree& tree : stumps->trees()->trees) BOOST_TEST(tree.feature.size() == 3u);
}

BOOST_AUTO_TEST_CASE(max_features_limits_the_columns_searched) {
  // Only column 0 matters. With all columns searched every root splits on it; with one column per node the root
  // split feature varies from tree to tree. A constant column is never split on.
  Rng rng(4);
  test::Problem data{Matrix(200, 10), Vector(200)};
  for (Index i = 0; i < 200; ++i) {
    for (Index j = 0; j < 10; ++j) data.X(i, j) = static_cast<float>(rng.uniform());
    data.X(i, 9) = 1.0f;
    data.y[i] = 10.0 * data.X(i, 0);
  }
  RandomForestParams params;
  params.n_estimators = 30;
  params.max_depth = 3;
  std::set<std::int32_t> roots_all, roots_one, used_one;
  const auto all = fit_rf(params, data);
  for (const FlatTree& tree : all->trees()->trees) roots_all.insert(tree.feature[0]);
  params.max_features = 0.1;
  const auto one = fit_rf(params, data);
  for (const FlatTree& tree : one->trees()->trees) {
    roots_one.insert(tree.feature[0]);
    for (auto f : tree.feature) used_one.insert(f);
  }
  BOOST_TEST(roots_all == std::set<std::int32_t>{0});
  BOOST_TEST(roots_one.size() > 3u);
  BOOST_TEST(!used_one.contains(9));
}

BOOST_AUTO_TEST_CASE(bad_input_throws_input_error) {
  const auto estimator = make_random_forest(RandomForestParams{});
  const FitOptions options{};
  BOOST_CHECK_THROW(estimator->fit(Matrix(0, 3), Vector(0), options), InputError);
  BOOST_CHECK_THROW(estimator->fit(Matrix(5, 0), Vector(5), options), InputError);
  BOOST_CHECK_THROW(estimator->fit(Matrix::Zero(5, 3), Vector::Zero(4), options), InputError);
  Matrix with_inf = Matrix::Zero(5, 3);  // a missing cell (NaN) is data (test_missing_trees.cpp); infinity is not
  with_inf(2, 1) = std::numeric_limits<float>::infinity();
  BOOST_CHECK_THROW(estimator->fit(with_inf, Vector::Zero(5), options), InputError);
  const auto model = estimator->fit(Matrix::Zero(5, 3), Vector::Zero(5), options);
  BOOST_CHECK_THROW(model->predict(Matrix::Zero(2, 4)), InputError);
  RandomForestParams bad;
  bad.max_features = 0.0;
  BOOST_CHECK_THROW(make_random_forest(bad), ConfigError);
}

BOOST_AUTO_TEST_CASE(tiny_inputs_give_constant_trees) {
  Matrix X(1, 2);
  X << 1.0f, 2.0f;
  Vector y(1);
  y << 4.5;
  const auto model = make_random_forest(RandomForestParams{})->fit(X, y, FitOptions{});
  BOOST_TEST(model->predict(Matrix::Zero(3, 2)).isApproxToConstant(4.5));
}

BOOST_AUTO_TEST_CASE(forests_are_unchanged_by_the_speed_work) {
  // Fingerprints of forests grown by the straightforward builder before its optimisation: the faster
  // builder must grow the very same trees (same splits, thresholds, leaf values, node order) for every setting.
  // Those with max_features = 1 were taken again when a node's column order became a rotation of the tree's
  // (it only breaks ties); test_forest_reference.cpp checks those trees against a plain builder.
  const auto data = resampled_rows(240, 12, 21);
  struct Case {
    int depth, min_split, min_leaf;
    double max_features;
    bool bootstrap;
    std::uint64_t expected;
  };
  const Case cases[] = {
      {10, 2, 1, 1.0, true, 0xdc1e2fb991d38359}, {0, 2, 1, 1.0, true, 0x6c9d1e7c855bde35},
      {10, 2, 1, 0.3, true, 0xcbabd9b438816f5f}, {0, 2, 1, 1.0, false, 0x07854a616101955c},
      {6, 5, 3, 0.5, true, 0xf10ddf88f454f34f},  {0, 10, 1, 0.25, false, 0x4d600df752eb70c1},
  };
  for (const Case& c : cases) {
    RandomForestParams params;
    params.n_estimators = 20;
    params.max_depth = c.depth;
    params.min_samples_split = c.min_split;
    params.min_samples_leaf = c.min_leaf;
    params.max_features = c.max_features;
    params.bootstrap = c.bootstrap;
    for (int threads : {1, 2, -1}) {  // -1: one thread, the portable paths (no AVX2 kernels)
      detail::forest::set_vector_paths(threads > 0);
      const std::uint64_t h = fingerprint(*fit_rf(params, data, 5, std::abs(threads)));
      detail::forest::set_vector_paths(true);
      BOOST_TEST_MESSAGE("depth " << c.depth << " features " << c.max_features << " bootstrap " << c.bootstrap << ": "
                                  << std::hex << h);
      BOOST_TEST(h == c.expected, "depth " << c.depth << " min_split " << c.min_split << " min_leaf " << c.min_leaf
                                           << " max_features " << c.max_features << " bootstrap " << c.bootstrap
                                           << " threads " << threads << ": fingerprint " << std::hex << h);
    }
  }
}

BOOST_AUTO_TEST_CASE(portable_paths_grow_the_vector_paths_trees) {
  // The builder picks AVX2 kernels at run time (forest_simd.hpp); with them switched off, the portable ones (scalar
  // filters, SSE2 lanes) run on this machine too, and must grow the same forests: at most 256 rows (the 256-bit row
  // map) and above, regression and binary, one column per node and a fraction of them.
  struct Restore {
    ~Restore() { detail::forest::set_vector_paths(true); }
  } restore;
  for (const Index n : {240, 1000}) {
    const auto data = resampled_rows(n, 12, 21);
    const Vector binary_y = (data.y.array() > 12.0).cast<double>();
    for (const double max_features : {1.0, 0.3}) {
      for (const int depth : {10, 0}) {
        RandomForestParams params;
        params.n_estimators = 8;
        params.max_depth = depth;
        params.max_features = max_features;
        for (const Task task : {Task::Regression, Task::Binary}) {
          const Vector& y = task == Task::Binary ? binary_y : data.y;
          std::vector<std::string> models;
          for (const bool vector_on : {true, false}) {
            detail::forest::set_vector_paths(vector_on);
            models.push_back(
                make_random_forest(params, task)->fit(data.X, y, FitOptions{3, 1, {}, nullptr})->serialize());
          }
          BOOST_TEST((models[0] == models[1]), "rows " << n << " max_features " << max_features << " depth " << depth
                                                       << " binary " << (task == Task::Binary));
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(forests_on_more_than_65535_rows_are_unchanged_by_the_speed_work) {
  // Above 65 535 rows the builder keeps 32-bit sorted-column entries instead of 16-bit ones (forest_builder.hpp):
  // that path too must grow the plain builder's trees. Fingerprints taken at the column-order change,
  // when test_forest_reference.cpp's plain builder grew the same trees on these rows.
  const auto data = resampled_rows(70000, 6, 23);
  RandomForestParams params;
  params.n_estimators = 4;
  params.max_depth = 12;
  params.min_samples_leaf = 2;
  const Vector binary_y = (data.y.array() > 12.0).cast<double>();
  for (int threads : {1, 2}) {
    const auto regression = make_random_forest(params)->fit(data.X, data.y, FitOptions{5, threads, {}, nullptr});
    const auto binary =
        make_random_forest(params, Task::Binary)->fit(data.X, binary_y, FitOptions{5, threads, {}, nullptr});
    BOOST_TEST(fingerprint(*regression) == 0x08ff6038efd1792e,
               "threads " << threads << ": " << std::hex << fingerprint(*regression));
    BOOST_TEST(fingerprint(*binary) == 0x5d09b0992df1a58f,
               "threads " << threads << ": " << std::hex << fingerprint(*binary));
  }
}

BOOST_AUTO_TEST_SUITE_END()
