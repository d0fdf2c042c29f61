// The exact fast paths of permutation importance for binary linear models and MLPs (fast_paths.hpp) against the
// general path forced with ImportancePath::Generic, under the same permutations, for the binary metrics AUC,
// log-loss and accuracy: a fitted logistic lasso and a hand-built one on discrete columns (exact ties in the margins)
// bit for bit; a binary MLP to rounding; a logistic model whose predict sums differently falls back.
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "core/rng.hpp"
#include "estimators/detail/binary.hpp"
#include "estimators/estimator.hpp"
#include "estimators/lasso.hpp"
#include "importance/permutation.hpp"
#include "request_fixture.hpp"

using namespace bfs;
using bfs::test::make_request;

namespace {

constexpr Metric kBinaryMetrics[] = {Metric::Auc, Metric::LogLoss, Metric::Accuracy};

/// Columns: 0–3 continuous N(0, 1), 4 a 0/1 indicator, 5 integer in {0..4}, 6 constant, 7.. noise.
/// P(y = 1) = σ(1.2·x0 − x1 + 0.8·x4 − 0.4·x5 + 0.8).
struct Data {
  Matrix X_train, X_test;
  Vector y_train, y_test;
};

void fill(Matrix& X, Vector& y, Rng& rng) {
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      if (j == 4) {
        X(i, j) = static_cast<float>(rng.uniform_int(2));
      } else if (j == 5) {
        X(i, j) = static_cast<float>(rng.uniform_int(5));
      } else if (j == 6) {
        X(i, j) = 1.5f;
      } else {
        X(i, j) = static_cast<float>(rng.normal());
      }
    }
    const double eta = 1.2 * X(i, 0) - X(i, 1) + 0.8 * X(i, 4) - 0.4 * X(i, 5) + 0.8;
    y[i] = rng.uniform() < detail::logistic(eta) ? 1.0 : 0.0;
  }
}

Data make_data(Index n_train, Index n_test, Index p, std::uint64_t seed) {
  Rng rng(seed);
  Data d{Matrix(n_train, p), Matrix(n_test, p), Vector(n_train), Vector(n_test)};
  fill(d.X_train, d.y_train, rng);
  fill(d.X_test, d.y_test, rng);
  return d;
}

/// Fast path (expecting `method`) vs general path for one metric. exact: every score bit-identical. Otherwise
/// log-loss within 1e-12 absolute or 1e-9 relative, AUC and accuracy equal (the outputs differ by rounding only,
/// and with continuous inputs no two rows' outputs — nor any output and 0.5 — are within rounding of each other).
ImportanceResult check_against_generic(const Model& model, const Data& d, const std::vector<std::vector<Index>>& groups,
                                       Metric metric, ImportanceMethod method, bool exact) {
  const auto fast =
      permutation_importance(make_request(model, d.X_test, d.y_test, groups, metric, 1, ImportancePath::Auto));
  const auto slow =
      permutation_importance(make_request(model, d.X_test, d.y_test, groups, metric, 1, ImportancePath::Generic));
  const auto fast2 =
      permutation_importance(make_request(model, d.X_test, d.y_test, groups, metric, 2, ImportancePath::Auto));
  BOOST_TEST(static_cast<int>(fast.method) == static_cast<int>(method));
  BOOST_TEST(static_cast<int>(slow.method) == static_cast<int>(ImportanceMethod::Generic));
  BOOST_TEST(fast.baseline == slow.baseline);
  BOOST_REQUIRE_EQUAL(fast.scores.size(), groups.size());
  BOOST_REQUIRE_EQUAL(slow.scores.size(), groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const double a = fast.scores[g], b = slow.scores[g];
    BOOST_TEST_CONTEXT(name_of(metric) << " group " << g << " fast " << a << " generic " << b) {
      if (exact || metric != Metric::LogLoss) {
        BOOST_TEST(a == b);
      } else {
        BOOST_TEST(std::abs(a - b) <= std::max(1e-12, 1e-9 * std::abs(b)));
      }
    }
  }
  BOOST_TEST(fast.scores == fast2.scores);  // thread-count independent, bit for bit
  return fast;
}

const std::vector<std::vector<Index>> kGroups = {{0, 1}, {5, 4, 2}, {6}, {3}, {9, 8}, {7}};

}  // namespace

BOOST_AUTO_TEST_SUITE(fast_paths_binary_linear)

BOOST_AUTO_TEST_CASE(binary_lasso_fast_path_is_bit_identical_for_every_binary_metric) {
  const Index p = 10;
  const auto d = make_data(400, 150, p, 21);
  LassoParams params;
  params.lambda = 0.02;
  const auto model = make_lasso(params, Task::Binary)->fit(d.X_train, d.y_train, FitOptions{1, 1, {}, nullptr});
  const LinearStructure& linear = *model->linear();
  BOOST_REQUIRE(linear.link == Link::Logistic);
  int zeros = 0;
  for (Index j = 0; j < p; ++j) zeros += linear.coef[j] == 0.0 ? 1 : 0;
  BOOST_TEST(zeros >= 2);  // the constant column and some noise
  BOOST_TEST(zeros < p - 3);
  for (Metric metric : kBinaryMetrics) {
    const auto single =
        check_against_generic(*model, d, singleton_groups(p), metric, ImportanceMethod::Linear, /*exact=*/true);
    for (Index j = 0; j < p; ++j) {
      if (linear.coef[j] == 0.0) BOOST_TEST(single.scores[j] == 0.0, name_of(metric) << " feature " << j);
    }
    BOOST_TEST(single.scores[0] > 0.0, name_of(metric));
    check_against_generic(*model, d, kGroups, metric, ImportanceMethod::Linear, /*exact=*/true);
  }
}

BOOST_AUTO_TEST_CASE(logistic_margins_that_tie_exactly_stay_tied_on_the_fast_path) {
  // Only the 0/1 and the integer column matter, so permuted margins take at most 10 distinct values and tie across
  // many rows; a margin update m + coef·Δx would break those ties by rounding and move AUC. Coefficients with long
  // mantissas make that rounding likely.
  const Index p = 8;
  const auto d = make_data(10, 200, p, 22);
  Vector coef = Vector::Zero(p);
  coef[4] = 0.7318275391;
  coef[5] = -0.2904712233;
  const LassoModel model(coef, 0.1234567891, 0.0, Link::Logistic);
  for (Metric metric : kBinaryMetrics) {
    const auto result =
        check_against_generic(model, d, singleton_groups(p), metric, ImportanceMethod::Linear, /*exact=*/true);
    BOOST_TEST(result.scores[0] == 0.0);
    check_against_generic(model, d, {{4, 5}, {5}, {0, 4}}, metric, ImportanceMethod::Linear, /*exact=*/true);
  }
}

BOOST_AUTO_TEST_CASE(logistic_model_whose_predict_sums_differently_takes_the_general_path) {
  // The structure's margin in another order (descending columns): the fast path cannot reproduce predict bit for bit,
  // detects it on the unpermuted rows and leaves the request to the general path.
  class Reversed final : public Model {
   public:
    explicit Reversed(LinearStructure s) : s_(std::move(s)) {}
    Vector predict(const Matrix& X) const override {
      Vector out(X.rows());
      for (Index i = 0; i < X.rows(); ++i) {
        double m = 0.0;
        for (Index j = X.cols(); j-- > 0;) m += s_.coef[j] * static_cast<double>(X(i, j));
        out[i] = detail::logistic(m + s_.intercept);
      }
      return out;
    }
    std::string serialize() const override { return ""; }
    Index num_features() const override { return s_.coef.size(); }
    const LinearStructure* linear() const override { return &s_; }

   private:
    LinearStructure s_;
  };
  const Index p = 8;
  const auto d = make_data(10, 120, p, 23);
  LinearStructure s;
  s.coef = Vector::LinSpaced(p, -0.9137, 1.3371);
  s.intercept = 0.4321;
  s.link = Link::Logistic;
  const Reversed model(s);
  check_against_generic(model, d, singleton_groups(p), Metric::LogLoss, ImportanceMethod::Generic, /*exact=*/true);
}

BOOST_AUTO_TEST_CASE(binary_mlp_fast_path_matches_the_general_path) {
  const Index p = 10;
  const auto d = make_data(400, 120, p, 24);
  MlpParams params;
  params.hidden = {16, 8};
  params.max_epochs = 40;
  const auto model = make_mlp(params, Task::Binary)->fit(d.X_train, d.y_train, FitOptions{2, 1, {}, nullptr});
  for (Metric metric : kBinaryMetrics) {
    const auto single =
        check_against_generic(*model, d, singleton_groups(p), metric, ImportanceMethod::Mlp, /*exact=*/false);
    // The constant column: permuting it changes no input. The fast path's baseline pre-activations are summed in
    // another order than predict's GEMM, so for log-loss this "0" is only 0 up to rounding.
    BOOST_TEST(std::abs(single.scores[6]) <= 1e-12);
    if (metric != Metric::Accuracy) BOOST_TEST(single.scores[0] > 0.0, name_of(metric));
    check_against_generic(*model, d, kGroups, metric, ImportanceMethod::Mlp, /*exact=*/false);
  }
}

BOOST_AUTO_TEST_SUITE_END()
