#include "gkx/rank_transform.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "core/error.hpp"

namespace bfs::gkx {

std::size_t rank_to_unit_interval(std::span<const float> values, std::span<float> out) {
  BFS_CHECK(values.size() == out.size(), "rank transform: ", values.size(), " values but ", out.size(), " outputs");
  // (value, row) pairs sorted by value alone: tied values share one average rank, so their order does not matter.
  // The values are copied here, so out may alias values.
  std::vector<std::pair<float, std::uint32_t>> sorted;
  sorted.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isnan(values[i])) sorted.emplace_back(values[i], static_cast<std::uint32_t>(i));
  }
  const std::size_t n = sorted.size();
  std::fill(out.begin(), out.end(), 0.0f);
  if (n < 2) return n;
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  const double scale = 2.0 / (static_cast<double>(n) + 1.0);
  for (std::size_t lo = 0; lo < n;) {
    std::size_t hi = lo + 1;
    while (hi < n && sorted[hi].first == sorted[lo].first) ++hi;
    // Positions lo..hi-1 (0-based) share the average 1-based rank (lo + 1 + hi) / 2.
    const double rank = 0.5 * static_cast<double>(lo + 1 + hi);
    const auto mapped = static_cast<float>(scale * rank - 1.0);
    for (std::size_t k = lo; k < hi; ++k) out[sorted[k].second] = mapped;
    lo = hi;
  }
  return n;
}

std::vector<std::int32_t> distinct_codes(std::span<const std::int32_t> codes) {
  std::vector<std::int32_t> levels;
  for (std::int32_t c : codes) {
    if (c != kMissingCode) levels.push_back(c);
  }
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  return levels;
}

void one_hot(std::span<const std::int32_t> codes, std::span<const std::int32_t> levels, float* out,
             std::size_t stride) {
  BFS_CHECK(stride >= levels.size(), "one_hot: stride ", stride, " < ", levels.size(), " levels");
  for (std::size_t i = 0; i < codes.size(); ++i) {
    float* row = out + i * stride;
    std::fill(row, row + levels.size(), 0.0f);
    if (codes[i] == kMissingCode) continue;
    auto it = std::lower_bound(levels.begin(), levels.end(), codes[i]);
    BFS_CHECK(it != levels.end() && *it == codes[i], "one_hot: code ", codes[i], " is not among the levels");
    row[it - levels.begin()] = 1.0f;
  }
}

}  // namespace bfs::gkx
