// BART's residual sums by lanes, the pass over all rows between two tree updates, and the forest's fit from a
// residual (bart_pass.cpp).
//
// A leaf's residual sum is defined lane by lane: lane l sums the leaf's rows i ≡ l (mod kLanes) in row order, and
// the lanes are added pairwise (lane_total). A plain row-order sum is one chain of dependent additions; eight lanes
// are eight independent chains, and a vector of eight rows i…i+7 (i ≡ 0 mod 8) holds one row of each lane. Every
// sum of a leaf, in a move or in the pass, is this one, so a sum never depends on how it was reached.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace bfs::bart {

inline constexpr std::size_t kLanes = 8;
using LaneSums = std::array<double, kLanes>;

inline double lane_total(const double* lanes) {
  return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
}
inline std::size_t lane_of(std::size_t row) {
  return row % kLanes;
}

/// After tree `now`'s update, per row i: r_i ← (r_i − μ_now[leaf_now_i]) + μ_next[leaf_next_i], the next tree's
/// residual y − (the other trees); and lane_sums[id·kLanes + l], zeroed first, the lane sums of the next tree's
/// nodes (mu_next.size() ids; rows point only at `leaves_next`, the next tree's leaves). `allow_simd` = false takes the
/// scalar loop, which the AVX-512 one equals bit for bit (same operations, same order per lane): a test hook.
void advance_residual(std::span<double> residual, std::span<const std::int32_t> leaf_now,
                      std::span<const double> mu_now, std::span<const std::int32_t> leaf_next,
                      std::span<const double> mu_next, std::span<const std::int32_t> leaves_next,
                      std::span<double> lane_sums, bool allow_simd = true);

/// The forest's fit per row from the first tree's residual r = y − (the other trees): fit = (y − r) + μ[leaf]. The
/// AVX-512 path equals the scalar loop bit for bit; `allow_simd` = false is the test hook.
void forest_fit(std::span<const double> y, std::span<const double> residual, std::span<const std::int32_t> leaf,
                std::span<const double> mu, std::span<double> fit, bool allow_simd = true);

}  // namespace bfs::bart
