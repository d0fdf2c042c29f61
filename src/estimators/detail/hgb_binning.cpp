#include "estimators/detail/hgb_binning.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace bfs::hgb {

namespace {

/// The largest float <= value: the midpoint rounded down keeps x <= edge ⇔ x <= midpoint for every float x.
float round_down(double value) {
  auto f = static_cast<float>(value);
  if (static_cast<double>(f) > value) f = std::nextafter(f, -INFINITY);
  return f;
}

/// NumPy's percentile(a, q, method="midpoint") on sorted a: (a[⌊i⌋] + a[⌈i⌉]) / 2 with i = q/100 · (n − 1).
double midpoint_percentile(std::span<const float> sorted, double q) {
  const double position = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(position));
  const auto hi = static_cast<std::size_t>(std::ceil(position));
  return 0.5 * (static_cast<double>(sorted[lo]) + static_cast<double>(sorted[hi]));
}

}  // namespace

std::vector<float> bin_edges(std::span<float> sorted_values, int max_bin) {
  BFS_CHECK(max_bin >= 2 && max_bin <= 255, "hgb: max_bin ", max_bin);
  std::vector<float> edges;
  if (sorted_values.empty()) return edges;
  std::vector<float> distinct;
  distinct.reserve(std::min<std::size_t>(sorted_values.size(), static_cast<std::size_t>(max_bin) + 1));
  for (float v : sorted_values) {
    if (distinct.empty() || v != distinct.back()) {
      distinct.push_back(v);
      if (distinct.size() > static_cast<std::size_t>(max_bin)) break;
    }
  }
  if (distinct.size() <= static_cast<std::size_t>(max_bin)) {
    edges.reserve(distinct.size() - 1);
    for (std::size_t k = 0; k + 1 < distinct.size(); ++k)
      edges.push_back(round_down(0.5 * (static_cast<double>(distinct[k]) + static_cast<double>(distinct[k + 1]))));
    return edges;
  }
  edges.reserve(static_cast<std::size_t>(max_bin) - 1);
  for (int k = 1; k < max_bin; ++k) {
    // np.linspace(0, 100, max_bin + 1)[k]
    const double q = static_cast<double>(k) * (100.0 / static_cast<double>(max_bin));
    edges.push_back(round_down(midpoint_percentile(sorted_values, q)));
  }
  return edges;
}

std::uint8_t code_of(float x, const std::vector<float>& edges) {
  if (std::isnan(x)) return static_cast<std::uint8_t>(edges.size() + 1);
  return static_cast<std::uint8_t>(std::lower_bound(edges.begin(), edges.end(), x) - edges.begin());
}

BinnedColumns bin_columns(const Matrix& X, std::span<const Index> edge_rows, std::span<const Index> rows, int max_bin,
                          int threads) {
  BinnedColumns binned;
  const Index p = X.cols();
  binned.rows = static_cast<Index>(rows.size());
  binned.codes.resize(static_cast<std::size_t>(binned.rows * p));
  binned.edges.resize(static_cast<std::size_t>(p));
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    std::vector<float> values;
    values.reserve(edge_rows.size());
#pragma omp for schedule(static)
    for (Index c = 0; c < p; ++c) {
      values.clear();
      for (Index r : edge_rows) {
        const float x = X(r, c);
        if (!std::isnan(x)) values.push_back(x);
      }
      std::sort(values.begin(), values.end());
      auto& edges = binned.edges[static_cast<std::size_t>(c)];
      edges = bin_edges(values, max_bin);
      std::uint8_t* out = binned.codes.data() + c * binned.rows;
      for (Index k = 0; k < binned.rows; ++k) out[k] = code_of(X(rows[static_cast<std::size_t>(k)], c), edges);
    }
  }
  return binned;
}

}  // namespace bfs::hgb
