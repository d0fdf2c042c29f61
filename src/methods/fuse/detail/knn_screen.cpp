#include "methods/fuse/detail/knn_screen.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "core/error.hpp"
#include "methods/fuse/reward.hpp"

namespace bfs::fuse::detail {
namespace {

using FloatLanes = float __attribute__((vector_size(64)));
using FloatMask = std::int32_t __attribute__((vector_size(64)));
constexpr std::size_t kTile = 16;    ///< rows per FloatLanes
constexpr std::size_t kQueries = 8;  ///< validation rows screened together
constexpr double kUnitFloat = 0x1p-24;
constexpr double kUnitDouble = 0x1p-53;
constexpr double kLargestValue = 1e15;
constexpr double kLargestNorm = 1e30;
constexpr float kInfinity = std::numeric_limits<float>::infinity();
constexpr double kNoBound = std::numeric_limits<double>::infinity();

// The screen may contract its multiply-adds into FMA (the project builds with -ffp-contract=off so that exact
// arithmetic never is): the bound holds either way. Only GCC knows the attribute; clang-tidy parses without it.
#if defined(__clang__)
#define BFS_ALLOW_FMA
#else
#define BFS_ALLOW_FMA __attribute__((optimize("fp-contract=fast")))
#endif

/// Whether any lane is set: halves OR-ed together in vector registers (a lane-by-lane loop compiles to sixteen
/// extractions).
inline bool any_lane(FloatMask mask) {
  using Half = std::int32_t __attribute__((vector_size(32)));
  using Quarter = std::int32_t __attribute__((vector_size(16)));
  const Half half = __builtin_shufflevector(mask, mask, 0, 1, 2, 3, 4, 5, 6, 7) |
                    __builtin_shufflevector(mask, mask, 8, 9, 10, 11, 12, 13, 14, 15);
  const Quarter quarter =
      __builtin_shufflevector(half, half, 0, 1, 2, 3) | __builtin_shufflevector(half, half, 4, 5, 6, 7);
  return (quarter[0] | quarter[1] | quarter[2] | quarter[3]) != 0;
}

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

/// One reward's screen: F's rounded columns, each row's float ‖x̂‖² over F (+∞ for padding, so its w̃ is +∞), and
/// M and γ of the bound.
struct Screen {
  std::size_t tiles = 0;
  std::vector<const float*> columns;
  std::vector<float> norms;
  double max_norm = 0.0;  ///< M ≥ ‖x̂‖² of every row
  double gamma = 0.0;     ///< (m + 4)·u
  bool on = false;        ///< false: every row gets the exact distance
};

__attribute__((target_clones("avx512f", "avx2", "default"))) void add_squares(const float* column, std::size_t tiles,
                                                                              float* norms) {
  for (std::size_t i0 = 0; i0 < tiles * kTile; i0 += kTile) {
    FloatLanes x;
    FloatLanes sum;
    std::memcpy(&x, column + i0, sizeof x);
    std::memcpy(&sum, norms + i0, sizeof sum);
    sum += x * x;
    std::memcpy(norms + i0, &sum, sizeof sum);
  }
}

Screen make_screen(const TrainingSet& data, const RoundedColumns& rounded, std::span<const std::int32_t> cols) {
  Screen screen;
  screen.tiles = rounded.stride / kTile;
  screen.gamma = static_cast<double>(cols.size() + 4) * kUnitFloat;
  screen.norms.assign(rounded.stride, 0.0F);
  for (std::int32_t col : cols) {
    screen.columns.push_back(rounded.values.data() + static_cast<std::size_t>(col) * rounded.stride);
    add_squares(screen.columns.back(), screen.tiles, screen.norms.data());
  }
  const float largest = *std::max_element(screen.norms.begin(), screen.norms.end());
  screen.max_norm = static_cast<double>(largest) / (1.0 - screen.gamma);
  screen.on = rounded.largest < kLargestValue && screen.gamma < 0.1 && screen.max_norm < kLargestNorm;
  std::fill(screen.norms.begin() + static_cast<std::ptrdiff_t>(data.rows), screen.norms.end(), kInfinity);
  return screen;
}

/// A block of validation rows: their rows, their rounded values on F, query-minor (rounded[f·kQueries + q]), and
/// ‖ẑ‖² in double. (The exact distance reads the double values from the data: it is rarely needed.)
struct QueryBlock {
  std::size_t count = 0;  ///< how many are real (the last is repeated to fill the block)
  std::size_t rows[kQueries] = {};
  std::vector<float> rounded;
  double norm[kQueries] = {};
};

/// The definition's distances: (x_f − z_f)² summed over F in ascending column order, in double, for each candidate
/// row, four side by side (independent chains of additions; each row's own sum keeps its order).
void exact_distances(const TrainingSet& data, std::span<const std::int32_t> cols, const QueryBlock& block,
                     std::size_t q, std::span<const std::size_t> rows, std::vector<double>& distances) {
  constexpr std::size_t kSide = 4;
  distances.resize(rows.size());
  for (std::size_t i = 0; i < rows.size(); i += kSide) {
    const std::size_t count = std::min(kSide, rows.size() - i);
    double sum[kSide] = {};
    for (std::size_t f = 0; f < cols.size(); ++f) {
      const double* column = data.values.data() + static_cast<std::size_t>(cols[f]) * data.rows;
      const double z = column[block.rows[q]];
      for (std::size_t j = 0; j < count; ++j) {
        const double d = column[rows[i + j]] - z;
        sum[j] += d * d;
      }
    }
    std::copy_n(sum, count, distances.begin() + static_cast<std::ptrdiff_t>(i));
  }
}

/// The screen: w̃ of every row for every query of the block (rough[q·tiles·kTile + row]; +∞ for the query's own
/// row, leave-one-out, and for padding), and per query the lane-wise minimum over the tiles.
BFS_ALLOW_FMA __attribute__((target_clones("avx512f", "avx2", "default"))) void screen_block(
    const Screen& screen, const QueryBlock& block, std::span<float> rough, std::span<FloatLanes> lane_minimum) {
  const std::size_t padded = screen.tiles * kTile;
  const std::size_t m = screen.columns.size();
  for (std::size_t q = 0; q < block.count; ++q) lane_minimum[q] = FloatLanes{} + kInfinity;
  for (std::size_t i0 = 0; i0 < padded; i0 += kTile) {
    FloatLanes dot[kQueries];
    for (FloatLanes& sum : dot) sum = FloatLanes{};
    for (std::size_t f = 0; f < m; ++f) {
      FloatLanes values;
      std::memcpy(&values, screen.columns[f] + i0, sizeof values);
      for (std::size_t q = 0; q < kQueries; ++q) dot[q] += values * block.rounded[f * kQueries + q];
    }
    FloatLanes norms;
    std::memcpy(&norms, screen.norms.data() + i0, sizeof norms);
    for (std::size_t q = 0; q < block.count; ++q) {
      FloatLanes w = norms - (dot[q] + dot[q]);
      if (block.rows[q] - i0 < kTile) w[block.rows[q] - i0] = kInfinity;
      std::memcpy(&rough[q * padded + i0], &w, sizeof w);
      lane_minimum[q] = w < lane_minimum[q] ? w : lane_minimum[q];
    }
  }
}

/// A row the screen could not rule out, with its w̃.
struct Candidate {
  std::size_t row;
  float rough;
};

/// The rows whose w̃ is at most `limit`, in ascending row order (never padding or the query's own row).
__attribute__((target_clones("avx512f", "avx2", "default"))) void rows_at_most(std::span<const float> rough,
                                                                               float limit, std::size_t rows,
                                                                               std::vector<Candidate>& out) {
  out.clear();
  for (std::size_t i0 = 0; i0 < rough.size(); i0 += kTile) {
    FloatLanes w;
    std::memcpy(&w, &rough[i0], sizeof w);
    if (!any_lane(w <= limit)) continue;
    for (std::size_t t = 0; t < kTile; ++t) {
      if (w[t] <= limit && w[t] < kInfinity && i0 + t < rows) out.push_back({i0 + t, w[t]});
    }
  }
}

/// The bound's widening terms for one query: E, δ, and 4(m + 2)·2⁻⁵³, the relative rounding of an m-term double sum
/// (the exact distance, and N).
struct Slack {
  double error;
  double shift;
  double relative;
};

Slack slack(const Screen& screen, double query_norm) {
  return {2.0 * screen.gamma * (screen.max_norm + query_norm) / (1.0 - screen.gamma) + 1e-30,
          kUnitFloat * (std::sqrt(screen.max_norm) + std::sqrt(query_norm)) / (1.0 - screen.gamma) + 1e-18,
          4.0 * (static_cast<double>(screen.columns.size()) + 2.0) * kUnitDouble};
}

/// B for a rough distance w: a row with w̃ ≤ w has exact (double) distance at most B.
double distance_bound(double w, const Screen& screen, double query_norm) {
  if (!std::isfinite(w)) return kNoBound;
  const Slack s = slack(screen, query_norm);
  const double reach = std::sqrt(std::max(0.0, w + query_norm * (1.0 + s.relative) + s.error)) + s.shift;
  return reach * reach * (1.0 + s.relative) + 1e-300;
}

/// A w̃ with k rows at or below it: the k smallest lane minima belong to k different rows, so the k-th of them.
/// +∞ when k > kTile (or fewer than k rows are screened).
float kth_lane_minimum(const FloatLanes& lane_minimum, std::size_t k) {
  if (k > kTile) return kInfinity;
  float minima[kTile];
  std::memcpy(minima, &lane_minimum, sizeof minima);
  std::nth_element(minima, minima + (k - 1), minima + kTile);
  return minima[k - 1];
}

/// The largest w̃ a row with exact distance ≤ `bound` can have, rounded up to a float.
float screen_limit(double bound, const Screen& screen, double query_norm) {
  if (!std::isfinite(bound)) return kInfinity;
  const Slack s = slack(screen, query_norm);
  const double reach = std::sqrt(bound * (1.0 + s.relative) + 1e-300) + s.shift;
  const double limit = reach * reach + s.error - query_norm * (1.0 - s.relative);
  auto rounded = static_cast<float>(limit);
  if (static_cast<double>(rounded) < limit) rounded = std::nextafter(rounded, kInfinity);
  return rounded;
}

/// Scratch reused across blocks.
struct Workspace {
  std::vector<float> rough;
  std::vector<Candidate> candidates;
  std::vector<float> smallest;
  std::vector<std::size_t> rows;
  std::vector<double> distances;
  FloatLanes lane_minimum[kQueries];
};

/// The number of positives among the k nearest of `rows` (ascending) to query q, by exact distance.
std::int32_t exact_positives(const TrainingSet& data, std::span<const std::int32_t> cols, const QueryBlock& block,
                             std::size_t q, std::size_t k, Workspace& work) {
  exact_distances(data, cols, block, q, work.rows, work.distances);
  NearestK nearest(k);
  for (std::size_t i = 0; i < work.rows.size(); ++i) nearest.offer(work.distances[i], work.rows[i]);
  return nearest.positives(data.labels);
}

/// Query q's k nearest rows once the screen has run: the rows the k-th smallest lane minimum leaves, narrowed by
/// their own k-th smallest w̃. Every row outside what is left is strictly farther than k rows inside it, so when
/// exactly k are left they are the k nearest; otherwise (near-ties) the exact distances decide.
std::int32_t screened_positives(const TrainingSet& data, std::span<const std::int32_t> cols, const Screen& screen,
                                const QueryBlock& block, std::size_t q, std::size_t k, Workspace& work) {
  const std::size_t padded = screen.tiles * kTile;
  const std::span<const float> rough(work.rough.data() + q * padded, padded);
  float w = kth_lane_minimum(work.lane_minimum[q], k);
  rows_at_most(rough, screen_limit(distance_bound(w, screen, block.norm[q]), screen, block.norm[q]), data.rows,
               work.candidates);
  if (work.candidates.size() > k) {
    work.smallest.clear();
    for (const Candidate& c : work.candidates) work.smallest.push_back(c.rough);
    std::nth_element(work.smallest.begin(), work.smallest.begin() + static_cast<std::ptrdiff_t>(k - 1),
                     work.smallest.end());
    w = work.smallest[k - 1];
  }
  const float limit = screen_limit(distance_bound(w, screen, block.norm[q]), screen, block.norm[q]);
  work.rows.clear();
  for (const Candidate& c : work.candidates) {
    if (c.rough <= limit) work.rows.push_back(c.row);
  }
  if (work.rows.size() == k) {
    std::int32_t count = 0;
    for (std::size_t row : work.rows) count += data.labels[row] != 0 ? 1 : 0;
    return count;
  }
  return exact_positives(data, cols, block, q, k, work);
}

/// s_F of each query of the block: the screen, then screened_positives; without the screen, exact distances of
/// every row.
void positives_of_block(const TrainingSet& data, std::span<const std::int32_t> cols, const Screen& screen,
                        const QueryBlock& block, std::size_t k, Workspace& work, std::vector<std::int32_t>& out) {
  if (!screen.on) {
    for (std::size_t q = 0; q < block.count; ++q) {
      work.rows.clear();
      for (std::size_t row = 0; row < data.rows; ++row) {
        if (row != block.rows[q]) work.rows.push_back(row);
      }
      out.push_back(exact_positives(data, cols, block, q, k, work));
    }
    return;
  }
  work.rough.resize(kQueries * screen.tiles * kTile);
  screen_block(screen, block, work.rough, work.lane_minimum);
  for (std::size_t q = 0; q < block.count; ++q)
    out.push_back(screened_positives(data, cols, screen, block, q, k, work));
}

}  // namespace

RoundedColumns round_columns(const TrainingSet& data) {
  RoundedColumns rounded;
  rounded.stride = (data.rows + kTile - 1) / kTile * kTile;
  rounded.values.assign(data.cols * rounded.stride, 0.0F);
  for (std::size_t j = 0; j < data.cols; ++j) {
    const auto column = data.column(j);
    for (std::size_t i = 0; i < data.rows; ++i) {
      // Beyond the float range a conversion is undefined: ±∞ instead (the screen is then off anyway).
      const double v = column[i];
      rounded.values[j * rounded.stride + i] =
          std::abs(v) <= std::numeric_limits<float>::max() ? static_cast<float>(v) : std::copysign(kInfinity, v);
      rounded.largest = std::isnan(column[i]) ? column[i] : std::max(rounded.largest, std::abs(column[i]));
    }
  }
  return rounded;
}

std::vector<std::int32_t> nearest_positives(const TrainingSet& data, const RoundedColumns& rounded,
                                            std::span<const std::int32_t> cols, std::span<const std::size_t> validation,
                                            std::size_t k) {
  BFS_CHECK(std::is_sorted(cols.begin(), cols.end()) && k >= 1 && k < data.rows);
  const Screen screen = make_screen(data, rounded, cols);
  QueryBlock block;
  block.rounded.resize(cols.size() * kQueries);
  Workspace work;
  std::vector<std::int32_t> out;
  out.reserve(validation.size());
  for (std::size_t first = 0; first < validation.size(); first += kQueries) {
    block.count = std::min(kQueries, validation.size() - first);
    for (std::size_t q = 0; q < kQueries; ++q) {
      block.rows[q] = validation[first + std::min(q, block.count - 1)];
      BFS_CHECK(block.rows[q] < data.rows);
      block.norm[q] = 0.0;
      for (std::size_t f = 0; f < cols.size(); ++f) {
        const auto col = static_cast<std::size_t>(cols[f]);
        const float z = rounded.values[col * rounded.stride + block.rows[q]];
        block.rounded[f * kQueries + q] = z;
        block.norm[q] += static_cast<double>(z) * static_cast<double>(z);
      }
    }
    positives_of_block(data, cols, screen, block, k, work, out);
  }
  return out;
}

}  // namespace bfs::fuse::detail
