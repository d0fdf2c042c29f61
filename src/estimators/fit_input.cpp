#include <cmath>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

void validate_fit_input(const Matrix& X, const Vector& y, std::string_view what, bool allow_nan_x) {
  if (X.rows() == 0) throw InputError(detail::concat(what, ": cannot fit on zero rows"));
  if (X.cols() == 0) throw InputError(detail::concat(what, ": cannot fit on zero columns (empty feature set)"));
  if (X.rows() != y.size())
    throw InputError(detail::concat(what, ": X has ", X.rows(), " rows but y has ", y.size(), " values"));
  for (Index i = 0; i < y.size(); ++i)
    if (!std::isfinite(y[i]))
      throw InputError(detail::concat(what, ": target value y[", i, "] = ", y[i], " is not finite"));
  for (Index i = 0; i < X.rows(); ++i) {
    for (Index j = 0; j < X.cols(); ++j) {
      const float x = X(i, j);
      if (std::isinf(x)) throw InputError(detail::concat(what, ": X has an infinite value at row ", i, ", column ", j));
      if (!allow_nan_x && std::isnan(x))
        throw InputError(detail::concat(what, ": X has a missing value (NaN) at row ", i, ", column ", j,
                                        "; this estimator needs complete data"));
    }
  }
}

void validate_binary_target(const Vector& y, std::string_view what) {
  for (Index i = 0; i < y.size(); ++i) {
    if (y[i] != 0.0 && y[i] != 1.0)
      throw InputError(detail::concat(what, ": binary task needs 0/1 targets, but y[", i, "] = ", y[i]));
  }
}

std::vector<std::uint8_t> early_stopping_rows(double fraction, Index n, Rng& rng) {
  std::vector<std::uint8_t> is_valid(static_cast<std::size_t>(n), 0);
  if (fraction <= 0.0) return is_valid;
  const auto n_valid = static_cast<Index>(std::ceil(fraction * static_cast<double>(n)));
  if (n_valid >= n) return is_valid;  // too few rows to hold any out: train on all, no early stopping
  const auto perm = rng.permutation(n);
  for (Index k = 0; k < n_valid; ++k) is_valid[static_cast<std::size_t>(perm[static_cast<std::size_t>(k)])] = 1;
  return is_valid;
}

}  // namespace bfs
