// random_forest against a plain CART builder written from the algorithm's description (random_forest.cpp's header,
// forest_builder.hpp's select_columns), and the batch presort (forest_presort.hpp) against a fit's own sort.
//
// The reference re-sorts a node's rows for every column (no presorted segments, no partitions, no vector lanes) and
// keeps the first split that is strictly best in the node's column order. Its sums run in the order the builder's
// arithmetic promises (a node's totals in the order of its parent's split column, the root's in column 0's order), so
// the two must agree bit for bit: every feature, threshold, child index and leaf value of every tree.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cfloat>
#include <numeric>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/detail/forest_presort.hpp"
#include "estimators/estimator.hpp"
#include "test_data.hpp"

using namespace bfs;

namespace {

struct Reference {
  const Matrix& X;
  const Vector& y;
  const RandomForestParams& params;
  int m;  // columns searched per node
  std::vector<double> w, wy;
  FlatTree tree;

  /// rows in the order of column c: (value, row), −0 as +0.
  std::vector<std::int32_t> sorted_by(std::vector<std::int32_t> rows, std::int32_t c) const {
    std::sort(rows.begin(), rows.end(), [&](std::int32_t a, std::int32_t b) {
      const auto ka = detail::forest::ordered_bits(X(a, c)), kb = detail::forest::ordered_bits(X(b, c));
      return ka != kb ? ka < kb : a < b;
    });
    return rows;
  }

  struct Totals {
    double w_sum = 0.0, wy_sum = 0.0;
    bool leaf = true;
  };
  Totals totals(const std::vector<std::int32_t>& ordered, int depth) const {
    Totals t;
    for (const std::int32_t r : ordered) t.w_sum += w[r], t.wy_sum += wy[r];
    const auto count = static_cast<int>(ordered.size());
    if ((params.max_depth > 0 && depth >= params.max_depth) || count < params.min_samples_split ||
        count < 2 * params.min_samples_leaf)
      return t;
    const double mean = t.wy_sum / t.w_sum;
    double impurity = 0.0;
    for (const std::int32_t r : ordered) impurity += w[r] * (y[r] - mean) * (y[r] - mean);
    t.leaf = impurity / t.w_sum <= DBL_EPSILON;
    return t;
  }

  std::int32_t add_node(double value) {
    tree.feature.push_back(-1);
    tree.threshold.push_back(0.0f);
    tree.left.push_back(-1);
    tree.right.push_back(-1);
    tree.default_left.push_back(0);
    tree.value.push_back(value);
    return static_cast<std::int32_t>(tree.feature.size() - 1);
  }

  FlatTree build(std::uint64_t seed, int t) {
    const auto n = static_cast<std::int32_t>(X.rows()), p = static_cast<std::int32_t>(X.cols());
    Rng rng(Rng::stream(seed, static_cast<std::uint64_t>(t), 0, Purpose::Fit));
    std::vector<int> counts(static_cast<std::size_t>(n), params.bootstrap ? 0 : 1);
    if (params.bootstrap)
      for (std::int32_t i = 0; i < n; ++i) ++counts[rng.uniform_int(static_cast<std::uint64_t>(n))];
    w.assign(static_cast<std::size_t>(n), 0.0);
    wy.assign(static_cast<std::size_t>(n), 0.0);
    std::vector<std::int32_t> rows;
    for (std::int32_t r = 0; r < n; ++r) {
      w[r] = counts[r];
      wy[r] = counts[r] * y[r];
      if (counts[r] > 0) rows.push_back(r);
    }
    std::vector<std::int32_t> features(static_cast<std::size_t>(p));
    std::iota(features.begin(), features.end(), 0);
    if (m >= p)  // the tree's column order
      for (std::int32_t k = 0; k + 1 < p; ++k)
        std::swap(features[k],
                  features[k + static_cast<std::int32_t>(rng.uniform_int(static_cast<std::uint64_t>(p - k)))]);

    tree = FlatTree{};
    struct Task {
      std::int32_t node;
      std::vector<std::int32_t> rows;
      int depth;
      Totals totals;
    };
    const std::vector<std::int32_t> root_rows = sorted_by(rows, 0);
    const Totals root = totals(root_rows, 0);
    std::vector<Task> stack;
    const std::int32_t root_node = add_node(root.wy_sum / root.w_sum);
    if (!root.leaf) stack.push_back({root_node, root_rows, 0, root});
    while (!stack.empty()) {
      const Task task = stack.back();
      stack.pop_back();
      // The node's columns: a rotation of the tree's order, or scikit-learn's partial Fisher–Yates.
      std::vector<std::int32_t> order;
      if (m >= p) {
        const auto offset = static_cast<std::int32_t>(rng.uniform_int(static_cast<std::uint64_t>(p)));
        for (std::int32_t k = 0; k < p; ++k) order.push_back(features[(offset + k) % p]);
      } else {
        for (std::int32_t k = 0; k < p && static_cast<int>(order.size()) < m; ++k) {
          std::swap(features[k],
                    features[k + static_cast<std::int32_t>(rng.uniform_int(static_cast<std::uint64_t>(p - k)))]);
          const std::vector<std::int32_t> s = sorted_by(task.rows, features[k]);
          if (X(s.front(), features[k]) != X(s.back(), features[k])) order.push_back(features[k]);
        }
      }
      std::int32_t best_feature = -1, best_pos = -1;
      double best_proxy = -1.0;
      std::vector<std::int32_t> best_rows;
      const auto size = static_cast<std::int32_t>(task.rows.size());
      for (const std::int32_t f : order) {
        const std::vector<std::int32_t> s = sorted_by(task.rows, f);
        double w_left = 0.0, wy_left = 0.0;
        for (std::int32_t i = 0; i + params.min_samples_leaf < size; ++i) {
          w_left += w[s[i]];
          wy_left += wy[s[i]];
          if (i < params.min_samples_leaf - 1 || !(X(s[i], f) < X(s[i + 1], f))) continue;
          const double w_right = task.totals.w_sum - w_left, wy_right = task.totals.wy_sum - wy_left;
          const double num = wy_left * wy_left * w_right + wy_right * wy_right * w_left, den = w_left * w_right;
          if (num > best_proxy * den) best_feature = f, best_pos = i, best_proxy = num / den, best_rows = s;
        }
      }
      if (best_feature < 0) continue;
      const float a = X(best_rows[best_pos], best_feature), b = X(best_rows[best_pos + 1], best_feature);
      float threshold = static_cast<float>(0.5 * (static_cast<double>(a) + static_cast<double>(b)));
      if (!(threshold >= a && threshold < b)) threshold = a;
      const std::vector<std::int32_t> left_rows(best_rows.begin(), best_rows.begin() + best_pos + 1);
      const std::vector<std::int32_t> right_rows(best_rows.begin() + best_pos + 1, best_rows.end());
      const Totals ls = totals(left_rows, task.depth + 1), rs = totals(right_rows, task.depth + 1);
      const std::int32_t left = add_node(ls.wy_sum / ls.w_sum), right = add_node(rs.wy_sum / rs.w_sum);
      tree.feature[task.node] = best_feature;
      tree.threshold[task.node] = threshold;
      tree.left[task.node] = left;
      tree.right[task.node] = right;
      if (!rs.leaf) stack.push_back({right, right_rows, task.depth + 1, rs});
      if (!ls.leaf) stack.push_back({left, left_rows, task.depth + 1, ls});
    }
    return tree;
  }
};

/// Rows drawn with replacement (duplicates), column 1 on a coarse grid (ties), column 2 constant, column 3 a copy of
/// column 0 (a tie in every node) and −0 beside +0 in column 4.
test::Problem tie_heavy_rows(Index n, Index p, std::uint64_t seed) {
  BOOST_TEST_REQUIRE(p >= 5);  // columns 0–4 are the special ones
  Rng rng(seed);
  test::Problem out{Matrix(n, p), Vector(n)};
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < p; ++j) out.X(i, j) = static_cast<float>(rng.uniform());
    out.X(i, 1) = static_cast<float>(rng.uniform_int(5)) / 4.0f;
    out.X(i, 2) = 0.5f;
    out.X(i, 3) = out.X(i, 0);
    if (i % 7 == 0) out.X(i, 4) = i % 14 == 0 ? -0.0f : 0.0f;
    out.y[i] = 10.0 * out.X(i, 0) * out.X(i, 1) + 5.0 * out.X(i, 4) + rng.uniform();
  }
  for (Index i = 1; i < n; i += 5) {  // duplicate rows, as an offline bootstrap's training part has
    out.X.row(i) = out.X.row(i - 1);
    out.y[i] = out.y[i - 1];
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(forest_reference)

BOOST_AUTO_TEST_CASE(the_builder_grows_the_plain_builders_trees) {
  struct Case {
    Index n;
    int depth, min_split, min_leaf;
    double max_features;
    bool bootstrap;
    Task task;
  };
  // 200 rows: the vector filters (below 257 rows); 400: the scalar ones; 70 000: 32-bit sorted-column entries.
  const Case cases[] = {{200, 10, 2, 1, 1.0, true, Task::Regression},  {200, 0, 2, 1, 1.0, false, Task::Regression},
                        {400, 8, 4, 2, 1.0, true, Task::Regression},   {200, 10, 2, 1, 0.4, true, Task::Regression},
                        {200, 10, 2, 1, 1.0, true, Task::Binary},      {400, 0, 2, 1, 0.5, true, Task::Binary},
                        {70000, 12, 2, 2, 1.0, true, Task::Regression}};  // 32-bit entries above 65 535 rows
  for (const Case& c : cases) {
    const test::Problem data = tie_heavy_rows(c.n, 9, 7);
    const Vector y = c.task == Task::Binary ? Vector((data.y.array() > 5.0).cast<double>()) : data.y;
    RandomForestParams params;
    params.n_estimators = c.n > 1000 ? 2 : 6;
    params.max_depth = c.depth;
    params.min_samples_split = c.min_split;
    params.min_samples_leaf = c.min_leaf;
    params.max_features = c.max_features;
    params.bootstrap = c.bootstrap;
    const auto model = make_random_forest(params, c.task)->fit(data.X, y, FitOptions{11, 2, {}, nullptr});
    const int m = std::max(1, static_cast<int>(c.max_features * 9));
    Reference reference{data.X, y, params, m, {}, {}, {}};
    for (int t = 0; t < params.n_estimators; ++t) {
      const FlatTree expected = reference.build(11, t);
      const FlatTree& got = model->trees()->trees[static_cast<std::size_t>(t)];
      BOOST_TEST((got.feature == expected.feature && got.threshold == expected.threshold && got.left == expected.left &&
                  got.right == expected.right && got.value == expected.value),
                 "rows " << c.n << " depth " << c.depth << " max_features " << c.max_features << " tree " << t << ": "
                         << got.feature.size() << " nodes against " << expected.feature.size());
    }
  }
}

BOOST_AUTO_TEST_CASE(ties_go_to_either_copy_of_a_column) {
  // Columns 0 and 3 are copies: every split on one is tied by the other. With every column searched, the node's
  // order alone breaks the tie, and each copy must be first about half the time (a fixed order would give 100/0).
  const test::Problem data = tie_heavy_rows(200, 9, 3);
  RandomForestParams params;
  params.n_estimators = 200;
  const auto model = make_random_forest(params)->fit(data.X, data.y, FitOptions{5, 2, {}, nullptr});
  double on_0 = 0.0, on_3 = 0.0;
  for (const FlatTree& tree : model->trees()->trees) {
    on_0 += static_cast<double>(std::count(tree.feature.begin(), tree.feature.end(), 0));
    on_3 += static_cast<double>(std::count(tree.feature.begin(), tree.feature.end(), 3));
  }
  BOOST_TEST_MESSAGE("splits on column 0: " << on_0 << ", on its copy: " << on_3);
  BOOST_TEST(on_0 + on_3 > 1000.0);
  BOOST_TEST(on_0 / (on_0 + on_3) > 0.45);
  BOOST_TEST(on_0 / (on_0 + on_3) < 0.55);
}

BOOST_AUTO_TEST_CASE(a_fit_from_the_batch_sort_is_the_fit_from_its_own_sort) {
  // The batch's columns sorted once (Estimator::prepare), then a fit's rows (repeated, in any order) and columns
  // selected from them: the same sorted entries as presort of the fit's X, and the same forest.
  const test::Problem batch = tie_heavy_rows(300, 9, 5);
  const auto estimator = make_random_forest(RandomForestParams{});
  const auto prepared = estimator->prepare(batch.X, 2);
  const auto* period = dynamic_cast<const detail::forest::PresortedPeriod*>(prepared.get());
  BOOST_TEST_REQUIRE(period != nullptr);
  Rng rng(9);
  for (int trial = 0; trial < 20; ++trial) {
    const auto n = static_cast<Index>(1 + rng.uniform_int(400));
    std::vector<Index> rows(static_cast<std::size_t>(n));
    for (Index& r : rows) r = static_cast<Index>(rng.uniform_int(300));
    if (trial % 2 == 0) std::sort(rows.begin(), rows.end());
    const std::vector<FeatureId> columns =
        trial % 3 == 0 ? std::vector<FeatureId>{4, 1, 2, 0, 3} : std::vector<FeatureId>{0, 1, 2, 3, 4, 5, 6, 7, 8};
    Matrix X(n, static_cast<Index>(columns.size()));
    Vector y(n);
    for (Index i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < columns.size(); ++j) X(i, static_cast<Index>(j)) = batch.X(rows[i], columns[j]);
      y[i] = batch.y[rows[i]];
    }
    const auto own = detail::forest::presort<std::uint16_t>(X, 1);
    const auto selected = period->select<std::uint16_t>(rows, columns, 2);
    bool same = own.size() == selected.size();
    for (std::size_t k = 0; same && k < own.size(); ++k)
      same = own[k].rank == selected[k].rank && own[k].row == selected[k].row;
    BOOST_TEST(same, "trial " << trial << ": " << n << " rows");
    if (trial < 4) {
      FitOptions with{3, 1, {}, nullptr};
      with.origin = FitOrigin{prepared.get(), rows, columns};
      BOOST_TEST(estimator->fit(X, y, with)->serialize() ==
                 estimator->fit(X, y, FitOptions{3, 1, {}, nullptr})->serialize());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_batch_sort_refuses_rows_and_columns_outside_its_batch) {
  const test::Problem batch = tie_heavy_rows(50, 6, 2);
  const detail::forest::PresortedPeriod period(batch.X, 1);
  const std::vector<Index> good_rows = {0, 49}, bad_rows = {0, 50};
  const std::vector<FeatureId> good_columns = {5}, bad_columns = {6};
  BOOST_CHECK_NO_THROW(period.select<std::uint16_t>(good_rows, good_columns, 1));
  BOOST_CHECK_THROW(period.select<std::uint16_t>(bad_rows, good_columns, 1), InternalError);
  BOOST_CHECK_THROW(period.select<std::uint16_t>(good_rows, bad_columns, 1), InternalError);
}

BOOST_AUTO_TEST_SUITE_END()
