#include "methods/common/shadow_rule.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace bfs::methods {

std::int64_t shadow_count(std::int64_t shadows, std::int64_t p, const std::string& origin) {
  if (shadows == 0) return std::min(p, kDefaultShadowCap);
  if (shadows > p)
    throw InputError("method.shadows = " + std::to_string(shadows) + " is more than the " + std::to_string(p) +
                     " features of " + origin + " (a feature has at most one shadow); set it to at most " +
                     std::to_string(p) + ", or 0 for one per feature up to " + std::to_string(kDefaultShadowCap));
  return shadows;
}

std::vector<FeatureId> shadow_sources(std::int64_t p, std::int64_t count, std::uint64_t seed) {
  BFS_CHECK(count >= 0 && count <= p, "shadows ", count, " of ", p);
  std::vector<FeatureId> out;
  if (count == p) {
    for (std::int64_t f = 0; f < p; ++f) out.push_back(static_cast<FeatureId>(f));
    return out;
  }
  const std::vector<std::int64_t> order = Rng::stream(seed, 0, 0, Purpose::Shadow, kShadowSourceStream).permutation(p);
  for (std::int64_t j = 0; j < count; ++j) out.push_back(static_cast<FeatureId>(order[static_cast<std::size_t>(j)]));
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::int64_t> shadow_rows(std::int64_t rows, std::uint64_t seed, FeatureId feature, std::int64_t copy) {
  BFS_CHECK(copy >= 0, "shadow copy ", copy);
  return Rng::stream(seed, 0, static_cast<std::uint64_t>(copy), Purpose::Shadow, static_cast<std::uint64_t>(feature))
      .permutation(rows);
}

double shadow_threshold(std::span<const double> shadow_scores, double quantile) {
  BFS_CHECK(!shadow_scores.empty(), "the shadow rule needs at least one shadow");
  BFS_CHECK(quantile > 0.0 && quantile <= 1.0, "shadow quantile ", quantile);
  std::vector<double> sorted(shadow_scores.begin(), shadow_scores.end());
  for (double& v : sorted)
    if (std::isnan(v)) v = -std::numeric_limits<double>::infinity();
  std::sort(sorted.begin(), sorted.end());
  const double h = quantile * static_cast<double>(sorted.size() - 1);  // numpy "linear": (n − 1)·q
  const auto low = static_cast<std::size_t>(std::floor(h));
  const std::size_t high = std::min(low + 1, sorted.size() - 1);
  const double fraction = h - static_cast<double>(low);
  if (fraction == 0.0 || sorted[low] == sorted[high]) return sorted[low];
  return sorted[low] + fraction * (sorted[high] - sorted[low]);
}

std::int64_t shadow_rank(double max_false, std::int64_t shadows, std::int64_t p) {
  BFS_CHECK(max_false > 0.0 && shadows >= 1 && p >= 1, "shadow rank of ", max_false, ", ", shadows, ", ", p);
  const double r = std::floor(max_false * static_cast<double>(shadows + 1) / static_cast<double>(p));
  return std::clamp(static_cast<std::int64_t>(r), std::int64_t{1}, shadows);
}

double shadow_order_threshold(std::span<const double> shadow_scores, std::int64_t rank) {
  BFS_CHECK(rank >= 1 && static_cast<std::size_t>(rank) <= shadow_scores.size(), "shadow rank ", rank, " of ",
            shadow_scores.size());
  std::vector<double> sorted(shadow_scores.begin(), shadow_scores.end());
  for (double& v : sorted)
    if (std::isnan(v)) v = -std::numeric_limits<double>::infinity();
  const auto at = sorted.begin() + (rank - 1);
  std::nth_element(sorted.begin(), at, sorted.end(), std::greater<>());
  return *at;
}

double shadow_false_bound(std::span<const double> shadow_scores, double threshold, std::int64_t p) {
  const auto above = std::count_if(shadow_scores.begin(), shadow_scores.end(), [&](double v) { return v > threshold; });
  return static_cast<double>(p) * static_cast<double>(1 + above) / static_cast<double>(shadow_scores.size() + 1);
}

ShadowThreshold shadow_rule(std::span<const double> shadow_scores, std::int64_t p, double quantile, double max_false) {
  ShadowThreshold t;
  if (quantile < 1.0) {
    t.value = shadow_threshold(shadow_scores, quantile);
  } else {
    t.rank = shadow_rank(max_false, static_cast<std::int64_t>(shadow_scores.size()), p);
    t.value = shadow_order_threshold(shadow_scores, t.rank);
  }
  t.false_bound = shadow_false_bound(shadow_scores, t.value, p);
  return t;
}

void add_shadow_facts(std::vector<MethodFact>& facts, const ShadowThreshold& threshold, std::int64_t shadows,
                      std::int64_t copies, double quantile, double max_false, bool single_threshold) {
  facts.push_back({"shadows", shadows});
  facts.push_back({"shadow_copies", copies});
  facts.push_back({"shadow_max_false", max_false});
  facts.push_back({"shadow_quantile", quantile});
  facts.push_back({"shadow_rank", threshold.rank});
  if (single_threshold) facts.push_back({"shadow_threshold", threshold.value});
  facts.push_back({"shadow_false_bound", threshold.false_bound});
}

namespace {

std::string number(const char* format, double v) {
  char text[32];
  std::snprintf(text, sizeof text, format, v);
  return text;
}

std::string ordinal(std::int64_t r) {
  const char* suffix = "th";
  if (r % 100 < 11 || r % 100 > 13) {
    if (r % 10 == 1) suffix = "st";
    if (r % 10 == 2) suffix = "nd";
    if (r % 10 == 3) suffix = "rd";
  }
  return std::to_string(r) + suffix;
}

}  // namespace

std::string describe_shadow_threshold(const ShadowThreshold& threshold, std::int64_t shadows, double quantile) {
  const std::string which = threshold.rank == 0   ? "the quantile " + number("%g", quantile)
                            : threshold.rank == 1 ? std::string("the maximum")
                                                  : "the " + ordinal(threshold.rank) + " largest";
  return which + " of " + std::to_string(shadows) + " shadows'";
}

void check_shadow_keys(double quantile, double max_false) {
  if (quantile < 1.0 && max_false != kDefaultShadowMaxFalse)
    throw ConfigError("method.shadow_quantile = " + number("%g", quantile) +
                      " and method.shadow_max_false = " + number("%g", max_false) +
                      " both set the shadow threshold: a quantile below 1 replaces the rank that shadow_max_false "
                      "gives; remove one of them");
}

std::vector<FeatureId> select_above(std::span<const double> scores, double threshold) {
  std::vector<FeatureId> out;
  for (std::size_t f = 0; f < scores.size(); ++f)
    if (scores[f] > threshold) out.push_back(static_cast<FeatureId>(f));
  return out;
}

}  // namespace bfs::methods
