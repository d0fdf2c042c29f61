#pragma once
// An argmax with uniformly drawn ties ("ties go to a stream draw"), one pass: the k-th candidate tied at
// the best score replaces the current pick with probability 1/k (reservoir sampling). Draws happen only on exact
// ties, so the stream — and the result — depend only on the scores and their order.
#include <cstdint>
#include <limits>

#include "core/rng.hpp"

namespace bfs::fuse::detail {

class ArgmaxPicker {
 public:
  explicit ArgmaxPicker(Rng& rng) : rng_(rng) {}
  /// Offers candidate `index` with `score`.
  void offer(std::int32_t index, double score) {
    if (best_ < 0 || score > score_) {
      best_ = index;
      score_ = score;
      ties_ = 1;
    } else if (score == score_) {
      ++ties_;
      if (rng_.uniform_int(ties_) == 0) best_ = index;
    }
  }
  /// The pick, −1 when nothing was offered.
  std::int32_t best() const { return best_; }

 private:
  Rng& rng_;
  std::int32_t best_ = -1;
  double score_ = -std::numeric_limits<double>::infinity();
  std::uint64_t ties_ = 0;
};

}  // namespace bfs::fuse::detail
