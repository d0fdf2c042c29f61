#pragma once
// The nearest-neighbour step of FIRST's estimator (paper 002 eq. 10, Appendix C): for an outer row m, the rows
// within the N_I-th smallest Euclidean distance to row m on the columns u — row m itself included, and every row
// tied at that distance too (no random tie-break) — and the sample variance (divisor s − 1) of their y's.
//
// Exact brute force: squared distances are accumulated column by column in a fixed order and compared exactly, so
// the neighbourhoods — and every sum, taken in row order — do not depend on threads or ranks. (A kd-tree for few
// columns is issue 13's; it must give the same neighbourhoods.)
#include <cstddef>
#include <span>
#include <vector>

namespace bfs::first::detail {

/// Column-major standardised data: column j is values[j * rows, (j + 1) * rows).
struct Columns {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::vector<double> values;
  std::span<const double> column(std::size_t j) const { return {values.data() + j * rows, rows}; }
};

/// T̂(u) restricted to the outer rows `outer`: the mean over m ∈ outer of the sample variance of y over m's
/// neighbourhood on the columns `u`. `scratch` holds n distances (reused between calls).
double mean_neighbourhood_variance(const Columns& x, std::span<const double> y, std::span<const std::size_t> u,
                                   std::size_t inner, std::span<const std::size_t> outer, std::vector<double>& scratch);

/// Sample variance with divisor n − 1 (two passes, in order); 0 for fewer than two values.
double sample_variance(std::span<const double> values);

}  // namespace bfs::first::detail
