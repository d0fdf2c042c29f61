#include "methods/first/detail/knn.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nanoflann.hpp>
#include <numeric>
#include <utility>

namespace bfs::first::detail {

namespace {

double brute_force(const Columns& x, std::span<const double> y, std::span<const std::size_t> u, std::size_t inner,
                   std::span<const std::size_t> outer, std::vector<std::size_t>* sizes) {
  const std::size_t n = x.rows;
  std::vector<std::size_t> rows(n);
  std::iota(rows.begin(), rows.end(), std::size_t{0});
  std::vector<double> distance(n);
  Scratch scratch;
  double total = 0.0;
  for (const std::size_t m : outer) {
    std::fill(distance.begin(), distance.end(), 0.0);
    for (const std::size_t j : u) {
      const auto column = x.column(j);
      const double centre = column[m];
      for (std::size_t r = 0; r < n; ++r) distance[r] = add_square(distance[r], column[r], centre);
    }
    // The square root keeps exactly the ties the paper's Euclidean distance has.
    for (double& d : distance) d = std::sqrt(d);
    total += neighbourhood_variance(rows, distance, y, inner, scratch, sizes);
  }
  return total;
}

/// Row-major copy of the columns u: nanoflann's dataset adaptor (kdtree_get_point_count / _pt / _bbox).
struct PointCloud {
  std::size_t dim = 0;
  std::size_t n = 0;
  std::vector<double> values;
  std::size_t kdtree_get_point_count() const { return n; }
  double kdtree_get_pt(std::size_t row, std::size_t d) const { return values[row * dim + d]; }
  template <class Box>
  bool kdtree_get_bbox(Box&) const {
    return false;
  }
};

using KdTree =
    nanoflann::KDTreeSingleIndexAdaptor<nanoflann::L2_Simple_Adaptor<double, PointCloud, double, std::size_t>,
                                        PointCloud, -1, std::size_t>;

/// How far the radius search reaches beyond the bound on the N_I-th squared distance, relative. L2_Simple adds the
/// same terms in the same order as we do, but nanoflann's pruning bounds are updated incrementally down the tree
/// and may overshoot a row's squared distance by some ulps per level (and another metric or compiler may round its
/// sums differently); 1e-9 covers that many times over and costs nothing on lattice data, whose distinct distances
/// are far apart. Rows the widening lets in are filtered out by the exact selection.
constexpr double kRadiusSlack = 1e-9;

double kd_tree(const Columns& x, std::span<const double> y, std::span<const std::size_t> u, std::size_t inner,
               std::span<const std::size_t> outer, std::vector<std::size_t>* sizes) {
  PointCloud cloud;
  cloud.dim = u.size();
  cloud.n = x.rows;
  cloud.values.resize(cloud.n * cloud.dim);
  for (std::size_t d = 0; d < cloud.dim; ++d) {
    const auto column = x.column(u[d]);
    for (std::size_t r = 0; r < cloud.n; ++r) cloud.values[r * cloud.dim + d] = column[r];
  }
  const KdTree tree(static_cast<int>(cloud.dim), cloud, nanoflann::KDTreeSingleIndexAdaptorParams(10));
  std::vector<std::size_t> nearest(inner + 1), rows;
  std::vector<double> nearest_sq(inner + 1), distance;
  std::vector<std::pair<std::size_t, double>> matches;
  const nanoflann::SearchParams unsorted(32, 0.0f, false);
  Scratch scratch;
  double total = 0.0;
  for (const std::size_t m : outer) {
    const double* query = cloud.values.data() + m * cloud.dim;
    // Any N_I rows bound the N_I-th smallest distance from above: take the tree's nearest, measured our way. The
    // tree's N_I + 1-th nearest tells whether a radius search can find more.
    const std::size_t found = tree.knnSearch(query, inner + 1, nearest.data(), nearest_sq.data());
    const std::size_t kept = std::min(found, inner);
    double bound = 0.0;
    for (std::size_t i = 0; i < kept; ++i) bound = std::max(bound, squared_distance(x, u, nearest[i], m));
    // Every row at or below the bound, and a few beyond (the radius test is strict, rounding differs, and a square
    // root may tie rows whose squares differ in the last bit).
    const double reach = std::nextafter(bound * (1.0 + kRadiusSlack), std::numeric_limits<double>::infinity());
    if (found == inner + 1 && nearest_sq[inner] > reach) {
      // The N_I + 1-th nearest is beyond the reach, and so is every row the search did not return (the results
      // are sorted, their squared distances summed as ours are): the first N_I are every row the radius search
      // would keep. Continuous data takes this path for almost every row; ties take the radius search.
      rows.assign(nearest.begin(), nearest.begin() + static_cast<std::ptrdiff_t>(inner));
    } else {
      tree.radiusSearch(query, reach, matches, unsorted);
      rows.resize(matches.size());
      for (std::size_t i = 0; i < matches.size(); ++i) rows[i] = matches[i].first;
    }
    std::sort(rows.begin(), rows.end());
    distance.resize(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) distance[i] = std::sqrt(squared_distance(x, u, rows[i], m));
    total += neighbourhood_variance(rows, distance, y, inner, scratch, sizes);
  }
  return total;
}

}  // namespace

double squared_distance(const Columns& x, std::span<const std::size_t> u, std::size_t r, std::size_t m) {
  double sum = 0.0;
  for (const std::size_t j : u) {
    const auto column = x.column(j);
    sum = add_square(sum, column[r], column[m]);
  }
  return sum;
}

double neighbourhood_variance(std::span<const std::size_t> rows, std::span<const double> distance,
                              std::span<const double> y, std::size_t inner, Scratch& scratch,
                              std::vector<std::size_t>* sizes) {
  scratch.sorted.assign(distance.begin(), distance.end());
  std::nth_element(scratch.sorted.begin(), scratch.sorted.begin() + static_cast<std::ptrdiff_t>(inner - 1),
                   scratch.sorted.end());
  const double radius = scratch.sorted[inner - 1];
  scratch.kept.clear();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (distance[i] <= radius) scratch.kept.push_back(rows[i]);
  return rows_variance(scratch.kept, y, scratch, sizes);
}

double rows_variance(std::span<const std::size_t> rows, std::span<const double> y, Scratch& scratch,
                     std::vector<std::size_t>* sizes) {
  scratch.neighbours.clear();
  for (const std::size_t row : rows) scratch.neighbours.push_back(y[row]);
  if (sizes) sizes->push_back(rows.size());
  return sample_variance(scratch.neighbours);
}

double sample_variance(std::span<const double> values) {
  if (values.size() < 2) return 0.0;
  if (values.size() == 2) {
    // The common neighbourhood (N_I = 2, no ties), without the divisions: sum · 0.5 and the sum of squares are the
    // same correctly rounded doubles as sum / 2 and (sum of squares) / 1, so nothing changes by a bit.
    const double mean = (0.0 + values[0] + values[1]) * 0.5;
    return (0.0 + (values[0] - mean) * (values[0] - mean)) + (values[1] - mean) * (values[1] - mean);
  }
  double sum = 0.0;
  for (double v : values) sum += v;
  const double mean = sum / static_cast<double>(values.size());
  double squares = 0.0;
  for (double v : values) squares += (v - mean) * (v - mean);
  return squares / static_cast<double>(values.size() - 1);
}

double mean_neighbourhood_variance(const Columns& x, std::span<const double> y, std::span<const std::size_t> u,
                                   std::size_t inner, std::span<const std::size_t> outer, NeighbourSearch search,
                                   std::vector<std::size_t>* sizes) {
  if (outer.empty()) return 0.0;
  if (search == NeighbourSearch::automatic)
    search = u.size() <= kKdTreeMaxColumns ? NeighbourSearch::kd_tree : NeighbourSearch::brute_force;
  if (u.empty()) search = NeighbourSearch::brute_force;  // every row at distance 0: a tree of no dimension is moot
  const double total = search == NeighbourSearch::kd_tree ? kd_tree(x, y, u, inner, outer, sizes)
                                                          : brute_force(x, y, u, inner, outer, sizes);
  return total / static_cast<double>(outer.size());
}

}  // namespace bfs::first::detail
