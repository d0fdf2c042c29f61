#pragma once
// The forest builder's portable split scans (forest_builder.hpp states the scheme): one column, scalar (the
// reference), and four columns side by side in SSE2 lanes, whose candidates the builder replays in column order.
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "estimators/detail/forest_simd.hpp"

namespace bfs::detail::forest {

/// One column, scalar: the reference scan. proxy = num / den is compared as num > best·den to keep divisions off
/// the hot loop; it is computed at every position and the cut (next value larger) tested with it, because
/// branching on the cut alone mispredicted about once per cut.
template <class Idx>
void scan_column(const Entry<Idx>* col, std::int32_t feature, const ScanRange& r, const RowStat* stat, Split& best,
                 int row_shift) {
  double w_left = 0.0, wy_left = 0.0;
  for (std::int32_t i = r.begin; i < r.first; ++i) {
    w_left += stat[col[i].row >> row_shift].w;
    wy_left += stat[col[i].row >> row_shift].wy;
  }
  for (std::int32_t i = r.first; i <= r.last; ++i) {
    const RowStat s = stat[col[i].row >> row_shift];
    w_left += s.w;
    wy_left += s.wy;
    const double w_right = r.w_sum - w_left, wy_right = r.wy_sum - wy_left;
    const double num = wy_left * wy_left * w_right + wy_right * wy_right * w_left;
    const double den = w_left * w_right;
    const bool cut = col[i].rank < col[i + 1].rank;
    if (cut & (num > best.proxy * den)) [[unlikely]]
      best = {feature, i, num / den, false};
  }
}

/// Two doubles side by side (one SSE2 register, the x86-64 baseline); the lanes scan runs two pairs.
using Pair = double __attribute__((vector_size(16)));
using PairMask = std::int64_t __attribute__((vector_size(16)));

/// Bit l set when lane l of the comparison holds (movmskpd: one instruction instead of two extractions).
inline int lane_bits(PairMask mask) {
#if defined(__SSE2__)
  return _mm_movemask_pd(reinterpret_cast<__m128d>(mask));
#else
  return static_cast<int>((mask[0] & 1) | (mask[1] & 2));
#endif
}

/// kLanes columns side by side, each lane the scalar scan's arithmetic on its column; every cut position whose
/// candidate beats `threshold` (the best before these columns) is appended to its lane's list
/// (events[l·stride + counts[l]]).
template <class Idx>
[[gnu::always_inline]] inline void scan_lanes(const Entry<Idx>* const* cols, const ScanRange& r, const RowStat* stat,
                                              double threshold, Candidate* events, std::int32_t stride,
                                              std::int32_t* counts) {
  const Entry<Idx>*c0 = cols[0], *c1 = cols[1], *c2 = cols[2], *c3 = cols[3];
  Pair w_a{}, wy_a{}, w_b{}, wy_b{};  // running left sums: lanes 0, 1 (a) and 2, 3 (b)
  const auto add = [&](std::int32_t i) {
    const RowStat s0 = stat[c0[i].row], s1 = stat[c1[i].row], s2 = stat[c2[i].row], s3 = stat[c3[i].row];
    w_a += Pair{s0.w, s1.w};
    wy_a += Pair{s0.wy, s1.wy};
    w_b += Pair{s2.w, s3.w};
    wy_b += Pair{s2.wy, s3.wy};
  };
  for (std::int32_t i = r.begin; i < r.first; ++i) add(i);
  for (std::int32_t i = r.first; i <= r.last; ++i) {
    add(i);
    const Pair w_ra = r.w_sum - w_a, wy_ra = r.wy_sum - wy_a, w_rb = r.w_sum - w_b, wy_rb = r.wy_sum - wy_b;
    const Pair num_a = wy_a * wy_a * w_ra + wy_ra * wy_ra * w_a, den_a = w_a * w_ra;
    const Pair num_b = wy_b * wy_b * w_rb + wy_rb * wy_rb * w_b, den_b = w_b * w_rb;
    const int hit = lane_bits(num_a > threshold * den_a) | lane_bits(num_b > threshold * den_b) << 2;
    if (hit != 0) [[unlikely]] {
      const double num[kLanes] = {num_a[0], num_a[1], num_b[0], num_b[1]};
      const double den[kLanes] = {den_a[0], den_a[1], den_b[0], den_b[1]};
      for (int l = 0; l < kLanes; ++l) {
        if ((hit >> l & 1) && cols[l][i].rank < cols[l][i + 1].rank)
          events[l * stride + counts[l]++] = {i, num[l], den[l]};
      }
    }
  }
}

}  // namespace bfs::detail::forest
