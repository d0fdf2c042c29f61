#pragma once
// LASSO by cyclic coordinate descent on standardised columns (Friedman, Hastie & Tibshirani 2010, "Regularization
// paths for generalized linear models via coordinate descent", J. Stat. Softw. 33(1)), with an optional k-fold CV
// over a warm-started λ path. The fitted model is linear on the ORIGINAL column scale, which is what the exact
// importance fast path and the lasso-nonzero reward read through Model::linear().
//
// Task::Regression minimises 1/(2n)·||y − ȳ − Xs β||² + λ||β||₁ (§2). Task::Binary (0/1 targets) minimises
// −(1/n) Σ_i [y_i η_i − log(1 + e^η_i)] + λ||β||₁ with η = β₀ + Xs β and β₀ unpenalised: L1-penalised logistic
// regression by glmnet's algorithm (ibid. §3, eqs. (16)–(17)): an outer loop replaces the log-likelihood by its
// quadratic (IRLS) approximation at the current fit — weights w_i = p_i(1 − p_i), working response
// z_i = η_i + (y_i − p_i)/w_i — and an inner loop minimises the weighted penalised least squares
// 1/(2n) Σ w_i (z_i − β₀ − x_iβ)² + λ||β||₁ by coordinate descent (logistic_lasso.cpp). The CV loss is then the
// held-out mean log-loss (the binomial deviance / 2n) instead of the MSE, and the model predicts
// P(y = 1) = σ(intercept + Σ_j coef_j x_j) with Link::Logistic. LassoParams carry over: max_iter bounds both the
// IRLS steps per λ and the coordinate passes per step, and tol is glmnet's threshold on the weighted squared
// coefficient change scaled by var(y) = ȳ(1 − ȳ), as the regression rule scales it by var(y). Training rows of one
// class only have no finite fit: InputError.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "estimators/estimator.hpp"

namespace bfs {

/// Margin m = intercept + Σ_j coef_j·x_j, evaluated in exactly that order (zero coefficients skipped, which adds
/// nothing); ŷ = m (Link::Identity) or ŷ = detail::logistic(m) = P(y = 1) (Link::Logistic).
class LassoModel final : public Model {
 public:
  LassoModel(Vector coef, double intercept, double lambda, Link link = Link::Identity);

  Vector predict(const Matrix& X) const override;
  std::string serialize() const override;
  Index num_features() const override { return linear_.coef.size(); }
  const LinearStructure* linear() const override { return &linear_; }

  /// The penalty the model was fitted with (the CV choice when cv_folds > 0).
  double lambda() const { return lambda_; }
  /// CV diagnostics (empty for fixed λ and after deserialize): the λ path actually fitted (it may end before
  /// n_lambdas values, glmnet's early end) and the mean held-out loss per λ — MSE (regression) or log-loss (binary).
  const std::vector<double>& lambda_path() const { return path_; }
  const std::vector<double>& cv_loss() const { return cv_loss_; }
  void set_cv(std::vector<double> path, std::vector<double> loss);

  static std::unique_ptr<LassoModel> deserialize(std::string_view bytes);

 private:
  LinearStructure linear_;
  std::vector<Index> nonzero_;  ///< columns with coef != 0, ascending
  double lambda_ = 0.0;
  std::vector<double> path_, cv_loss_;
};

/// The log-spaced path λ_max·ratio^(l/(m−1)), l = 0..m−1, with λ_max = max_j |Xsᵀ(y−ȳ)|/n on standardised X.
std::vector<double> lasso_lambda_path(const Matrix& X, const Vector& y, int n_lambdas, double lambda_min_ratio);

/// Binary targets (0/1): the columns in the order they first enter the logistic lasso's warm-started path
/// (params.n_lambdas values from λ_max down to λ_max·params.lambda_min_ratio, glmnet's early end) — [FUSE]
/// §7.1's Lasso ranking (glmnet). Columns entering at the same λ: larger |β| (standardised) first, then lower index;
/// columns that never enter come last, by index. InputError when y has one class.
std::vector<Index> logistic_lasso_entry_order(const LassoParams& params, const Matrix& X, const Vector& y);

}  // namespace bfs
