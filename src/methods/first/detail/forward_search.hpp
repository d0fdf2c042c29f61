#pragma once
// FIRST's forward step, searched once per step instead of once per candidate.
//
// A forward step ([FIRST Alg. 3 line 4, eq. 15]) estimates T̂(A ∪ {i}) for every candidate i with the same
// set A and the same outer rows. The squared distance on A ∪ {i} is the one on A plus candidate i's own term, so:
//  * once per step, each outer row m keeps the K rows nearest to it on A, ascending by their squared distance D_A;
//  * for a candidate, m's neighbours are found by walking that list with S̃ = D_A + (x_i[r] − x_i[m])², and the walk
//    stops at the first row whose D_A alone exceeds the N_I-th smallest S̃ seen: every row after it, listed or not,
//    is farther (adding a square never lowers a double). A list that runs out before that falls back to every row.
//  * With A = ∅ (the first step) the distance is one column's: m's neighbourhood is a window of the candidate's
//    sorted column around m, grown to the nearer side (exact, no widening needed).
//
// Exact, bit for bit: S̃ adds A's terms before the candidate's, where the canonical sum (knn.hpp's
// squared_distance) adds the columns of A ∪ {i} in ascending order. Both are sums of the same |A| + 1 non-negative
// doubles, so each lies within |A| + 1 roundings of the real sum, and S̃ ≤ S̃_(N_I)·(1 + kSlack) keeps every row
// the canonical selection can keep (kSlack = 1e-10 covers |A| far beyond kForwardSearchMaxColumns, and a square root's
// ties). The kept rows are then measured canonically and selected by neighbourhood_variance, exactly as the kd-tree and
// brute-force paths do, and the outer rows are summed in the same order: T̂ is the same double as
// mean_neighbourhood_variance's (tested against brute force on lattice ties and continuous data).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "methods/first/detail/knn.hpp"

namespace bfs::first::detail {

/// Past this many columns in A ∪ {i} the slack's bound on rounding no longer holds by a wide margin: callers use
/// mean_neighbourhood_variance instead.
inline constexpr std::size_t kForwardSearchMaxColumns = 4096;

/// Rows kept per outer row on A when the caller does not say (all rows when there are fewer): 128, or 4·√N when
/// that is more. A walk needs a few dozen rows on friedman-mod at N = 1000, and more, like √N, when A is one column
/// (rows in a band of the A column); a list that runs out costs a pass over every row.
std::size_t default_list_rows(std::size_t rows);

/// The most memory a step's lists may take (16 bytes a listed row): 256 MiB, about N = N_O = 25 000.
inline constexpr std::size_t kForwardListBytes = std::size_t{256} << 20;

/// Whether a step's shared lists repay themselves: building them costs every outer row a pass over all N rows
/// (a few ns a row), a candidate's walk then ~0.1 µs an outer row, against ~1 µs for a kd-tree search of its own.
/// So the lists pay from about N/90 candidates, and from ~12 at N = 1000 (measured on friedman-mod, docs/first.md);
/// the rule asks for N/64 and at least 16, and for lists within kForwardListBytes. Either way gives the same T̂;
/// only the time (and the memory) differs.
inline bool forward_search_pays(std::size_t candidates, std::size_t rows, std::size_t outer) {
  return candidates >= 16 && candidates * 64 >= rows && outer * default_list_rows(rows) * 16 <= kForwardListBytes;
}

class ForwardSearch {
 public:
  /// A's lists for the outer rows `outer` (ascending or not: T̂ sums them in this order), built on `threads` threads,
  /// `list_rows` rows each (0 = default_list_rows).
  /// `a` is the forward set (any order; sorted here). x and y must outlive the search.
  ForwardSearch(const Columns& x, std::span<const double> y, std::vector<std::size_t> a, std::size_t inner,
                std::vector<std::size_t> outer, int threads = 1, std::size_t list_rows = 0);

  /// T̂(A ∪ {candidate}) over the outer rows: the same double as mean_neighbourhood_variance(x, y, A ∪ {candidate},
  /// inner, outer). `candidate` must not be in A. `sizes` receives each outer row's neighbourhood size.
  double mean_variance(std::size_t candidate, std::vector<std::size_t>* sizes = nullptr) const;

  /// How many (outer row, candidate) walks ran out of list and took every row, since construction (for tuning).
  std::uint64_t fallbacks() const;

 private:
  /// Buffers one task reuses across the outer rows whose lists it builds.
  struct ListBuffers {
    std::vector<double> on_a, sorted;
    std::vector<std::pair<double, std::size_t>> kept;
  };
  /// Outer row o's list: its K nearest rows on A and their D_A.
  void build_list(std::size_t o, ListBuffers& buffers);
  /// build_list when A is one column: a window of its sorted order.
  void build_window_list(std::size_t o);
  double walk_sorted(std::size_t candidate, std::vector<std::size_t>* sizes) const;
  double walk_lists(std::size_t candidate, std::span<const std::size_t> u, std::vector<std::size_t>* sizes) const;

  const Columns& x_;
  std::span<const double> y_;
  std::vector<std::size_t> a_;  ///< A, ascending
  std::size_t inner_;
  std::vector<std::size_t> outer_;
  std::size_t list_rows_;                  ///< K: rows per list (0 when A = ∅)
  std::vector<std::size_t> list_row_;      ///< outer_.size() × K rows, each list ascending by D_A
  std::vector<double> list_distance_;      ///< their D_A
  std::vector<std::uint32_t> a_order_;     ///< when |A| = 1: the rows in ascending (value, row) order of A's column
  std::vector<std::uint32_t> a_position_;  ///< … and each row's place in that order
  mutable std::atomic<std::uint64_t> fallbacks_{0};
};

}  // namespace bfs::first::detail
