// summary.csv: one row per feature, in feature order (docs/design.md §4), from the method-neutral result.
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "data/detail/atomic_write.hpp"
#include "output/detail/result_checks.hpp"
#include "output/result_io.hpp"

namespace bfs {
namespace {

/// RFC 4180 quoting: a field with a comma, quote or line break is wrapped in quotes, inner quotes doubled.
std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string out = "\"";
  for (char c : value) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string fixed6(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.6f", value);
  return buffer;
}

}  // namespace

// Columns: feature = 0-based column index of the feature in the input data (the FeatureId used everywhere else),
// name, importance (6 decimals; the bandit's posterior mean), selected (1 when the feature is in the result's selected
// set), rank (1 = most important, ties broken by lower feature index); missing, each feature's count of missing cells,
// when they were counted (a CSV or HDF5 table; MethodResult::missing); importance_lo, importance_hi when the result
// has an interval; the summary's columns (selection_frequency, importance_mean, ..., rank_sd) when it is made of R
// runs; then the method's feature columns in its order (the bandit's alpha, beta). Numbers after rank are in their
// shortest round-trip form.
void write_summary_csv(const MethodResult& r, const std::string& path) {
  detail::validate_per_feature(r, path);
  const std::size_t p = r.feature_names.size();
  const auto rank = detail::ranks_of(r);
  const auto selected = detail::flags_of(r.selected, p);
  std::vector<const MethodDataset*> columns;
  for (const auto& name : r.feature_columns) columns.push_back(r.dataset(name));

  const bool counted = !r.missing.empty();
  std::vector<std::pair<std::string, const std::vector<double>*>> neutral;
  if (!r.importance_lo.empty()) neutral = {{"importance_lo", &r.importance_lo}, {"importance_hi", &r.importance_hi}};
  if (!r.stability.empty())
    for (const auto& column : r.stability.columns()) neutral.push_back(column);

  std::string text =
      counted ? "feature,name,importance,selected,rank,missing" : "feature,name,importance,selected,rank";
  for (const auto& column : neutral) text += ',' + column.first;
  for (const auto& name : r.feature_columns) text += ',' + csv_field(name);
  text += '\n';
  for (std::size_t k = 0; k < p; ++k) {
    text += std::to_string(k);
    text += ',';
    text += csv_field(r.feature_names[k]);
    text += ',';
    text += fixed6(r.importance[k]);
    text += selected[k] ? ",1," : ",0,";
    text += std::to_string(rank[k]);
    if (counted) text += ',' + std::to_string(r.missing[k]);
    for (const auto& column : neutral) {
      text += ',';
      text += detail::shortest((*column.second)[k]);
    }
    for (const MethodDataset* d : columns) {
      text += ',';
      text += csv_field(detail::column_text(*d, k));
    }
    text += '\n';
  }
  detail::write_text_atomic(path, text);
}

}  // namespace bfs
