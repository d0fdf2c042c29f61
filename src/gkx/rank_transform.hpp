#pragma once
// The cross-sectional transforms of Gu, Kelly & Xiu (2020, §2.1 / Internet Appendix): each month, every
// characteristic is ranked across stocks and the ranks mapped into [-1, 1]; missing values become 0, the median in
// rank space; the two-digit SIC code becomes one-hot industry dummies. Pure functions on one month's column.
#include <cstdint>
#include <span>
#include <vector>

namespace bfs::gkx {

/// Rank transform of one month's values of one characteristic. `values` may hold NaN (missing). With N the number
/// of non-missing values and r_i the average rank (1-based; ties share the mean of the ranks they span) of value i,
///     out_i = 2 r_i / (N + 1) - 1          (the formula of the authors' code; symmetric around 0, inside (-1, 1))
/// and out_i = 0 for a missing value. Fewer than two non-missing values ⇒ every output is 0. out.size() must equal
/// values.size(); out may alias values. Returns N.
std::size_t rank_to_unit_interval(std::span<const float> values, std::span<float> out);

/// Code marking a missing SIC code in `one_hot`.
inline constexpr std::int32_t kMissingCode = -1;

/// The distinct non-missing codes of `codes`, sorted ascending (the one-hot levels).
std::vector<std::int32_t> distinct_codes(std::span<const std::int32_t> codes);

/// One-hot encoding: for row i, out[i * stride + k] = 1 when codes[i] == levels[k], else 0 (k < levels.size());
/// a missing code (kMissingCode) gives an all-zero row. `levels` must be sorted; a code absent from `levels` is an
/// InternalError (the caller collects the levels first).
void one_hot(std::span<const std::int32_t> codes, std::span<const std::int32_t> levels, float* out, std::size_t stride);

}  // namespace bfs::gkx
