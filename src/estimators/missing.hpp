#pragma once
// Missing cells (NaN in X) and the estimators: which rule each one follows (README, "Missing values"), and the one
// fitted imputation every estimator without a rule of its own uses.
//
// - hgb, gbm, random_forest route missing cells in their trees themselves (hgb.cpp, gbm.cpp, random_forest.cpp);
// - lasso (and the logistic lasso), mlp, svm, bart, and every estimator under data.missing = "impute", see X
//   through mean imputation: fit() learns each column's mean over the training rows' non-missing cells, the model
//   keeps those means and fills the missing cells of any X it predicts with them, so a test row never changes what
//   a missing cell becomes (scikit-learn's SimpleImputer(strategy="mean") fitted on the training rows).
//
// Filling a column with one value commutes with permuting its rows, which is what lets permutation importance run
// the exact fast paths on the filled test rows (importance/permutation.cpp).
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "config/job_config.hpp"
#include "core/types.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

/// True when some cell of X is NaN.
bool has_missing(const Matrix& X);

/// Per column of X, 1 when it has a NaN cell; empty when X has none (the complete-data case every estimator keeps
/// exactly as it was).
std::vector<std::uint8_t> missing_columns(const Matrix& X);

/// Each column's mean over its non-missing cells, summed in double in row order and rounded to float (the value a
/// filled cell holds); 0 for a column without any value.
std::vector<float> column_means(const Matrix& X);

/// X with each NaN cell of column j replaced by fill[j].
Matrix impute(const Matrix& X, std::span<const float> fill);

/// True when `name` under `rule` sees its X through mean imputation (the estimators without a native rule, or any
/// under MissingRule::Impute).
bool imputes_missing(EstimatorName name, MissingRule rule);

/// `inner` behind a fitted mean imputation (see above). Its models implement Model::imputation(); a fit on complete
/// training rows fits `inner` on X itself, with the caller's options, so it is `inner`'s own fit.
std::unique_ptr<Estimator> make_imputing(std::unique_ptr<Estimator> inner);

}  // namespace bfs
