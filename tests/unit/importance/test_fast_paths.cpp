// The exact fast paths of permutation importance (fast_paths.hpp) against the general path forced with
// ImportancePath::Generic, under the same permutations: random forests, XGBoost gbm (depthwise and lossguide, NaN
// entries), hand-built random trees (both comparison rules, NaN default directions), lasso, MLP; singleton and
// grouped columns; unused columns exactly 0; the same numbers for 1 and 2 threads; with missing cells, the random
// forest's learned directions and models behind a fitted imputation (estimators/missing.hpp).
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

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

/// Columns: 0–3 continuous N(0,1), 4–5 integer-valued in {0..4} (many ties), 6 constant (no tree can split on it),
/// 7.. noise. y depends on 0, 1, 4 and 5.
struct Data {
  Matrix X_train, X_test;
  Vector y_train, y_test;
};

void fill(Matrix& X, Vector& y, Rng& rng) {
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      if (j == 4 || j == 5) {
        X(i, j) = static_cast<float>(rng.uniform_int(5));
      } else if (j == 6) {
        X(i, j) = 1.5f;
      } else {
        X(i, j) = static_cast<float>(rng.normal());
      }
    }
    y[i] = 2.0 * X(i, 0) + std::sin(3.0 * X(i, 1)) + 0.7 * X(i, 4) - 0.5 * X(i, 5) * X(i, 0) + 0.3 * rng.normal();
  }
}

Data make_data(Index n_train, Index n_test, Index p, std::uint64_t seed) {
  Rng rng(seed);
  Data d{Matrix(n_train, p), Matrix(n_test, p), Vector(n_train), Vector(n_test)};
  fill(d.X_train, d.y_train, rng);
  fill(d.X_test, d.y_test, rng);
  return d;
}

/// Sets about `fraction` of the entries to NaN, except in the constant column 6 (NaN vs 1.5 would be splittable).
void punch_holes(Matrix& X, double fraction, std::uint64_t seed) {
  Rng rng(seed);
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      if (j != 6 && rng.uniform() < fraction) X(i, j) = kNaN;
    }
  }
}

/// Runs the fast path (expecting `method`) and the general path on the same request and compares them: equal to
/// 1e-9 relative, or 1e-12 absolute near 0; bit-identical when `exact`. Also checks 1 vs 2 threads.
ImportanceResult check_against_generic(const Model& model, const Matrix& X, const Vector& y,
                                       const std::vector<std::vector<Index>>& groups, ImportanceMethod method,
                                       bool exact) {
  const auto fast = permutation_importance(make_request(model, X, y, groups, Metric::R2, 1, ImportancePath::Auto));
  const auto slow = permutation_importance(make_request(model, X, y, groups, Metric::R2, 1, ImportancePath::Generic));
  const auto fast2 = permutation_importance(make_request(model, X, y, groups, Metric::R2, 2, ImportancePath::Auto));
  BOOST_TEST(static_cast<int>(fast.method) == static_cast<int>(method));
  BOOST_TEST(static_cast<int>(slow.method) == static_cast<int>(ImportanceMethod::Generic));
  BOOST_TEST(fast.baseline == slow.baseline);
  BOOST_REQUIRE(fast.scores.size() == groups.size());
  BOOST_REQUIRE(slow.scores.size() == groups.size());
  // Every repeat's drop (reward.null = "paired" tests them) must agree as the means do.
  BOOST_REQUIRE(fast.drops.size() == slow.drops.size());
  const auto expect_agree = [exact](const std::vector<double>& fast_values, const std::vector<double>& slow_values,
                                    const char* what) {
    for (std::size_t k = 0; k < fast_values.size(); ++k) {
      const double a = fast_values[k], b = slow_values[k];
      BOOST_TEST_CONTEXT(what << " " << k << " fast " << a << " generic " << b) {
        if (exact) {
          BOOST_TEST(a == b);
        } else {
          BOOST_TEST(std::abs(a - b) <= std::max(1e-12, 1e-9 * std::abs(b)));
        }
      }
    }
  };
  expect_agree(fast.scores, slow.scores, "group");
  expect_agree(fast.drops, slow.drops, "drop");
  // The mean is the drops' average.
  const int repeats = static_cast<int>(fast.drops.size() / groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    double total = 0.0;
    for (double d : fast.drops_of(g, repeats)) total += d;
    BOOST_TEST(fast.scores[g] == total / repeats);
  }
  BOOST_TEST(fast.scores == fast2.scores);  // thread-count independent, bit for bit
  BOOST_TEST(fast.drops == fast2.drops);
  return fast;
}

std::vector<std::vector<Index>> grouped(Index p) {
  std::vector<std::vector<Index>> groups{{0, 1}, {4, 5, 2}, {6}, {3}};
  for (Index j = 7; j < p; j += 2) {
    if (j + 1 < p) {
      groups.push_back({j + 1, j});
    } else {
      groups.push_back({j});
    }
  }
  return groups;
}

/// A model around a hand-built ensemble: predict = predict_ensemble (optionally shifted, so no summation matches).
class EnsembleModel : public Model {
 public:
  EnsembleModel(TreeEnsemble ensemble, Index p, double shift = 0.0)
      : ensemble_(std::move(ensemble)), p_(p), shift_(shift) {}
  Vector predict(const Matrix& X) const override {
    Vector out = predict_ensemble(ensemble_, X);
    if (shift_ != 0.0) out.array() += shift_ * (X.col(0).cast<double>().array().isNaN().cast<double>() + 1.0);
    return out;
  }
  std::string serialize() const override { return ""; }
  Index num_features() const override { return p_; }
  bool supports_concurrent_predict() const override { return true; }
  const TreeEnsemble* trees() const override { return &ensemble_; }

 private:
  TreeEnsemble ensemble_;
  Index p_;
  double shift_;
};

/// Random complete trees of the given depth over columns [0, used), thresholds drawn from X's values (so ties
/// with the threshold occur and < vs <= matters), random default directions.
TreeEnsemble random_ensemble(const Matrix& X, Index used, int n_trees, int depth, bool strict_less, Rng& rng) {
  TreeEnsemble ens;
  ens.base_score = 0.25;
  ens.scale = 1.0 / 3.0;
  ens.strict_less = strict_less;
  for (int t = 0; t < n_trees; ++t) {
    FlatTree tree;
    const int internal = (1 << depth) - 1, total = (1 << (depth + 1)) - 1;
    for (int node = 0; node < total; ++node) {
      const bool leaf = node >= internal;
      std::int32_t f = leaf ? -1 : static_cast<std::int32_t>(rng.uniform_int(static_cast<std::uint64_t>(used)));
      float threshold = 0.0f;
      if (!leaf) {
        for (int tries = 0; tries < 20; ++tries) {  // a non-NaN value of the column
          threshold = X(static_cast<Index>(rng.uniform_int(static_cast<std::uint64_t>(X.rows()))), f);
          if (!std::isnan(threshold)) break;
        }
        if (std::isnan(threshold)) threshold = 0.0f;
      }
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

/// The same trees stored in another node order: each tree's nodes are re-laid out breadth-first with the right
/// child stored before the left one and a gap of unreachable leaves, so children are neither adjacent nor in
/// left-right order (the fast path renumbers nodes and must not rely on the input's layout).
TreeEnsemble scatter_nodes(const TreeEnsemble& in) {
  TreeEnsemble out = in;
  for (std::size_t t = 0; t < in.trees.size(); ++t) {
    const FlatTree& a = in.trees[t];
    FlatTree& b = out.trees[t];
    b = FlatTree{};
    std::vector<std::int32_t> order{0};  // breadth-first, right before left
    for (std::size_t k = 0; k < order.size(); ++k) {
      if (a.feature[order[k]] >= 0) {
        order.push_back(a.right[order[k]]);
        order.push_back(a.left[order[k]]);
      }
    }
    std::vector<std::int32_t> where(a.feature.size(), -1);
    for (std::size_t k = 0; k < order.size(); ++k) where[order[k]] = static_cast<std::int32_t>(2 * k);
    for (std::size_t k = 0; k < 2 * order.size(); ++k) {
      const bool unused = k % 2 == 1;  // every other slot: an unreachable leaf
      const std::int32_t src = unused ? -1 : order[k / 2];
      const bool leaf = unused || a.feature[src] < 0;
      b.feature.push_back(leaf ? -1 : a.feature[src]);
      b.threshold.push_back(unused ? 0.0f : a.threshold[src]);
      b.left.push_back(leaf ? -1 : where[a.left[src]]);
      b.right.push_back(leaf ? -1 : where[a.right[src]]);
      b.default_left.push_back(unused ? 0 : a.default_left[src]);
      b.value.push_back(unused ? 99.0 : a.value[src]);
    }
  }
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fast_paths)

BOOST_AUTO_TEST_CASE(random_forest_matches_the_general_path_bit_for_bit) {
  const Index p = 14;
  const auto d = make_data(300, 90, p, 1);
  for (double max_features : {1.0, 0.4}) {
    RandomForestParams params;
    params.n_estimators = 40;
    params.max_depth = 8;
    params.max_features = max_features;
    const auto model = make_random_forest(params)->fit(d.X_train, d.y_train, FitOptions{7, 1, {}, nullptr});
    BOOST_TEST_CONTEXT("max_features " << max_features) {
      const auto single =
          check_against_generic(*model, d.X_test, d.y_test, singleton_groups(p), ImportanceMethod::Trees, true);
      BOOST_TEST(single.scores[6] == 0.0);  // the constant column is never split on
      BOOST_TEST(single.scores[0] > 0.1);   // the strongest signal
      check_against_generic(*model, d.X_test, d.y_test, grouped(p), ImportanceMethod::Trees, true);
    }
  }
}

BOOST_AUTO_TEST_CASE(gbm_with_missing_values_matches_the_general_path_bit_for_bit) {
  const Index p = 12;
  auto d = make_data(400, 120, p, 2);
  punch_holes(d.X_train, 0.1, 3);  // XGBoost learns default directions from these
  punch_holes(d.X_test, 0.15, 4);
  for (int max_leaves : {0, 12}) {
    GbmParams params;
    params.n_estimators = 60;
    params.max_depth = max_leaves > 0 ? 0 : 4;
    params.max_leaves = max_leaves;
    params.colsample = 0.8;
    params.learning_rate = 0.2;
    const auto model = make_gbm(params)->fit(d.X_train, d.y_train, FitOptions{9, 1, {}, nullptr});
    BOOST_TEST_CONTEXT("max_leaves " << max_leaves) {
      const auto single =
          check_against_generic(*model, d.X_test, d.y_test, singleton_groups(p), ImportanceMethod::Trees, true);
      BOOST_TEST(single.scores[6] == 0.0);
      check_against_generic(*model, d.X_test, d.y_test, grouped(p), ImportanceMethod::Trees, true);
    }
  }
}

BOOST_AUTO_TEST_CASE(hgb_with_missing_values_matches_the_general_path_bit_for_bit) {
  const Index p = 12;
  auto d = make_data(400, 120, p, 2);
  punch_holes(d.X_train, 0.1, 3);  // hgb learns a side for the NaN rows of each split
  punch_holes(d.X_test, 0.15, 4);
  HgbParams params;
  params.n_estimators = 40;
  params.max_leaves = 12;
  params.min_samples_leaf = 5;
  params.colsample = 0.8;
  const auto model = make_hgb(params)->fit(d.X_train, d.y_train, FitOptions{9, 1, {}, nullptr});
  check_against_generic(*model, d.X_test, d.y_test, singleton_groups(p), ImportanceMethod::Trees, true);
  check_against_generic(*model, d.X_test, d.y_test, grouped(p), ImportanceMethod::Trees, true);
}

BOOST_AUTO_TEST_CASE(random_forest_with_missing_values_matches_the_general_path_bit_for_bit) {
  // Missing rows sent left or right as each split learned, and nodes that saw none: a permuted column carries its
  // NaN cells to other rows, and the fast path must follow them exactly as predict does.
  const Index p = 12;
  auto d = make_data(300, 100, p, 5);
  punch_holes(d.X_train, 0.1, 6);
  punch_holes(d.X_test, 0.15, 7);
  RandomForestParams params;
  params.n_estimators = 30;
  params.max_depth = 8;
  const auto model = make_random_forest(params)->fit(d.X_train, d.y_train, FitOptions{7, 1, {}, nullptr});
  int missing_left = 0;
  for (const FlatTree& tree : model->trees()->trees)
    for (std::size_t k = 0; k < tree.feature.size(); ++k) missing_left += tree.feature[k] >= 0 && tree.default_left[k];
  BOOST_TEST(missing_left > 0);
  check_against_generic(*model, d.X_test, d.y_test, singleton_groups(p), ImportanceMethod::Trees, true);
  check_against_generic(*model, d.X_test, d.y_test, grouped(p), ImportanceMethod::Trees, true);
}

BOOST_AUTO_TEST_CASE(imputing_models_match_the_general_path_on_the_raw_rows) {
  // Behind a fitted imputation the fast paths run on the filled test rows; the general path permutes the raw rows
  // (NaN cells included) and predicts through the imputation. Trees agree bit for bit; the linear and MLP paths to
  // their usual rounding.
  const Index p = 10;
  auto d = make_data(300, 90, p, 8);
  punch_holes(d.X_train, 0.1, 9);
  punch_holes(d.X_test, 0.15, 10);
  EstimatorConfig config;
  config.lasso.lambda = 0.05;
  config.mlp.hidden = {12};
  config.mlp.max_epochs = 20;
  config.random_forest.n_estimators = 20;
  struct Case {
    EstimatorName name;
    ImportanceMethod method;
    bool exact;
  };
  for (const Case c : {Case{EstimatorName::Lasso, ImportanceMethod::Linear, false},
                       Case{EstimatorName::Mlp, ImportanceMethod::Mlp, false},
                       Case{EstimatorName::RandomForest, ImportanceMethod::Trees, true}}) {
    config.name = c.name;
    const auto model = make_estimator(config, Task::Regression, MissingRule::Impute)
                           ->fit(d.X_train, d.y_train, FitOptions{3, 1, {}, nullptr});
    BOOST_REQUIRE(model->imputation() != nullptr);
    BOOST_TEST_CONTEXT("estimator " << static_cast<int>(c.name)) {
      check_against_generic(*model, d.X_test, d.y_test, singleton_groups(p), c.method, c.exact);
      check_against_generic(*model, d.X_test, d.y_test, grouped(p), c.method, c.exact);
    }
  }
}

BOOST_AUTO_TEST_CASE(random_trees_with_ties_and_nan_match_for_both_comparison_rules) {
  const Index p = 10, used = 7;  // columns 7..9 appear in no tree
  auto d = make_data(10, 150, p, 5);
  punch_holes(d.X_test, 0.1, 6);
  Rng rng(8);
  for (bool strict_less : {false, true}) {
    const EnsembleModel model(random_ensemble(d.X_test, used, 25, 5, strict_less, rng), p);
    BOOST_TEST_CONTEXT("strict_less " << strict_less) {
      const auto single =
          check_against_generic(model, d.X_test, d.y_test, singleton_groups(p), ImportanceMethod::Trees, true);
      for (Index j = used; j < p; ++j) BOOST_TEST(single.scores[j] == 0.0);
      check_against_generic(model, d.X_test, d.y_test, {{0, 3}, {1, 2, 5}, {7, 8}, {4, 9}, {6}},
                            ImportanceMethod::Trees, true);
    }
  }
}

BOOST_AUTO_TEST_CASE(deep_trees_on_few_columns_with_repeated_leaf_values_and_any_node_layout_match) {
  // Depth-8 trees over 3 columns: paths meet the same column again and again, so the walk below a flipped node
  // often stops at another node on the column (the remembered part of the walk ends there) and leaf values drawn
  // from {-1, 0, 1} make a new leaf often carry the old value. Stored in two node layouts; 200 test rows give
  // batches of changed rows of every size.
  const Index p = 8, used = 3;  // make_data needs 7 columns or more; 3..7 appear in no tree
  auto d = make_data(10, 200, p, 21);
  punch_holes(d.X_test, 0.05, 22);
  Rng rng(23);
  for (bool strict_less : {false, true}) {
    TreeEnsemble ens = random_ensemble(d.X_test, used, 30, 8, strict_less, rng);
    for (FlatTree& tree : ens.trees) {
      for (std::size_t k = 0; k < tree.value.size(); ++k) {
        if (tree.feature[k] < 0) tree.value[k] = static_cast<double>(rng.uniform_int(3)) - 1.0;
      }
    }
    for (bool scattered : {false, true}) {
      const EnsembleModel model(scattered ? scatter_nodes(ens) : ens, p);
      BOOST_TEST_CONTEXT("strict_less " << strict_less << " scattered " << scattered) {
        const auto single =
            check_against_generic(model, d.X_test, d.y_test, singleton_groups(p), ImportanceMethod::Trees, true);
        BOOST_TEST(single.scores[3] == 0.0);
        BOOST_TEST(single.scores[0] != 0.0);
        check_against_generic(model, d.X_test, d.y_test, {{0, 1}, {2, 0}, {1, 2, 4}, {3, 7}}, ImportanceMethod::Trees,
                              true);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(long_runs_of_one_column_and_index_storage_reused_across_calls_match) {
  // The singleton path tests 64 of a row's entries at a time (4 per instruction) and skips the rest of a tree once
  // it flipped; its memo goes one node further on the same column (resume_next); and the index's storage is kept
  // from one call to the next. Depth-10 trees over 2 columns give rows with hundreds of entries per column (tree
  // runs straddling the 64-entry blocks, entry counts not a multiple of 4) and memos that stop at a node on the
  // column again and again; calls alternate between a large and a small ensemble on fewer rows and columns, so a
  // reused index holds stale, larger contents each time.
  Rng rng(31);
  auto big = make_data(10, 70, 8, 32);
  auto small = make_data(10, 23, 7, 33);
  punch_holes(big.X_test, 0.04, 34);
  punch_holes(small.X_test, 0.1, 35);
  for (bool strict_less : {false, true}) {
    const EnsembleModel big_model(random_ensemble(big.X_test, 2, 40, 10, strict_less, rng), 8);
    const EnsembleModel small_model(random_ensemble(small.X_test, 5, 3, 4, strict_less, rng), 7);
    for (int round = 0; round < 2; ++round) {
      BOOST_TEST_CONTEXT("strict_less " << strict_less << " round " << round) {
        const auto single = check_against_generic(big_model, big.X_test, big.y_test, singleton_groups(8),
                                                  ImportanceMethod::Trees, true);
        BOOST_TEST(single.scores[0] != 0.0);
        BOOST_TEST(single.scores[2] == 0.0);
        check_against_generic(small_model, small.X_test, small.y_test, singleton_groups(7), ImportanceMethod::Trees,
                              true);
        check_against_generic(big_model, big.X_test, big.y_test, {{0, 1}, {1}, {0, 3}}, ImportanceMethod::Trees, true);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(trees_that_do_not_reproduce_the_predictions_fall_back_to_the_general_path) {
  const Index p = 6;
  auto d = make_data(10, 60, p, 9);
  punch_holes(d.X_test, 0.2, 10);
  Rng rng(11);
  const EnsembleModel model(random_ensemble(d.X_test, p, 5, 3, true, rng), p, 1e-3);
  check_against_generic(model, d.X_test, d.y_test, singleton_groups(p), ImportanceMethod::Generic, true);
}

BOOST_AUTO_TEST_CASE(lasso_matches_and_zero_coefficients_give_exactly_zero) {
  const Index p = 16;
  const auto d = make_data(300, 100, p, 12);
  LassoParams params;
  params.lambda = 0.05;
  const auto model = make_lasso(params)->fit(d.X_train, d.y_train, FitOptions{1, 1, {}, nullptr});
  const LinearStructure* linear = model->linear();
  BOOST_REQUIRE(linear != nullptr);
  int zeros = 0;
  for (Index j = 0; j < p; ++j) zeros += linear->coef[j] == 0.0;
  BOOST_TEST(zeros >= 3);
  BOOST_TEST(zeros < p - 2);
  const auto single =
      check_against_generic(*model, d.X_test, d.y_test, singleton_groups(p), ImportanceMethod::Linear, false);
  for (Index j = 0; j < p; ++j) {
    if (linear->coef[j] == 0.0) BOOST_TEST(single.scores[j] == 0.0);
  }
  check_against_generic(*model, d.X_test, d.y_test, grouped(p), ImportanceMethod::Linear, false);
}

BOOST_AUTO_TEST_CASE(mlp_matches_the_general_path) {
  const Index p = 9;
  const auto d = make_data(300, 80, p, 13);
  MlpParams params;
  params.hidden = {16, 8};
  params.max_epochs = 30;
  const auto model = make_mlp(params)->fit(d.X_train, d.y_train, FitOptions{2, 1, {}, nullptr});
  const auto single =
      check_against_generic(*model, d.X_test, d.y_test, singleton_groups(p), ImportanceMethod::Mlp, false);
  BOOST_TEST(single.scores[0] > 0.05);
  check_against_generic(*model, d.X_test, d.y_test, grouped(p), ImportanceMethod::Mlp, false);
}

BOOST_AUTO_TEST_CASE(every_path_uses_the_request_permutations) {
  // A fast path agrees with a direct Algorithm 3 loop written from importance_permutations().
  const Index p = 8;
  const auto d = make_data(200, 50, p, 14);
  RandomForestParams params;
  params.n_estimators = 10;
  const auto model = make_random_forest(params)->fit(d.X_train, d.y_train, FitOptions{3, 1, {}, nullptr});
  const auto request = make_request(*model, d.X_test, d.y_test, {{0, 4}}, Metric::R2, 1, ImportancePath::Auto);
  const auto result = permutation_importance(request);
  const Vector y_hat = model->predict(d.X_test);
  double base_sse = 0.0, sst = 0.0;
  const double mean = d.y_test.mean();
  for (Index i = 0; i < d.y_test.size(); ++i) {
    base_sse += std::pow(d.y_test[i] - y_hat[i], 2);
    sst += std::pow(d.y_test[i] - mean, 2);
  }
  double total = 0.0;
  for (const auto& perm : importance_permutations(request, 0)) {
    Matrix Xp = d.X_test;
    for (Index i = 0; i < Xp.rows(); ++i) {
      Xp(i, 0) = d.X_test(perm[i], 0);
      Xp(i, 4) = d.X_test(perm[i], 4);
    }
    const Vector yp = model->predict(Xp);
    double sse = 0.0;
    for (Index i = 0; i < yp.size(); ++i) sse += std::pow(d.y_test[i] - yp[i], 2);
    total += (sse - base_sse) / sst;
  }
  BOOST_TEST(std::abs(result.scores[0] - total / request.repeats) < 1e-12);
}

BOOST_AUTO_TEST_SUITE_END()
