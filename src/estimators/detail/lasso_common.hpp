#pragma once
// What the regression lasso (lasso.cpp) and the L1-penalised logistic regression (logistic_lasso.cpp) share: the
// standardisation of the columns, λ_max, the log-spaced λ path, the soft-threshold operator and cv.glmnet's
// summary of the fold losses. Defined in lasso.cpp; the regression arithmetic is unchanged by the split.
#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "core/types.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

struct LassoParams;
class LassoModel;

namespace detail {

/// The rows of X (a subset, or all) standardised into a column-major double matrix, plus what undoes it.
struct Standardised {
  Eigen::MatrixXd xs;         ///< rows × p, column-major; a constant column stays all zero
  Vector mean, sd;            ///< per column; sd == 0 marks a constant column (β stays 0)
  Vector norm;                ///< ||xs_j||²/n (1 up to rounding; exactly what the update divides by)
  std::vector<Index> usable;  ///< non-constant columns
  Vector yc;                  ///< y − ȳ on these rows
  double y_mean = 0.0;
  double y_sd = 0.0;
};

/// Columns centred and divided by their population sd. `rows` empty = all rows of X.
Standardised standardise(const Matrix& X, const Vector& y, const std::vector<Index>& rows);

/// max_j |xs_jᵀ(y − ȳ)|/n: the smallest λ whose solution is β = 0, for least squares and (the gradient of the mean
/// log-likelihood at β = 0, intercept logit ȳ, is the same expression) for logistic regression.
double lambda_max_of(const Standardised& s);

double soft_threshold(double z, double gamma);

/// λ_max·ratio^(l/(m−1)), l = 0..m−1.
std::vector<double> log_path(double lambda_max, int n_lambdas, double ratio);

/// Test rows of X on a training fold's scale: (x − mean)/sd, 0 for the fold's constant columns.
Eigen::MatrixXd standardise_rows(const Matrix& X, const std::vector<Index>& rows, const Standardised& s);

/// The k CV folds of n rows: fold of row perm[i] is i mod k (perm drawn from the fit's stream). fold[f] = {train,
/// test}.
struct Fold {
  std::vector<Index> train, test;
};
std::vector<Fold> cv_folds(Index n, int k, std::uint64_t seed);

/// cv.glmnet's summary of a k × m table of mean held-out losses (row f = fold f): the fold-size-weighted mean per λ,
/// its standard error, and the chosen index (the minimum, or with one_se the largest λ within one SE of it).
struct CvChoice {
  std::vector<double> mean, se;
  std::size_t chosen = 0;
};
CvChoice choose_lambda(const std::vector<double>& fold_loss, const std::vector<double>& fold_size, int k, std::size_t m,
                       bool one_se);

/// The L1-penalised logistic regression fit of make_lasso(params, Task::Binary) (logistic_lasso.cpp).
std::unique_ptr<LassoModel> fit_logistic_lasso(const LassoParams& params, const Matrix& X, const Vector& y,
                                               std::uint64_t seed);

}  // namespace detail
}  // namespace bfs
