#include <boost/test/unit_test.hpp>
#include <cmath>

#include "core/rng.hpp"
#include "importance/metrics.hpp"
#include "importance/permutation.hpp"

using namespace bfs;

namespace {
/// ŷ = X·w: a known model, so importance can be checked against closed forms.
class KnownLinearModel : public Model {
 public:
  explicit KnownLinearModel(Vector w) : w_(std::move(w)) {}
  Vector predict(const Matrix& X) const override { return X.cast<double>() * w_; }
  std::string serialize() const override { return ""; }
  Index num_features() const override { return w_.size(); }
  bool supports_concurrent_predict() const override { return true; }

 private:
  Vector w_;
};

ImportanceRequest request_for(const Model& model, const Matrix& X, const Vector& y, int repeats, int threads) {
  ImportanceRequest r;
  r.model = &model;
  r.X_test = &X;
  r.y_test = &y;
  r.groups = singleton_groups(X.cols());
  for (Index j = 0; j < X.cols(); ++j) r.stream_ids.push_back(static_cast<std::uint64_t>(100 + j));
  r.repeats = repeats;
  r.seed = 17;
  r.round = 3;
  r.threads = threads;
  return r;
}
}  // namespace

BOOST_AUTO_TEST_CASE(r2_matches_its_definition) {
  Vector y(4), y_hat(4);
  y << 1, 2, 3, 4;
  y_hat << 1, 2, 3, 5;
  BOOST_TEST(std::abs(r2_score(y, y_hat) - (1.0 - 1.0 / 5.0)) < 1e-15);
  Vector c = Vector::Constant(3, 2.0);
  BOOST_TEST(r2_score(c, c) == 1.0);
  BOOST_TEST(r2_score(c, Vector::Zero(3)) == 0.0);
}

// For y = βx + ε with x independent of ε, permuting x in the true model drops the expected R² by
// 2β²Var(x)/Var(y): R² = β²Var(x)/Var(y) before, −β²Var(x)/Var(y) after (SSE gains 2β²Var(x)·n).
BOOST_AUTO_TEST_CASE(the_r2_drop_of_a_linear_feature_is_two_beta_squared_var_x_over_var_y) {
  const Index n = 40000;
  const double beta = 1.5, sigma = 2.0;
  Rng rng(5);
  Matrix X(n, 2);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    X(i, 0) = static_cast<float>(rng.normal());
    X(i, 1) = static_cast<float>(rng.normal());  // an irrelevant column
    y[i] = beta * X(i, 0) + sigma * rng.normal();
  }
  Vector w(2);
  w << beta, 0.0;
  const KnownLinearModel model(w);
  const ImportanceResult result = permutation_importance(request_for(model, X, y, 10, 1));
  const double expected = 2 * beta * beta * 1.0 / (beta * beta + sigma * sigma);
  BOOST_TEST(std::abs(result.scores[0] - expected) < 0.02 * expected);
  BOOST_TEST(result.scores[1] == 0.0);  // a column the model ignores cannot change the predictions
  BOOST_TEST(std::abs(result.baseline - beta * beta / (beta * beta + sigma * sigma)) < 0.01);
}

BOOST_AUTO_TEST_CASE(the_general_path_equals_a_direct_algorithm_3_loop) {
  Rng rng(9);
  const Index n = 50;
  Matrix X(n, 3);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < 3; ++j) X(i, j) = static_cast<float>(rng.uniform());
    y[i] = X(i, 0) - 2 * X(i, 2) + 0.1 * rng.normal();
  }
  Vector w(3);
  w << 1.0, 0.5, -2.0;
  const KnownLinearModel model(w);
  const ImportanceRequest request = request_for(model, X, y, 4, 1);
  const ImportanceResult result = permutation_importance(request);
  const double base = r2_score(y, model.predict(X));
  for (Index j = 0; j < 3; ++j) {
    const auto perms = importance_permutations(request, static_cast<std::size_t>(j));
    double total = 0.0;
    for (const auto& perm : perms) {
      Matrix Xp = X;
      for (Index i = 0; i < n; ++i) Xp(i, j) = X(perm[i], j);
      total += base - r2_score(y, model.predict(Xp));
    }
    BOOST_TEST(std::abs(result.scores[j] - total / 4) < 1e-12);
  }
}

BOOST_AUTO_TEST_CASE(results_do_not_depend_on_the_thread_count) {
  Rng rng(2);
  const Index n = 80;
  Matrix X(n, 6);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < 6; ++j) X(i, j) = static_cast<float>(rng.normal());
    y[i] = X(i, 0) + X(i, 3) + rng.normal();
  }
  const KnownLinearModel model(Vector::Ones(6));
  const auto one = permutation_importance(request_for(model, X, y, 5, 1));
  const auto two = permutation_importance(request_for(model, X, y, 5, 2));
  BOOST_TEST(one.scores == two.scores);
}

BOOST_AUTO_TEST_CASE(a_group_is_permuted_with_one_row_permutation) {
  // Two identical columns: permuting them together breaks the signal of both, permuting one alone only half.
  Rng rng(4);
  const Index n = 20000;
  Matrix X(n, 2);
  Vector y(n);
  for (Index i = 0; i < n; ++i) {
    X(i, 0) = X(i, 1) = static_cast<float>(rng.normal());
    y[i] = X(i, 0) + X(i, 1) + 0.5 * rng.normal();
  }
  const KnownLinearModel model(Vector::Ones(2));
  ImportanceRequest grouped = request_for(model, X, y, 5, 1);
  grouped.groups = {{0, 1}};
  grouped.stream_ids = {100};
  const double var_y = 4.25;
  const double together = permutation_importance(grouped).scores[0];
  BOOST_TEST(std::abs(together - 2 * 4.0 / var_y) < 0.05);
  const double alone = permutation_importance(request_for(model, X, y, 5, 1)).scores[0];
  BOOST_TEST(std::abs(alone - 2 * 1.0 / var_y) < 0.05);
}
