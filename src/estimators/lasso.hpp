#pragma once
// LASSO by cyclic coordinate descent on standardised columns (Friedman, Hastie & Tibshirani 2010, "Regularization
// paths for generalized linear models via coordinate descent", J. Stat. Softw. 33(1)), with an optional k-fold CV
// over a warm-started λ path. The fitted model is linear on the ORIGINAL column scale, which is what the exact
// importance fast path and the lasso-nonzero reward read through Model::linear().
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "estimators/estimator.hpp"

namespace bfs {

/// ŷ = intercept + Σ_j coef_j·x_j, evaluated in exactly that order (zero coefficients skipped, which adds nothing).
class LassoModel final : public Model {
 public:
  LassoModel(Vector coef, double intercept, double lambda);

  Vector predict(const Matrix& X) const override;
  std::string serialize() const override;
  Index num_features() const override { return linear_.coef.size(); }
  const LinearStructure* linear() const override { return &linear_; }

  /// The penalty the model was fitted with (the CV choice when cv_folds > 0).
  double lambda() const { return lambda_; }
  /// CV diagnostics (empty for fixed λ and after deserialize): the λ path actually fitted (it may end before
  /// n_lambdas values, glmnet's early end), the mean CV MSE per λ and its standard error.
  const std::vector<double>& lambda_path() const { return path_; }
  const std::vector<double>& cv_mse() const { return cv_mse_; }
  const std::vector<double>& cv_se() const { return cv_se_; }
  void set_cv(std::vector<double> path, std::vector<double> mse, std::vector<double> se);

  static std::unique_ptr<LassoModel> deserialize(std::string_view bytes);

 private:
  LinearStructure linear_;
  std::vector<Index> nonzero_;  ///< columns with coef != 0, ascending
  double lambda_ = 0.0;
  std::vector<double> path_, cv_mse_, cv_se_;
};

/// The log-spaced path λ_max·ratio^(l/(m−1)), l = 0..m−1, with λ_max = max_j |Xsᵀ(y−ȳ)|/n on standardised X.
std::vector<double> lasso_lambda_path(const Matrix& X, const Vector& y, int n_lambdas, double lambda_min_ratio);

}  // namespace bfs
