// Categorical columns (see categorical.hpp): levels, pooling, the max_levels check and the indicator expansion.
#include "data/categorical.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <string_view>

#include "core/error.hpp"
#include "data/csv_lines.hpp"

namespace bfs {

namespace {

const std::string kOther = "other";
const std::string kMissing = "missing";

std::optional<double> as_number(std::string_view s) {
  if (s.size() > 1 && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

/// The labels' order: by value when every label is a number (codes 2 < 10), else as text.
std::vector<std::size_t> sorted_order(const std::vector<std::string>& labels) {
  std::vector<std::size_t> order(labels.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::vector<double> numbers;
  for (const auto& label : labels) {
    const auto v = as_number(label);
    if (!v) break;
    numbers.push_back(*v);
  }
  if (numbers.size() == labels.size()) {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return numbers[a] < numbers[b]; });
  } else {
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return labels[a] < labels[b]; });
  }
  // Labels named like the pooled and the missing level stand where those levels stand, so a table written back
  // with its levels as labels reads as the same columns in the same order.
  std::stable_partition(order.begin(), order.end(), [&](std::size_t c) { return labels[c] != kMissing; });
  std::stable_partition(order.begin(), order.end(),
                        [&](std::size_t c) { return labels[c] != kOther && labels[c] != kMissing; });
  return order;
}

[[noreturn]] void too_many_levels(const std::string& origin, const std::string& column, const std::string& what,
                                  const TableRules& rules) {
  throw InputError(detail::concat(
      origin, ": column '", printable(column), "' ", what, ", more than data.max_levels = ", rules.max_levels,
      "; leave it out with data.exclude = [\"", printable(column), "\"] or raise data.max_levels"));
}

}  // namespace

ColumnCoding code_levels(const std::vector<std::string>& labels, const std::vector<std::int64_t>& counts,
                         std::int64_t missing, const TableRules& rules, const std::string& origin,
                         const std::string& column) {
  BFS_CHECK(labels.size() == counts.size(), "labels ", labels.size(), " counts ", counts.size());
  // Levels by name: a label that is itself "other" or "missing" shares that level with the pooled or missing rows.
  std::map<std::string, std::int32_t> level_of_name;
  ColumnCoding coding;
  auto level = [&](const std::string& name) {
    const auto [it, added] = level_of_name.emplace(name, static_cast<std::int32_t>(coding.levels.size()));
    if (added) coding.levels.push_back(name);
    return it->second;
  };
  // A label no row has (an HDF5 file's label list may name more) gets no level; its code never occurs.
  std::size_t kept = 0;
  const auto seen =
      static_cast<std::int64_t>(std::count_if(counts.begin(), counts.end(), [](auto c) { return c > 0; }));
  coding.level_of_code.assign(labels.size(), -1);
  for (const std::size_t c : sorted_order(labels))
    if (counts[c] > 0 && counts[c] >= rules.min_level_count) {
      coding.level_of_code[c] = level(labels[c]);
      ++kept;
    }
  if (kept == 0 && seen > rules.max_levels) {
    too_many_levels(origin, column,
                    detail::concat("has ", seen, " distinct values, none in ", rules.min_level_count,
                                   " rows or more (an id or a date?)"),
                    rules);
  }
  for (std::size_t c = 0; c < labels.size(); ++c)
    if (counts[c] > 0 && coding.level_of_code[c] < 0) coding.level_of_code[c] = level(kOther);
  if (missing > 0) coding.missing_level = level(kMissing);
  if (static_cast<std::int64_t>(coding.levels.size()) > rules.max_levels) {
    too_many_levels(
        origin, column,
        detail::concat("has ", coding.levels.size(), " levels (", seen, " distinct values; those in fewer than ",
                       rules.min_level_count, " rows pooled into \"other\")"),
        rules);
  }
  if (coding.levels.empty()) coding.levels.push_back(kOther);  // no label at all: readers refuse it before
  return coding;
}

FeatureLayout layout_of(const std::vector<ColumnCoding>& codings) {
  FeatureLayout layout;
  if (std::none_of(codings.begin(), codings.end(), [](const ColumnCoding& c) { return c.categorical(); }))
    return layout;
  layout.offsets.push_back(0);
  for (const auto& coding : codings) {
    const Index width = coding.categorical() ? static_cast<Index>(coding.levels.size()) : 1;
    layout.offsets.push_back(layout.offsets.back() + width);
    layout.levels.push_back(coding.levels);
  }
  return layout;
}

Matrix expand_columns(Matrix raw, const std::vector<ColumnCoding>& codings, const FeatureLayout& layout) {
  if (layout.one_column_each()) return raw;
  const Index n = raw.rows(), p = raw.cols();
  BFS_CHECK(static_cast<Index>(codings.size()) == p, "codings ", codings.size(), " raw columns ", p);
  const Index columns = layout.offsets.back();
  Matrix X = Matrix::Zero(n, columns);
  for (Index i = 0; i < n; ++i) {
    const float* in = raw.data() + i * p;
    float* out = X.data() + i * columns;
    for (Index f = 0; f < p; ++f) {
      const ColumnCoding& coding = codings[static_cast<std::size_t>(f)];
      const Index begin = layout.offsets[static_cast<std::size_t>(f)];
      if (!coding.categorical()) {
        out[begin] = in[f];
        continue;
      }
      std::int32_t level = coding.missing_level;
      if (!std::isnan(in[f])) {
        const auto code = static_cast<std::int64_t>(in[f]);
        BFS_CHECK(code >= 0 && code < static_cast<std::int64_t>(coding.level_of_code.size()) && code == in[f], "code ",
                  in[f], " of column ", f);
        level = coding.level_of_code[static_cast<std::size_t>(code)];
      }
      BFS_CHECK(level >= 0, "a missing cell in column ", f, " without a missing level");
      out[begin + level] = 1.0f;
    }
  }
  return X;
}

std::vector<std::int64_t> count_missing(const Matrix& raw) {
  std::vector<std::int64_t> missing(static_cast<std::size_t>(raw.cols()), 0);
  const Index n = raw.rows(), p = raw.cols();
  for (Index i = 0; i < n; ++i) {
    const float* row = raw.data() + i * p;
    for (Index j = 0; j < p; ++j) missing[static_cast<std::size_t>(j)] += std::isnan(row[j]) ? 1 : 0;
  }
  return missing;
}

std::vector<std::int64_t> count_codes(const Matrix& raw, Index column, std::size_t labels, const std::string& origin,
                                      const std::string& name) {
  std::vector<std::int64_t> counts(labels, 0);
  for (Index i = 0; i < raw.rows(); ++i) {
    const float v = raw(i, column);
    if (std::isnan(v)) continue;
    if (!(v >= 0.0f && v < static_cast<float>(labels)) || v != std::floor(v)) {
      throw InputError(detail::concat(origin, ": categorical column '", printable(name), "' has ", v, " at row ", i,
                                      ", not a code of its ", labels, " labels (0..", labels, " - 1, NaN = missing)"));
    }
    ++counts[static_cast<std::size_t>(v)];
  }
  return counts;
}

void refuse_empty_column(std::int64_t missing, Index rows, const std::string& name, const std::string& origin,
                         const std::string& advice) {
  if (missing != rows) return;
  throw InputError(detail::concat(origin, ": column '", printable(name), "' is empty: all of its ", rows,
                                  " values are missing; ", advice));
}

void refuse_missing(const std::vector<std::int64_t>& missing, const std::vector<std::string>& names,
                    const std::string& origin) {
  for (std::size_t f = 0; f < missing.size(); ++f) {
    if (missing[f] == 0) continue;
    throw InputError(detail::concat(origin, ": column '", printable(f < names.size() ? names[f] : std::to_string(f)),
                                    "' has ", missing[f], missing[f] == 1 ? " missing value" : " missing values",
                                    " and data.missing = \"error\"; fill them in, or set data.missing = \"native\" "
                                    "or \"impute\""));
  }
}

}  // namespace bfs
