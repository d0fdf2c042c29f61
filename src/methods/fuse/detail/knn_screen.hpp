#pragma once
// The exact k nearest neighbours behind FUSE's reward (reward.hpp), found through a single-precision screen.
//
// The definition: the distance of a training row x to a query row z is the double sum of (x_f − z_f)² over F in
// ascending column order, and the k nearest are the k smallest by (distance, row), leave-one-out. Computing that
// distance for every row costs three double operations and a dependent addition per row × column × query.
// Instead, a float screen in the ‖x‖² − 2x·z form (one multiply-add on sixteen float lanes per row × column ×
// query) gives every row a rough distance w̃, up to the query's constant ‖z‖². The k-th smallest w̃ bounds the k-th
// best exact distance from above by B; a row whose w̃ proves D > B cannot be among the k nearest; only the rows left
// (about k of the 2080 of a madelon fold) get the exact distance, offered in ascending row order. So the result is
// the definition's, bit for bit, whatever the CPU, the clone or the compiler's contraction does to the screen.
//
// The bound (u = 2⁻²⁴, m = |F|, γ = (m + 4)·u; x̂, ẑ the float roundings; D = ‖x − z‖², D' = ‖x̂ − ẑ‖²; M ≥ ‖x̂‖²
// of every row; N = ‖ẑ‖²): the screen computes w̃ = fl(ñ_x − 2·d̃), ñ_x and d̃ float sums of m products (any order,
// fused or not), so |w̃ + N − D'| ≤ E = 2γ·(M + N)/(1 − γ) (Higham, Accuracy and Stability, §3.1); rounding the
// inputs moves √D by at most δ = u·(√M + √N)/(1 − γ). Hence a row's D ≤ (√(w̃ + N + E) + δ)², which gives B from
// the k-th smallest w̃; and D ≤ B requires w̃ ≤ (√B + δ)² + E − N, the limit, rounded up to a float. B is raised by
// 4(m + 2)·2⁻⁵³ relative for the double sum's own rounding (and N's); small absolute terms cover float underflow. Data
// too large for floats (|x| ≥ 10¹⁵, or ‖x̂‖² ≥ 10³⁰) turns the screen off: then every row gets the exact distance.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace bfs::fuse {
struct TrainingSet;
}

namespace bfs::fuse::detail {

/// The training data rounded to floats, column-major, each column padded with zeros to whole tiles of 16 rows.
struct RoundedColumns {
  std::size_t stride = 0;  ///< rows per column, padded
  std::vector<float> values;
  double largest = 0.0;  ///< max |x| (NaN if any value is NaN)
};

RoundedColumns round_columns(const TrainingSet& data);

/// For each validation row z (in order): the number of positives among its k nearest training rows on the sorted
/// columns `cols`, leave-one-out. k must be below data.rows.
std::vector<std::int32_t> nearest_positives(const TrainingSet& data, const RoundedColumns& rounded,
                                            std::span<const std::int32_t> cols, std::span<const std::size_t> validation,
                                            std::size_t k);

}  // namespace bfs::fuse::detail
