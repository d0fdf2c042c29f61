#include "methods/first/detail/knn.hpp"

#include <algorithm>
#include <cmath>

namespace bfs::first::detail {

double sample_variance(std::span<const double> values) {
  if (values.size() < 2) return 0.0;
  double sum = 0.0;
  for (double v : values) sum += v;
  const double mean = sum / static_cast<double>(values.size());
  double squares = 0.0;
  for (double v : values) squares += (v - mean) * (v - mean);
  return squares / static_cast<double>(values.size() - 1);
}

double mean_neighbourhood_variance(const Columns& x, std::span<const double> y, std::span<const std::size_t> u,
                                   std::size_t inner, std::span<const std::size_t> outer,
                                   std::vector<double>& scratch) {
  const std::size_t n = x.rows;
  std::vector<double> distance(n);
  std::vector<double> neighbours;
  double total = 0.0;
  for (const std::size_t m : outer) {
    std::fill(distance.begin(), distance.end(), 0.0);
    for (const std::size_t j : u) {
      const auto column = x.column(j);
      const double centre = column[m];
      for (std::size_t r = 0; r < n; ++r) {
        const double d = column[r] - centre;
        distance[r] += d * d;
      }
    }
    // Euclidean distances (the square root keeps exactly the ties the paper's distance has), then the N_I-th
    // smallest (row m's own 0 included) and every row at or below it, in row order.
    for (double& d : distance) d = std::sqrt(d);
    scratch.assign(distance.begin(), distance.end());
    std::nth_element(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(inner - 1), scratch.end());
    const double radius = scratch[inner - 1];
    neighbours.clear();
    for (std::size_t r = 0; r < n; ++r)
      if (distance[r] <= radius) neighbours.push_back(y[r]);
    total += sample_variance(neighbours);
  }
  return outer.empty() ? 0.0 : total / static_cast<double>(outer.size());
}

}  // namespace bfs::first::detail
