#include "data/row_subset.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace bfs {
namespace {

void check_rows(std::span<const Index> rows, Index n) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    BFS_CHECK(rows[i] >= 0 && rows[i] < n, "subset row ", rows[i], " outside [0, ", n, ")");
    BFS_CHECK(i == 0 || rows[i - 1] < rows[i], "subset rows not ascending at position ", i);
  }
}

/// Missing cells per feature of `data` (its rows): NaN cells of a numeric feature, rows at a categorical feature's
/// level "missing" (categorical.hpp: the last level, when the feature has missing cells).
std::vector<std::int64_t> missing_of(const Dataset& data) {
  const Index p = data.features();
  std::vector<std::int64_t> out(static_cast<std::size_t>(p), 0);
  for (FeatureId f = 0; f < p; ++f) {
    std::int64_t count = 0;
    if (data.layout.is_categorical(f)) {
      const auto& levels = data.layout.levels[static_cast<std::size_t>(f)];
      if (levels.back() == "missing") {
        const Index column = data.layout.column_end(f) - 1;
        for (Index i = 0; i < data.rows(); ++i) count += data.X(i, column) != 0.0f ? 1 : 0;
      }
    } else {
      const Index column = data.layout.column_begin(f);
      for (Index i = 0; i < data.rows(); ++i) count += std::isnan(data.X(i, column)) ? 1 : 0;
    }
    out[static_cast<std::size_t>(f)] = count;
  }
  return out;
}

}  // namespace

Dataset subset_rows(const Dataset& data, std::span<const Index> rows) {
  check_rows(rows, data.rows());
  Dataset out;
  out.X.resize(static_cast<Index>(rows.size()), data.cols());
  out.y.resize(static_cast<Index>(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out.X.row(static_cast<Index>(i)) = data.X.row(rows[i]);
    out.y(static_cast<Index>(i)) = data.y(rows[i]);
  }
  out.feature_names = data.feature_names;
  out.layout = data.layout;
  out.truth = data.truth;
  out.has_truth = data.has_truth;
  out.origin = data.origin;
  if (!data.missing.empty()) out.missing = missing_of(out);
  if (!data.period_offsets.empty()) {
    // Period k keeps the subset rows in [offsets[k], offsets[k+1]); the rows ascend, so they stay grouped.
    out.period_offsets.push_back(0);
    auto next = rows.begin();
    for (std::size_t k = 0; k + 1 < data.period_offsets.size(); ++k) {
      next = std::lower_bound(next, rows.end(), data.period_offsets[k + 1]);
      const auto end = static_cast<std::int64_t>(next - rows.begin());
      BFS_CHECK(end > out.period_offsets.back(), "period ", k, " of ", data.origin, " has no row in the subset");
      out.period_offsets.push_back(end);
    }
    out.period_labels = data.period_labels;
  }
  return out;
}

std::unique_ptr<LoggedSource> subset_log_rows(const LoggedHeader& header, std::span<const float> x,
                                              std::span<const Index> rows) {
  check_rows(rows, header.rows);
  BFS_CHECK(x.size() == static_cast<std::size_t>(header.rows * header.cols), "a log's columns of the wrong size");
  LoggedHeader out = header;
  const auto m = static_cast<Index>(rows.size());
  out.rows = m;
  out.arm.resize(rows.size());
  out.reward.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    out.arm[i] = header.arm[static_cast<std::size_t>(rows[i])];
    out.reward[i] = header.reward[static_cast<std::size_t>(rows[i])];
  }
  out.line_anchors.clear();  // the subset's rows are no longer lines of the file
  std::vector<float> columns(static_cast<std::size_t>(m * header.cols));
  for (Index j = 0; j < header.cols; ++j)
    for (Index i = 0; i < m; ++i)
      columns[static_cast<std::size_t>(j * m + i)] = x[static_cast<std::size_t>(j * header.rows + rows[i])];
  return make_logged_memory(std::move(out), std::move(columns));
}

}  // namespace bfs
