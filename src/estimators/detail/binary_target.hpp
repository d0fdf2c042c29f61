#pragma once
// The label check of the tree estimators in binary mode (Task::Binary): the config layer maps the user's labels to
// 0/1 (data.positive_label), so anything else reaching fit() is a caller error, reported with the estimator's name.
#include <string_view>

#include "core/error.hpp"
#include "core/types.hpp"

namespace bfs::detail {

/// Throws InputError naming `what` (the estimator) and the first row whose target is not exactly 0 or 1.
inline void validate_binary_target(const Vector& y, std::string_view what) {
  for (Index i = 0; i < y.size(); ++i) {
    if (y[i] != 0.0 && y[i] != 1.0) {
      throw InputError(concat(what, ": binary task needs 0/1 targets, but y[", i, "] = ", y[i]));
    }
  }
}

}  // namespace bfs::detail
