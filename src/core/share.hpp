#pragma once
// One rule for splitting work among the members of a group (tasks over MPI ranks, trees and histogram rows over the
// members fitting one model): member r of k gets the contiguous block [begin, end), the first n % k members one item
// more. Declared once here so every splitter agrees.
#include <algorithm>
#include <cstddef>
#include <utility>

namespace bfs {

inline std::pair<std::size_t, std::size_t> contiguous_share(std::size_t n, int member, int members) {
  const auto k = static_cast<std::size_t>(std::max(1, members));
  const auto r = static_cast<std::size_t>(std::clamp(member, 0, static_cast<int>(k) - 1));
  const std::size_t base = n / k, extra = n % k;
  const std::size_t begin = r * base + std::min(r, extra);
  return {begin, begin + base + (r < extra ? 1 : 0)};
}

}  // namespace bfs
