// summary.csv: one row per feature, in feature order (DESIGN §5).
#include <charconv>
#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "data/detail/atomic_write.hpp"
#include "output/detail/ranking.hpp"
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

/// Shortest representation that reads back to the same double (alpha and beta are usually small integers + prior).
std::string shortest(double value) {
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, ec == std::errc{} ? end : buffer);
}

std::string fixed6(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.6f", value);
  return buffer;
}

}  // namespace

// Columns: feature = 0-based column index of the feature in the input data (the FeatureId used everywhere else),
// name, posterior mean (6 decimals), alpha, beta, selected (1 when the feature is in RunResult::selected, i.e. the
// median-probability model mean >= 0.5 for the bandit), rank (1 = highest mean, ties broken by lower feature index).
void write_summary_csv(const RunResult& result, const std::string& path) {
  const std::size_t p = result.feature_names.size();
  if (result.alpha.size() != p || result.beta.size() != p) {
    throw Error(detail::concat("cannot write '", path, "': alpha/beta do not have one entry per feature (", p, ")"));
  }
  const auto means = detail::feature_means(result);
  const auto order = detail::ranking_order(means);
  std::vector<std::size_t> rank(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = i + 1;
  const auto selected = detail::selected_flags(result, p);

  std::string text = "feature,name,mean,alpha,beta,selected,rank\n";
  for (std::size_t k = 0; k < p; ++k) {
    text += std::to_string(k);
    text += ',';
    text += csv_field(result.feature_names[k]);
    text += ',';
    text += fixed6(means[k]);
    text += ',';
    text += shortest(result.alpha[k]);
    text += ',';
    text += shortest(result.beta[k]);
    text += selected[k] ? ",1," : ",0,";
    text += std::to_string(rank[k]);
    text += '\n';
  }
  detail::write_text_atomic(path, text);
}

}  // namespace bfs
