// Dataset checks and helpers (docs/design.md §4). Every reader ends in validate_dataset so bad input fails early with a
// message naming the origin (file or simulator) and what is wrong.
#include "data/dataset.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <unordered_set>

#include "core/error.hpp"

namespace bfs {

namespace {

const char* nonfinite_kind(double v) {
  return std::isnan(v) ? "NaN" : (v > 0 ? "+Inf" : "-Inf");
}

/// Column j of X by the name of its feature (and, for a categorical one, the level).
std::string column_label(const Dataset& data, Index j) {
  const FeatureLayout& layout = data.layout;
  if (layout.one_column_each()) {
    if (j < static_cast<Index>(data.feature_names.size())) return "'" + data.feature_names[j] + "'";
    return std::to_string(j);
  }
  const auto after = std::upper_bound(layout.offsets.begin(), layout.offsets.end(), j);
  const auto f = static_cast<std::size_t>(after - layout.offsets.begin()) - 1;
  if (after == layout.offsets.end() || f >= data.feature_names.size()) return std::to_string(j);
  std::string label = "'" + data.feature_names[f] + "'";
  if (layout.is_categorical(static_cast<FeatureId>(f)))
    label += " (level '" + layout.levels[f][static_cast<std::size_t>(j - layout.offsets[f])] + "')";
  return label;
}

/// The layout against X: offsets from 0 up to the columns in steps of at least 1, a level list per feature whose
/// size is the feature's width when it is categorical.
void check_layout(const Dataset& data) {
  const FeatureLayout& layout = data.layout;
  const std::string& o = data.origin;
  if (layout.one_column_each()) {
    if (!layout.levels.empty()) throw InputError(detail::concat(o, ": level names without column offsets"));
    return;
  }
  const auto& off = layout.offsets;
  if (off.size() < 2 || off.front() != 0 || off.back() != data.cols()) {
    throw InputError(
        detail::concat(o, ": the feature layout's offsets must run from 0 to the ", data.cols(), " columns of X"));
  }
  for (std::size_t f = 1; f < off.size(); ++f)
    if (off[f] <= off[f - 1])
      throw InputError(detail::concat(o, ": the feature layout's offsets do not ascend at ", f));
  if (layout.levels.size() != off.size() - 1)
    throw InputError(detail::concat(o, ": ", layout.levels.size(), " level lists for ", off.size() - 1, " features"));
  for (std::size_t f = 0; f + 1 < off.size(); ++f) {
    const auto width = static_cast<std::size_t>(off[f + 1] - off[f]);
    if (layout.levels[f].empty() ? width != 1 : layout.levels[f].size() != width) {
      throw InputError(
          detail::concat(o, ": feature ", f, " has ", width, " columns but ", layout.levels[f].size(), " level names"));
    }
  }
}

}  // namespace

void check_finite(const Dataset& data, Index first_row) {
  const Index n = data.X.rows(), p = data.X.cols();
  for (Index i = 0; i < n; ++i) {
    const float* row = data.X.data() + i * p;  // row-major: one observation is contiguous
    for (Index j = 0; j < p; ++j) {
      // NaN is a missing cell (feature_layout.hpp); ±Inf is no value any estimator can split or average.
      if (std::isinf(row[j])) {
        throw InputError(detail::concat(data.origin, ": X has ", nonfinite_kind(row[j]), " at row ", first_row + i,
                                        ", column ", column_label(data, j)));
      }
    }
  }
  for (Index i = 0; i < data.y.size(); ++i) {
    if (!std::isfinite(data.y[i])) {
      throw InputError(detail::concat(data.origin, ": y has ", nonfinite_kind(data.y[i]), " at row ", first_row + i));
    }
  }
  check_target_scale(data.y, data.origin, first_row);
}

void check_target_scale(const Vector& y, const std::string& origin, Index first_row) {
  check_target_scale(y, origin, [first_row](Index i) { return detail::concat("row ", first_row + i); });
}

void check_target_scale(const Vector& y, const std::string& origin, const std::function<std::string(Index)>& place) {
  const Index n = y.size();
  if (n == 0) return;
  // Every method sums squares of y or of its deviations (R², variances, residuals): those sums must be finite, and
  // a spread below the smallest normal double is rounding noise, not a target (its R² is 0/0).
  Index largest = 0;
  double sum = 0.0, squares = 0.0;
  for (Index i = 0; i < n; ++i) {
    if (std::abs(y[i]) > std::abs(y[largest])) largest = i;
    sum += y[i];
    squares += y[i] * y[i];
  }
  if (!std::isfinite(squares) || !std::isfinite(sum)) {
    throw InputError(detail::concat(origin,
                                    ": y is too large for the arithmetic: the sum of its squares overflows a "
                                    "double (largest |y| = ",
                                    std::abs(y[largest]), " at ", place(largest),
                                    "); divide y by a power of ten (R² and the selection do not change)"));
  }
  const double mean = sum / static_cast<double>(n);
  double deviations = 0.0;
  bool varies = false;
  for (Index i = 0; i < n; ++i) {
    deviations += (y[i] - mean) * (y[i] - mean);
    varies = varies || y[i] != y[0];
  }
  const double variance = deviations / static_cast<double>(n);
  if (varies && !(variance >= std::numeric_limits<double>::min())) {
    throw InputError(detail::concat(origin, ": y varies too little for the arithmetic: its variance (", variance,
                                    ") is below the smallest normal double (", std::numeric_limits<double>::min(),
                                    "); multiply y by a power of ten (R² and the selection do not change)"));
  }
}

void check_truth(std::span<const FeatureId> truth, Index p, const std::string& what) {
  for (FeatureId t : truth) {
    if (t < 0 || t >= p) throw InputError(detail::concat(what, " index ", t, " out of range [0, ", p, ")"));
  }
  // A repeated index would be counted twice in power and Hamming distance: refuse it rather than mis-score.
  std::vector<FeatureId> sorted_truth(truth.begin(), truth.end());
  std::sort(sorted_truth.begin(), sorted_truth.end());
  const auto repeated = std::adjacent_find(sorted_truth.begin(), sorted_truth.end());
  if (repeated != sorted_truth.end())
    throw InputError(detail::concat(what, " lists feature index ", *repeated, " more than once"));
}

void validate_dataset(const Dataset& data) {
  const std::string& o = data.origin;
  const Index n = data.rows(), columns = data.cols();
  if (columns == 0) throw InputError(detail::concat(o, ": p = 0 (no feature columns)"));
  check_layout(data);
  const Index p = data.features();
  if (n == 0) throw InputError(detail::concat(o, ": n = 0 (no rows)"));
  if (data.y.size() != n) {
    throw InputError(detail::concat(o, ": y has ", data.y.size(), " rows but X has ", n));
  }
  if (static_cast<Index>(data.feature_names.size()) != p) {
    throw InputError(detail::concat(o, ": ", data.feature_names.size(), " feature names but X has ", p,
                                    data.layout.one_column_each() ? " columns" : " features"));
  }
  if (!data.missing.empty() && static_cast<Index>(data.missing.size()) != p)
    throw InputError(detail::concat(o, ": ", data.missing.size(), " missing counts for ", p, " features"));
  std::unordered_set<std::string> seen;
  for (const auto& name : data.feature_names) {
    if (name.empty()) throw InputError(detail::concat(o, ": a feature name is empty"));
    if (!seen.insert(name).second) throw InputError(detail::concat(o, ": duplicate feature name '", name, "'"));
  }
  if (!data.period_offsets.empty()) {
    const auto& off = data.period_offsets;
    if (off.size() < 2) throw InputError(detail::concat(o, ": period offsets need at least 2 entries"));
    if (off.front() != 0) throw InputError(detail::concat(o, ": period offsets must start at 0, not ", off.front()));
    for (std::size_t k = 1; k < off.size(); ++k) {
      if (off[k] <= off[k - 1]) {
        throw InputError(
            detail::concat(o, ": period offsets not increasing at entry ", k, " (", off[k - 1], ", ", off[k], ")"));
      }
    }
    if (off.back() != n) {
      throw InputError(detail::concat(o, ": period offsets end at ", off.back(), " but there are ", n, " rows"));
    }
    if (!data.period_labels.empty() && data.period_labels.size() != off.size() - 1) {
      throw InputError(
          detail::concat(o, ": ", data.period_labels.size(), " period labels for ", off.size() - 1, " periods"));
    }
  } else if (!data.period_labels.empty()) {
    throw InputError(detail::concat(o, ": period labels without period offsets"));
  }
  check_truth(data.truth, p, o + ": truth");
  check_finite(data);
}

std::vector<std::int64_t> offsets_of_sorted_periods(std::span<const std::int32_t> period, const std::string& origin,
                                                    const std::string& what) {
  std::vector<std::int64_t> offsets{0};
  for (std::size_t i = 1; i < period.size(); ++i) {
    if (period[i] < period[i - 1]) throw InputError(detail::concat(origin, ": ", what, " is not sorted at row ", i));
    if (period[i] != period[i - 1]) offsets.push_back(static_cast<std::int64_t>(i));
  }
  offsets.push_back(static_cast<std::int64_t>(period.size()));
  return offsets;
}

Matrix gather(const Matrix& X, std::span<const Index> rows, std::span<const FeatureId> cols) {
  Matrix out(static_cast<Index>(rows.size()), static_cast<Index>(cols.size()));
  const Index p = X.cols();
  for (FeatureId c : cols) BFS_CHECK(c >= 0 && c < p, "col ", c);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    BFS_CHECK(rows[i] >= 0 && rows[i] < X.rows(), "row ", rows[i]);
    const float* src = X.data() + rows[i] * p;
    float* dst = out.data() + static_cast<Index>(i) * out.cols();
    for (std::size_t j = 0; j < cols.size(); ++j) dst[j] = src[cols[j]];
  }
  return out;
}

Vector gather(const Vector& y, std::span<const Index> rows) {
  Vector out(static_cast<Index>(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    BFS_CHECK(rows[i] >= 0 && rows[i] < y.size(), "row ", rows[i]);
    out[static_cast<Index>(i)] = y[rows[i]];
  }
  return out;
}

std::vector<std::string> default_feature_names(Index p) {
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(p));
  for (Index j = 1; j <= p; ++j) {
    std::string name = "x";  // not "x" + to_string(j): GCC 12 warns falsely on that (-Wrestrict, PR 105329)
    name += std::to_string(j);
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace bfs
