#include "methods/fuse/reward.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace bfs::fuse {

void standardise(TrainingSet& data) {
  for (std::size_t j = 0; j < data.cols; ++j) {
    double* column = data.values.data() + j * data.rows;
    double sum = 0.0;
    for (std::size_t i = 0; i < data.rows; ++i) sum += column[i];
    const double mean = data.rows > 0 ? sum / static_cast<double>(data.rows) : 0.0;
    double squares = 0.0;
    for (std::size_t i = 0; i < data.rows; ++i) squares += (column[i] - mean) * (column[i] - mean);
    const double sd = data.rows > 1 ? std::sqrt(squares / static_cast<double>(data.rows - 1)) : 0.0;
    for (std::size_t i = 0; i < data.rows; ++i) column[i] = sd > 0.0 ? (column[i] - mean) / sd : 0.0;
  }
}

double auc(std::span<const std::int32_t> scores, std::span<const std::uint8_t> labels) {
  BFS_CHECK(scores.size() == labels.size());
  if (scores.empty()) return 0.5;
  const auto [lo, hi] = std::minmax_element(scores.begin(), scores.end());
  const auto span = static_cast<std::size_t>(static_cast<std::int64_t>(*hi) - *lo) + 1;
  // Scores are small integers (0..k): count each class per score, then one pass in score order.
  std::vector<std::int64_t> pos(span, 0);
  std::vector<std::int64_t> neg(span, 0);
  for (std::size_t i = 0; i < scores.size(); ++i) {
    const auto s = static_cast<std::size_t>(static_cast<std::int64_t>(scores[i]) - *lo);
    ++(labels[i] != 0 ? pos : neg)[s];
  }
  double pairs = 0.0;  // Σ over positives of (#negatives below + ½ #negatives tied)
  std::int64_t below = 0;
  std::int64_t n_pos = 0;
  for (std::size_t s = 0; s < span; ++s) {
    pairs += static_cast<double>(pos[s]) * (static_cast<double>(below) + 0.5 * static_cast<double>(neg[s]));
    below += neg[s];
    n_pos += pos[s];
  }
  if (n_pos == 0 || below == 0) return 0.5;
  return pairs / (static_cast<double>(n_pos) * static_cast<double>(below));
}

std::vector<std::size_t> stratified_subsample(std::span<const std::uint8_t> labels, std::size_t m, Rng& rng) {
  if (m > labels.size()) {
    throw std::invalid_argument("reward subsample of " + std::to_string(m) + " rows from " +
                                std::to_string(labels.size()));
  }
  std::vector<std::size_t> positives;
  std::vector<std::size_t> negatives;
  for (std::size_t i = 0; i < labels.size(); ++i) (labels[i] != 0 ? positives : negatives).push_back(i);
  const double share =
      labels.empty() ? 0.0 : static_cast<double>(positives.size()) / static_cast<double>(labels.size());
  auto m_pos = static_cast<std::size_t>(std::llround(share * static_cast<double>(m)));
  if (m >= 2 && !positives.empty() && !negatives.empty()) m_pos = std::clamp<std::size_t>(m_pos, 1, m - 1);
  m_pos = std::clamp(m_pos, m - std::min(m, negatives.size()), std::min(m, positives.size()));
  auto draw = [&rng](std::vector<std::size_t>& rows, std::size_t count, std::vector<std::size_t>& out) {
    for (std::size_t i = 0; i < count; ++i) {  // partial Fisher–Yates
      std::swap(rows[i], rows[i + static_cast<std::size_t>(rng.uniform_int(rows.size() - i))]);
      out.push_back(rows[i]);
    }
  };
  std::vector<std::size_t> chosen;
  chosen.reserve(m);
  draw(positives, m_pos, chosen);
  draw(negatives, m - m_pos, chosen);
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

KnnReward::KnnReward(TrainingSet data, std::int32_t k) : data_(std::move(data)), k_(k) {
  BFS_CHECK(data_.values.size() == data_.rows * data_.cols && data_.labels.size() == data_.rows);
  BFS_CHECK(k_ >= 1 && static_cast<std::size_t>(k_) < data_.rows, "k must be below the number of rows");
}

namespace {

/// The k nearest rows seen so far, in (distance, row) order. Rows are offered in ascending row order, so a row
/// whose distance equals the current k-th's is later and loses the tie: the set equals a sort by (distance, row).
class NearestK {
 public:
  explicit NearestK(std::size_t k) : k_(k), best_(k) {}
  void offer(double distance, std::size_t row) {
    if (size_ == k_ && !(distance < best_[k_ - 1].first)) return;
    std::size_t at = size_ < k_ ? size_++ : k_ - 1;
    while (at > 0 && distance < best_[at - 1].first) {
      best_[at] = best_[at - 1];
      --at;
    }
    best_[at] = {distance, row};
  }
  /// A distance must be below this to enter (+∞ until k rows are held).
  double bound() const { return size_ == k_ ? best_[k_ - 1].first : std::numeric_limits<double>::infinity(); }
  std::int32_t positives(std::span<const std::uint8_t> labels) const {
    std::int32_t count = 0;
    for (std::size_t i = 0; i < size_; ++i) count += labels[best_[i].second] != 0 ? 1 : 0;
    return count;
  }

 private:
  std::size_t k_;
  std::size_t size_ = 0;
  std::vector<std::pair<double, std::size_t>> best_;
};

// The distance kernel: kQueries validation rows against kTile training rows at a time, the squared differences
// summed over F's columns in ascending order (the same additions, in the same order, as one row at a time, so the
// blocking cannot change a bit). Eight-wide vectors: AVX-512 or AVX2 where the CPU has it (chosen at load time),
// SSE2 otherwise; -ffp-contract=off keeps FMA out of every clone, so all of them give the same bits.
using Lanes = double __attribute__((vector_size(64)));
using LaneMask = std::int64_t __attribute__((vector_size(64)));
constexpr std::size_t kTile = 8;  ///< rows per Lanes
constexpr std::size_t kQueries = 8;

/// Whether any lane is set: halves OR-ed together in vector registers (a lane-by-lane loop compiles to eight
/// extractions).
inline bool any_lane(LaneMask mask) {
  using Half = std::int64_t __attribute__((vector_size(32)));
  using Quarter = std::int64_t __attribute__((vector_size(16)));
  const Half half = __builtin_shufflevector(mask, mask, 0, 1, 2, 3) | __builtin_shufflevector(mask, mask, 4, 5, 6, 7);
  const Quarter quarter = __builtin_shufflevector(half, half, 0, 1) | __builtin_shufflevector(half, half, 2, 3);
  return (quarter[0] | quarter[1]) != 0;
}

struct QueryBlock {
  std::size_t rows[kQueries];  ///< the validation rows (the last repeated to fill the block)
  std::size_t count;           ///< how many of them are real
};

/// F's columns of the training rows, tile by tile: panel[(tile·|F| + f)·kTile + t] = column cols[f], row
/// tile·kTile + t, for the whole tiles. Each block of validation rows then reads one sequential stream.
std::vector<double> pack_tiles(const TrainingSet& data, std::span<const std::int32_t> cols) {
  const std::size_t tiles = data.rows / kTile;
  std::vector<double> panel(tiles * cols.size() * kTile);
  for (std::size_t f = 0; f < cols.size(); ++f) {
    const auto column = data.column(static_cast<std::size_t>(cols[f]));
    for (std::size_t tile = 0; tile < tiles; ++tile)
      std::memcpy(&panel[(tile * cols.size() + f) * kTile], &column[tile * kTile], kTile * sizeof(double));
  }
  return panel;
}

/// Offers every training row but the query itself to each query's NearestK. `at` holds, per column of F and per
/// query, the query row's value (at[f·kQueries + q]); `panel` is pack_tiles' layout.
__attribute__((target_clones("avx512f", "avx2", "default"))) void scan_block(
    const TrainingSet& data, std::span<const std::int32_t> cols, std::span<const double> at,
    std::span<const double> panel, const QueryBlock& block, std::span<NearestK> nearest) {
  const std::size_t n = data.rows;
  const std::size_t full = n - n % kTile;
  for (std::size_t i0 = 0; i0 < full; i0 += kTile) {
    Lanes acc[kQueries];
    for (Lanes& sum : acc) sum = Lanes{};
    const double* tile = panel.data() + i0 * cols.size();
    for (std::size_t f = 0; f < cols.size(); ++f) {
      Lanes values;
      std::memcpy(&values, tile + f * kTile, sizeof values);
      for (std::size_t q = 0; q < kQueries; ++q) {
        const Lanes d = values - at[f * kQueries + q];
        acc[q] += d * d;
      }
    }
    for (std::size_t q = 0; q < block.count; ++q) {
      // Most tiles hold no row nearer than the k-th so far: one vector comparison skips them.
      const double bound = nearest[q].bound();
      if (!any_lane(acc[q] < bound)) continue;
      for (std::size_t t = 0; t < kTile; ++t) {
        const std::size_t row = i0 + t;
        if (row != block.rows[q]) nearest[q].offer(acc[q][t], row);  // leave-one-out
      }
    }
  }
  for (std::size_t row = full; row < n; ++row) {
    for (std::size_t q = 0; q < block.count; ++q) {
      double sum = 0.0;
      for (std::size_t f = 0; f < cols.size(); ++f) {
        const double d = data.values[static_cast<std::size_t>(cols[f]) * n + row] - at[f * kQueries + q];
        sum += d * d;
      }
      if (row != block.rows[q]) nearest[q].offer(sum, row);
    }
  }
}

}  // namespace

std::vector<std::int32_t> KnnReward::scores(std::span<const std::int32_t> features,
                                            std::span<const std::size_t> validation) const {
  std::vector<std::int32_t> cols(features.begin(), features.end());
  std::sort(cols.begin(), cols.end());
  BFS_CHECK(cols.empty() || (cols.front() >= 0 && static_cast<std::size_t>(cols.back()) < data_.cols));
  const std::size_t n = data_.rows;
  const auto k = static_cast<std::size_t>(k_);
  std::vector<double> at(cols.size() * kQueries);
  const std::vector<double> panel = pack_tiles(data_, cols);
  std::vector<std::int32_t> out;
  out.reserve(validation.size());
  for (std::size_t first = 0; first < validation.size(); first += kQueries) {
    QueryBlock block{};
    block.count = std::min(kQueries, validation.size() - first);
    for (std::size_t q = 0; q < kQueries; ++q) {
      block.rows[q] = validation[first + std::min(q, block.count - 1)];
      BFS_CHECK(block.rows[q] < n);
      for (std::size_t f = 0; f < cols.size(); ++f)
        at[f * kQueries + q] = data_.column(static_cast<std::size_t>(cols[f]))[block.rows[q]];
    }
    std::vector<NearestK> nearest(block.count, NearestK(k));
    scan_block(data_, cols, at, panel, block, nearest);
    for (const NearestK& found : nearest) out.push_back(found.positives(data_.labels));
  }
  return out;
}

double KnnReward::value(std::span<const std::int32_t> features, std::span<const std::size_t> validation) const {
  if (features.empty()) return 0.5;
  const auto s = scores(features, validation);
  std::vector<std::uint8_t> labels(validation.size());
  for (std::size_t i = 0; i < validation.size(); ++i) labels[i] = data_.labels[validation[i]];
  return auc(s, labels);
}

}  // namespace bfs::fuse
