#pragma once
// The forest's sorted columns (forest_builder.hpp's layout): each column of a fit's X as (rank, row) entries in the
// order of (value, row), ranks dense over the column's distinct values. Two ways to the same entries:
// - presort(X): sort every column of X (one 64-bit key per entry);
// - from a period's sort (PresortedPeriod, the forest's Estimator::prepare): the bandit fits thousands of arms on
//   the rows and columns of one data batch, so the batch's columns are sorted once and a fit only walks each of its
//   columns in that order, keeping its rows. The sort is ~3% of a fit at friedman1 scale (n = 300, p ≈ 120).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "core/error.hpp"
#include "core/types.hpp"
#include "estimators/detail/forest_simd.hpp"
#include "estimators/estimator.hpp"

namespace bfs::detail::forest {

/// The float's bits mapped to an unsigned integer in the order of the floats, −0 first made +0 (it compares equal
/// to +0, so the two share a rank). Every NaN (a missing cell) maps to the largest key: missing cells sort after
/// every value and share the column's last rank, which is how the builder finds them (forest_builder.hpp).
inline std::uint32_t ordered_bits(float v) {
  if (std::isnan(v)) return 0xFFFFFFFFu;  // above +∞'s key; a NaN's own bits could sort it first (−NaN)
  const auto bits = std::bit_cast<std::uint32_t>(v == 0.0f ? 0.0f : v);
  return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
}

/// Rows 0 .. n − 1 as sorted 64-bit keys: key_of(i) (a column's ordered_bits) above the row, so the order is
/// (value, row), a total order (the result does not depend on the sort), with cheaper comparisons than
/// (float, int) pairs.
template <class KeyOf>
void sort_rows(KeyOf key_of, Index n, std::uint64_t* keys) {
  for (Index i = 0; i < n; ++i) keys[i] = static_cast<std::uint64_t>(key_of(i)) << 32 | static_cast<std::uint64_t>(i);
  std::sort(keys, keys + n);
}

/// Every column of X sorted once, as p segments of n entries.
template <class Idx>
std::vector<Entry<Idx>> presort(const Matrix& X, int threads) {
  const Index n = X.rows(), p = X.cols();
  std::vector<std::uint64_t> keys(static_cast<std::size_t>(n * p));
  std::vector<Entry<Idx>> out(keys.size());
#pragma omp parallel for num_threads(threads) schedule(static)
  for (Index c = 0; c < p; ++c) {
    std::uint64_t* col = keys.data() + c * n;
    sort_rows([&](Index i) { return ordered_bits(X(i, c)); }, n, col);
    Entry<Idx>* dst = out.data() + c * n;
    Idx rank = 0;
    for (Index k = 0; k < n; ++k) {
      if (k > 0 && col[k - 1] >> 32 != col[k] >> 32) ++rank;
      dst[k] = {rank, static_cast<Idx>(col[k] & 0xFFFFFFFFu)};
    }
  }
  return out;
}

/// A batch's columns, each sorted the first time a fit asks for it (an online period may see one fit on a tenth of
/// its columns; an offline batch, thousands of fits): per column, the batch rows in (value, row) order. Built on the
/// loading thread, where it only transposes the batch into ordered_bits keys; sorting a column is thread-safe, so
/// concurrent fits may share the batch.
class PresortedPeriod final : public PreparedData {
 public:
  PresortedPeriod(const Matrix& X, int threads)
      : rows_(X.rows()),
        cols_(X.cols()),
        key_(static_cast<std::size_t>(rows_ * cols_)),
        order_(static_cast<std::size_t>(rows_ * cols_)),
        sorted_(std::make_unique<std::once_flag[]>(static_cast<std::size_t>(cols_))) {
    // Row blocks: each row of the row-major X is read once, in order.
#pragma omp parallel for num_threads(threads) schedule(static)
    for (Index i = 0; i < rows_; ++i)
      for (Index c = 0; c < cols_; ++c) key_[c * rows_ + i] = ordered_bits(X(i, c));
  }
  Index rows() const {
    return rows_;
  }
  Index cols() const {
    return cols_;
  }

  /// presort(X) for X = batch(rows, columns), bit for bit; rows may repeat and come in any order. A run of equal
  /// values held by several batch rows has its fit rows re-sorted (presort orders ties by the fit's row).
  template <class Idx>
  std::vector<Entry<Idx>> select(std::span<const Index> rows, std::span<const FeatureId> columns, int threads) const {
    const auto n = static_cast<Index>(rows.size());
    // A fit's origin names rows and columns of this batch (FitOrigin); anything else is a caller's bug.
    for (const Index r : rows) BFS_CHECK(r >= 0 && r < rows_, "batch row ", r, " of ", rows_);
    for (const FeatureId c : columns) BFS_CHECK(c >= 0 && c < cols_, "batch column ", c, " of ", cols_);
    // The fit rows of each batch row, ascending: bucket b holds fit_rows[start[b] .. start[b + 1]).
    std::vector<std::int32_t> start(static_cast<std::size_t>(rows_) + 1, 0), fit_rows(rows.size());
    for (const Index r : rows) ++start[static_cast<std::size_t>(r) + 1];
    for (Index b = 0; b < rows_; ++b) start[b + 1] += start[b];
    std::vector<std::int32_t> fill(start.begin(), start.end() - 1);
    for (Index i = 0; i < n; ++i) fit_rows[fill[rows[i]]++] = static_cast<std::int32_t>(i);

    std::vector<Entry<Idx>> out(static_cast<std::size_t>(n) * columns.size());
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::size_t j = 0; j < columns.size(); ++j) {
      const std::uint32_t* order = sorted_column(columns[j]);
      const std::uint32_t* key = key_.data() + static_cast<std::size_t>(columns[j]) * rows_;
      Entry<Idx>* at = out.data() + j * static_cast<std::size_t>(n);
      Idx rank = 0;
      for (Index k = 0; k < rows_;) {
        const std::uint32_t value = key[order[k]];
        Entry<Idx>* run_begin = at;
        std::int32_t holders = 0;  // batch rows of the run that are fit rows
        for (; k < rows_ && key[order[k]] == value; ++k) {
          const std::int32_t b0 = start[order[k]], b1 = start[order[k] + 1];
          holders += b0 < b1;
          for (std::int32_t b = b0; b < b1; ++b) *at++ = {rank, static_cast<Idx>(fit_rows[b])};
        }
        if (holders > 1)
          std::sort(run_begin, at, [](const Entry<Idx>& a, const Entry<Idx>& b) { return a.row < b.row; });
        rank += at != run_begin;  // ranks are dense over the values the fit rows hold
      }
    }
    return out;
  }

 private:
  /// Column c's batch rows in (value, row) order, sorted on first use.
  const std::uint32_t* sorted_column(FeatureId c) const {
    std::uint32_t* order = order_.data() + static_cast<std::size_t>(c) * rows_;
    std::call_once(sorted_[c], [&] {
      const std::uint32_t* key = key_.data() + static_cast<std::size_t>(c) * rows_;
      std::vector<std::uint64_t> keys(static_cast<std::size_t>(rows_));
      sort_rows([key](Index i) { return key[i]; }, rows_, keys.data());
      for (Index k = 0; k < rows_; ++k) order[k] = static_cast<std::uint32_t>(keys[k] & 0xFFFFFFFFu);
    });
    return order;
  }

  Index rows_, cols_;
  std::vector<std::uint32_t> key_;            // cols_ segments of rows_: ordered_bits of the batch's values
  mutable std::vector<std::uint32_t> order_;  // cols_ segments: the batch rows in (value, row) order, once sorted
  std::unique_ptr<std::once_flag[]> sorted_;  // one per column: set when its order_ segment is written
};

}  // namespace bfs::detail::forest
