#pragma once
// The nearest-neighbour step of FIRST's estimator ([FIRST eq. 10, Appendix C]): for an outer row m, the rows
// within the N_I-th smallest Euclidean distance to row m on the columns u — row m itself included, and every row
// tied at that distance too (no random tie-break) — and the sample variance (divisor s − 1) of their y's.
//
// Two exact searches give the same neighbourhoods, bit for bit:
//  * brute force: every row's squared distance, accumulated column by column in u's order;
//  * a kd-tree (nanoflann, the §3.3 remark "K-d tree (Bentley, 1975) can be employed") for |u| ≤ kKdTreeMaxColumns:
//    knnSearch bounds the N_I-th distance, a slightly widened radiusSearch collects every row that can be within
//    it, and the candidates' distances are recomputed with the brute-force formula before the same selection. So
//    ties on lattice data fall the same way in both paths, whatever nanoflann's own rounding.
// The y's of a neighbourhood are summed in ascending row order and the outer rows in the given order, so neither
// the path, the threads nor the ranks change a bit of T̂.
#include <cstddef>
#include <span>
#include <vector>

#include "methods/common/column_major.hpp"

namespace bfs::first::detail {

/// The standardised data FIRST estimates on (methods::standardise of methods::column_major).
using Columns = methods::ColumnMajor;

/// Up to this many columns T̂(u) searches with a kd-tree (built once per call); above it, brute force (a kd-tree's
/// pruning fades with the dimension).
inline constexpr std::size_t kKdTreeMaxColumns = 16;

/// Which exact search finds the neighbourhoods; `automatic` = kd-tree up to kKdTreeMaxColumns columns.
enum class NeighbourSearch { automatic, brute_force, kd_tree };

/// T̂(u) restricted to the outer rows `outer` (eq. 10 with Appendix C's tie rule): the mean over m ∈ outer of the
/// sample variance of y over m's neighbourhood on the columns `u` (ascending; none = every row). When `sizes` is given
/// it receives each outer row's neighbourhood size, in `outer`'s order (for tests).
double mean_neighbourhood_variance(const Columns& x, std::span<const double> y, std::span<const std::size_t> u,
                                   std::size_t inner, std::span<const std::size_t> outer,
                                   NeighbourSearch search = NeighbourSearch::automatic,
                                   std::vector<std::size_t>* sizes = nullptr);

/// Sample variance with divisor n − 1 (two passes, in order); 0 for fewer than two values.
double sample_variance(std::span<const double> values);

// The pieces every exact search shares, so that each finds the same neighbourhoods bit for bit.

/// One column's term of a squared distance, added to the sum so far. Every search adds the columns of u in order,
/// from 0, with this one expression, so a row's distance is the same double in each.
inline double add_square(double sum, double a, double b) {
  const double d = a - b;
  return sum + d * d;
}

/// Row r's squared distance to row m on the columns u, the terms (x_j[r] − x_j[m])² added in u's order from 0: the
/// one formula every search's final selection measures with.
double squared_distance(const Columns& x, std::span<const std::size_t> u, std::size_t r, std::size_t m);

/// Buffers one search reuses across its outer rows.
struct Scratch {
  std::vector<double> sorted;
  std::vector<std::size_t> kept;
  std::vector<double> neighbours;
};

/// The sample variance of y over a whole neighbourhood `rows` (ascending, so the y's are summed in row order),
/// through scratch.neighbours; appends its size to `sizes` when given. Every search ends here.
double rows_variance(std::span<const std::size_t> rows, std::span<const double> y, Scratch& scratch,
                     std::vector<std::size_t>* sizes);

/// The Appendix C selection: `rows` (ascending) with their Euclidean distances `distance` to the outer row; the N_I-th
/// smallest distance (the outer row's own 0 included) and every row at or below it; the sample variance of their
/// y's in row order. `rows` must hold every row at or below that N_I-th smallest distance. Appends the
/// neighbourhood's size to `sizes` when given.
double neighbourhood_variance(std::span<const std::size_t> rows, std::span<const double> distance,
                              std::span<const double> y, std::size_t inner, Scratch& scratch,
                              std::vector<std::size_t>* sizes);

}  // namespace bfs::first::detail
