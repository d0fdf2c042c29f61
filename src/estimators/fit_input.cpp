#include <cmath>

#include "core/error.hpp"
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

}  // namespace bfs
