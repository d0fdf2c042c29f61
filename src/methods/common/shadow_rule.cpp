#include "methods/common/shadow_rule.hpp"

#include <algorithm>
#include <cmath>
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

std::vector<std::int64_t> shadow_rows(std::int64_t rows, std::uint64_t seed, FeatureId feature) {
  return Rng::stream(seed, 0, 0, Purpose::Shadow, static_cast<std::uint64_t>(feature)).permutation(rows);
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

std::vector<FeatureId> select_above(std::span<const double> scores, double threshold) {
  std::vector<FeatureId> out;
  for (std::size_t f = 0; f < scores.size(); ++f)
    if (scores[f] > threshold) out.push_back(static_cast<FeatureId>(f));
  return out;
}

}  // namespace bfs::methods
