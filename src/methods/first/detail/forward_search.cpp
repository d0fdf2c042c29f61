#include "methods/first/detail/forward_search.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "core/error.hpp"
#include "core/parallel_for.hpp"

namespace bfs::first::detail {

namespace {

/// Relative widening of the kept rows' bound on S̃ (see the header): far above (|A| + 1)·2⁻⁵² for any |A| up to
/// kForwardSearchMaxColumns, and the rows it lets in are dropped by the canonical selection.
constexpr double kSlack = 1e-10;

/// The rows a walk offers, with their S̃, and the N_I smallest S̃ so far.
class Walk {
 public:
  explicit Walk(std::size_t inner) : inner_(inner) {}
  void reset() {
    smallest_.clear();
    offered_.clear();
    bound_ = std::numeric_limits<double>::infinity();
  }
  /// Every row with S̃ above this is outside the neighbourhood: the N_I-th smallest S̃ so far, widened (∞ before N_I
  /// rows). It only falls as rows are offered.
  double bound() const { return bound_; }
  void offer(double s, std::size_t row) {
    if (s > bound_) return;
    offered_.emplace_back(s, row);
    if (smallest_.size() == inner_) {
      if (!(s < smallest_.back())) return;  // within the widening only: kept, but not among the N_I smallest
      smallest_.pop_back();
    }
    smallest_.insert(std::upper_bound(smallest_.begin(), smallest_.end(), s), s);
    if (smallest_.size() == inner_) bound_ = smallest_.back() * (1.0 + kSlack);
  }
  /// The offered rows still within the bound, ascending.
  void kept_rows(std::vector<std::size_t>& rows) const {
    rows.clear();
    for (const auto& [s, row] : offered_)
      if (s <= bound_) rows.push_back(row);
    std::sort(rows.begin(), rows.end());
  }

 private:
  std::size_t inner_;
  double bound_ = std::numeric_limits<double>::infinity();
  std::vector<double> smallest_;  ///< ascending, at most N_I
  std::vector<std::pair<double, std::size_t>> offered_;
};

/// A double's bits as an unsigned integer in the order of the doubles (−0 as +0; the columns hold no NaN).
inline std::uint64_t ordered_bits(double v) {
  const auto bits = std::bit_cast<std::uint64_t>(v == 0.0 ? 0.0 : v);
  return bits >> 63 != 0 ? ~bits : bits | (std::uint64_t{1} << 63);
}

/// The LSD radix passes over bytes first_digit … 7 of the keys, a byte a pass, skipping the bytes every row shares
/// (stable: ties keep their order).
void radix_passes(std::vector<std::uint64_t>& keys, std::vector<std::uint32_t>& rows, std::size_t first_digit) {
  const std::size_t n = keys.size();
  constexpr std::size_t kDigits = 8, kBuckets = 256;
  std::vector<std::uint64_t> keys_next(n);
  std::vector<std::uint32_t> rows_next(n);
  std::vector<std::size_t> counts(kDigits * kBuckets, 0);
  for (const std::uint64_t key : keys)
    for (std::size_t d = first_digit; d < kDigits; ++d) ++counts[d * kBuckets + ((key >> (8 * d)) & 0xFF)];
  for (std::size_t d = first_digit; d < kDigits; ++d) {
    std::size_t* count = counts.data() + d * kBuckets;
    if (n == 0 || count[(keys[0] >> (8 * d)) & 0xFF] == n) continue;  // one byte value: the pass changes nothing
    std::size_t start = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) start += std::exchange(count[b], start);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = count[(keys[i] >> (8 * d)) & 0xFF]++;
      keys_next[at] = keys[i];
      rows_next[at] = rows[i];
    }
    keys.swap(keys_next);
    rows.swap(rows_next);
  }
}

/// Insertion sort by (key, row) of nearly sorted arrays; false (arrays half done) once it has made `budget` moves.
bool insertion_sort(std::vector<std::uint64_t>& keys, std::vector<std::uint32_t>& rows, std::size_t budget) {
  for (std::size_t i = 1; i < keys.size(); ++i) {
    const std::uint64_t key = keys[i];
    const std::uint32_t row = rows[i];
    std::size_t j = i;
    for (; j > 0 && (keys[j - 1] > key || (keys[j - 1] == key && rows[j - 1] > row)); --j) {
      if (budget-- == 0) return false;
      keys[j] = keys[j - 1];
      rows[j] = rows[j - 1];
    }
    keys[j] = key;
    rows[j] = row;
  }
  return true;
}

/// Rows 0 … n − 1 in ascending (value, row) order. Radix passes over the ordered bits' upper four bytes, then an
/// insertion pass that orders the rows whose upper 32 bits tie (few and adjacent on continuous data). Where that
/// would move rows more than 8n times (values that differ only in their low bits), all eight byte passes from row
/// order instead. Step 1 sorts each of the p columns once, where a comparison sort was half of a FIRST-FAST run
/// (docs/first.md), and eight byte passes took 20% more than four and the insertion pass.
std::vector<std::uint32_t> rows_by_value(std::span<const double> column) {
  const std::size_t n = column.size();
  const auto fill = [&](std::vector<std::uint64_t>& keys, std::vector<std::uint32_t>& rows) {
    for (std::size_t r = 0; r < n; ++r) {
      keys[r] = ordered_bits(column[r]);
      rows[r] = static_cast<std::uint32_t>(r);
    }
  };
  std::vector<std::uint64_t> keys(n);
  std::vector<std::uint32_t> rows(n);
  fill(keys, rows);
  radix_passes(keys, rows, 4);
  if (insertion_sort(keys, rows, 8 * n)) return rows;
  fill(keys, rows);
  radix_passes(keys, rows, 0);
  return rows;
}

/// Each row's place in `order` (the inverse permutation).
std::vector<std::uint32_t> positions_of(std::span<const std::uint32_t> order) {
  std::vector<std::uint32_t> position(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) position[order[k]] = static_cast<std::uint32_t>(k);
  return position;
}

/// Grows the window [lo, hi) of a sorted column (n rows) by one place on the side whose next square is smaller,
/// the left on a tie, and returns that place. The squares taken this way never decrease. lo > 0 or hi < n.
template <class SquareAt>
std::size_t widen_to_nearer(std::size_t& lo, std::size_t& hi, std::size_t n, const SquareAt& square_at) {
  const bool left = lo > 0 && (hi == n || square_at(lo - 1) <= square_at(hi));
  return left ? --lo : hi++;
}

/// Buffers of one candidate's walks over its outer rows.
struct WalkBuffers {
  explicit WalkBuffers(std::size_t inner) : walk(inner) {}
  Walk walk;
  std::vector<std::size_t> rows;
  std::vector<double> distance;
  Scratch scratch;
};

/// The canonical selection on the rows a walk kept: measured with squared_distance over u, then Appendix C's rule.
double select(const Columns& x, std::span<const double> y, std::span<const std::size_t> u, std::size_t inner,
              std::size_t m, WalkBuffers& b, std::vector<std::size_t>* sizes) {
  b.walk.kept_rows(b.rows);
  if (b.rows.size() == inner) {
    // The neighbourhood holds at least N_I rows, all of them kept: it is exactly these, whatever their distances.
    return rows_variance(b.rows, y, b.scratch, sizes);
  }
  b.distance.resize(b.rows.size());
  for (std::size_t i = 0; i < b.rows.size(); ++i) b.distance[i] = std::sqrt(squared_distance(x, u, b.rows[i], m));
  return neighbourhood_variance(b.rows, b.distance, y, inner, b.scratch, sizes);
}

}  // namespace

ForwardSearch::ForwardSearch(const Columns& x, std::span<const double> y, std::vector<std::size_t> a, std::size_t inner,
                             std::vector<std::size_t> outer, int threads, std::size_t list_rows)
    : x_(x), y_(y), a_(std::move(a)), inner_(inner), outer_(std::move(outer)) {
  std::sort(a_.begin(), a_.end());
  if (inner_ < 1 || inner_ > x_.rows || y_.size() != x_.rows || a_.size() + 1 > kForwardSearchMaxColumns ||
      x_.rows > std::numeric_limits<std::uint32_t>::max())
    throw InternalError("ForwardSearch: N_I " + std::to_string(inner_) + ", |A| " + std::to_string(a_.size()) +
                        ", rows " + std::to_string(x_.rows) + ", y " + std::to_string(y_.size()));
  for (const std::size_t m : outer_)
    if (m >= x_.rows) throw InternalError("ForwardSearch: outer row " + std::to_string(m) + " out of range");
  if (list_rows == 0) list_rows = default_list_rows(x_.rows);
  list_rows_ = a_.empty() ? 0 : std::min(x_.rows, std::max(list_rows, inner_));
  if (list_rows_ == 0) return;
  list_row_.resize(outer_.size() * list_rows_);
  list_distance_.resize(outer_.size() * list_rows_);
  if (a_.size() == 1) {
    a_order_ = rows_by_value(x_.column(a_.front()));
    a_position_ = positions_of(a_order_);
  }
  // Each outer row's list is its own slot: the threads' order cannot change a bit. Rows go in chunks, so a task's
  // buffers serve many rows.
  constexpr std::size_t kChunk = 32;
  parallel_for((outer_.size() + kChunk - 1) / kChunk, threads, [&](std::size_t chunk) {
    ListBuffers buffers;
    for (std::size_t o = chunk * kChunk; o < std::min(outer_.size(), (chunk + 1) * kChunk); ++o) build_list(o, buffers);
  });
}

void ForwardSearch::build_window_list(std::size_t o) {
  // A is one column: the rows nearest to m are a window of that column's sorted order around m, grown to the nearer
  // side, so the list comes out ascending in O(K) (as walk_sorted's windows). Every row outside is at or beyond
  // both ends, so at or beyond the last one kept. D_A is build_list's: add_square(0, x_r, x_m).
  const auto column = x_.column(a_.front());
  const std::size_t m = outer_[o];
  const double centre = column[m];
  const auto square_at = [&](std::size_t k) { return add_square(0.0, column[a_order_[k]], centre); };
  std::size_t lo = a_position_[m], hi = lo + 1;
  std::size_t* rows = list_row_.data() + o * list_rows_;
  double* on_a = list_distance_.data() + o * list_rows_;
  rows[0] = m;
  on_a[0] = square_at(lo);
  for (std::size_t k = 1; k < list_rows_; ++k) {
    const std::size_t at = widen_to_nearer(lo, hi, x_.rows, square_at);
    rows[k] = a_order_[at];
    on_a[k] = square_at(at);
  }
}

void ForwardSearch::build_list(std::size_t o, ListBuffers& b) {
  if (a_.size() == 1) {
    build_window_list(o);
    return;
  }
  const std::size_t n = x_.rows;
  const std::size_t m = outer_[o];
  b.on_a.assign(n, 0.0);  // D_A to every row, summed column by column in A's order (as squared_distance)
  for (const std::size_t j : a_) {
    const auto column = x_.column(j);
    const double centre = column[m];
    for (std::size_t r = 0; r < n; ++r) b.on_a[r] = add_square(b.on_a[r], column[r], centre);
  }
  // The K smallest, ascending by D_A (ties in any order: a walk's result does not depend on it): every row left
  // out is at or beyond the last one kept.
  b.sorted = b.on_a;
  std::nth_element(b.sorted.begin(), b.sorted.begin() + static_cast<std::ptrdiff_t>(list_rows_ - 1), b.sorted.end());
  const double kth = b.sorted[list_rows_ - 1];
  b.kept.clear();
  for (std::size_t r = 0; r < n; ++r)
    if (b.on_a[r] < kth) b.kept.emplace_back(b.on_a[r], r);
  for (std::size_t r = 0; r < n && b.kept.size() < list_rows_; ++r)
    if (b.on_a[r] == kth) b.kept.emplace_back(b.on_a[r], r);
  std::sort(b.kept.begin(), b.kept.end(), [](const auto& l, const auto& r) { return l.first < r.first; });
  for (std::size_t k = 0; k < list_rows_; ++k) {
    list_distance_[o * list_rows_ + k] = b.kept[k].first;
    list_row_[o * list_rows_ + k] = b.kept[k].second;
  }
}

std::size_t default_list_rows(std::size_t rows) {
  return std::max<std::size_t>(128, static_cast<std::size_t>(4.0 * std::sqrt(static_cast<double>(rows))));
}

std::uint64_t ForwardSearch::fallbacks() const {
  return fallbacks_.load(std::memory_order_relaxed);
}

double ForwardSearch::mean_variance(std::size_t candidate, std::vector<std::size_t>* sizes) const {
  if (candidate >= x_.cols || std::binary_search(a_.begin(), a_.end(), candidate))
    throw InternalError("ForwardSearch: candidate " + std::to_string(candidate) + " is in A or out of range");
  if (outer_.empty()) return 0.0;
  std::vector<std::size_t> u = a_;
  u.insert(std::upper_bound(u.begin(), u.end(), candidate), candidate);
  const double total = a_.empty() ? walk_sorted(candidate, sizes) : walk_lists(candidate, u, sizes);
  return total / static_cast<double>(outer_.size());
}

double ForwardSearch::walk_sorted(std::size_t candidate, std::vector<std::size_t>* sizes) const {
  // A = ∅: the distance to m is |x_r − x_m|, so m's neighbourhood is a window of the sorted column around m. Grow it
  // to the nearer side until it holds N_I rows (the squares taken never decrease, so the last is the N_I-th
  // smallest), then take in the rows on either side whose distance, a square root as in the canonical selection,
  // ties the N_I-th's. The squares are knn.hpp's: add_square(0, x_r, x_m) is squared_distance on {candidate}.
  const auto column = x_.column(candidate);
  const std::size_t n = x_.rows;
  const std::vector<std::uint32_t> order = rows_by_value(column);
  const std::vector<std::uint32_t> position = positions_of(order);
  std::vector<std::size_t> rows;
  Scratch scratch;
  double total = 0.0;
  for (const std::size_t m : outer_) {
    const double centre = column[m];
    const auto square_at = [&](std::size_t k) { return add_square(0.0, column[order[k]], centre); };
    std::size_t lo = position[m], hi = lo + 1;  // the window [lo, hi) of the sorted order
    double radius_square = 0.0;
    while (hi - lo < inner_) radius_square = square_at(widen_to_nearer(lo, hi, n, square_at));
    const double radius = std::sqrt(radius_square);
    while (lo > 0 && std::sqrt(square_at(lo - 1)) <= radius) --lo;
    while (hi < n && std::sqrt(square_at(hi)) <= radius) ++hi;
    rows.assign(order.begin() + static_cast<std::ptrdiff_t>(lo), order.begin() + static_cast<std::ptrdiff_t>(hi));
    std::sort(rows.begin(), rows.end());
    total += rows_variance(rows, y_, scratch, sizes);
  }
  return total;
}

double ForwardSearch::walk_lists(std::size_t candidate, std::span<const std::size_t> u,
                                 std::vector<std::size_t>* sizes) const {
  const auto column = x_.column(candidate);
  WalkBuffers b(inner_);
  double total = 0.0;
  for (std::size_t o = 0; o < outer_.size(); ++o) {
    const std::size_t m = outer_[o];
    const double centre = column[m];
    const std::size_t* rows = list_row_.data() + o * list_rows_;
    const double* on_a = list_distance_.data() + o * list_rows_;
    b.walk.reset();
    bool stopped = false;
    for (std::size_t k = 0; k < list_rows_; ++k) {
      if (on_a[k] > b.walk.bound()) {  // this row and every later one: S̃ ≥ D_A > the bound
        stopped = true;
        break;
      }
      b.walk.offer(add_square(on_a[k], column[rows[k]], centre), rows[k]);
    }
    if (!stopped && list_rows_ < x_.rows) {
      // The list ran out with rows still in reach: measure every row (canonically; any exact S̃ will do).
      fallbacks_.fetch_add(1, std::memory_order_relaxed);
      b.walk.reset();
      for (std::size_t r = 0; r < x_.rows; ++r) b.walk.offer(squared_distance(x_, u, r, m), r);
    }
    total += select(x_, y_, u, inner_, m, b, sizes);
  }
  return total;
}

}  // namespace bfs::first::detail
