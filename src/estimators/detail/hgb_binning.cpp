#include "estimators/detail/hgb_binning.hpp"

#include <algorithm>
#include <array>
#include <bit>
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

namespace {

/// The unsigned key that orders floats as < does (−0 before +0, which compare equal and so share a code).
std::uint32_t order_key(float x) {
  const auto bits = std::bit_cast<std::uint32_t>(x);
  return (bits & 0x80000000u) != 0 ? ~bits : bits | 0x80000000u;
}

/// Buffers of one thread's column binning.
struct ColumnScratch {
  std::vector<std::uint32_t> keys, rows, keys_tmp, rows_tmp;
  std::vector<float> sorted;
};

/// LSD radix sort of (key, row) pairs by key, 8 bits a pass; a pass where every key has the same byte is skipped.
/// A column of a few thousand values sorts in tens of microseconds, a comparison sort in hundreds.
void radix_sort(ColumnScratch& s) {
  const std::size_t n = s.keys.size();
  s.keys_tmp.resize(n);
  s.rows_tmp.resize(n);
  for (int shift = 0; shift < 32; shift += 8) {
    std::array<std::uint32_t, 257> count{};
    for (std::uint32_t k : s.keys) ++count[((k >> shift) & 0xFFu) + 1];
    if (std::any_of(count.begin() + 1, count.end(), [n](std::uint32_t c) { return c == n; })) continue;
    for (std::size_t b = 1; b < count.size(); ++b) count[b] += count[b - 1];
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t slot = count[(s.keys[i] >> shift) & 0xFFu]++;
      s.keys_tmp[slot] = s.keys[i];
      s.rows_tmp[slot] = s.rows[i];
    }
    s.keys.swap(s.keys_tmp);
    s.rows.swap(s.rows_tmp);
  }
}

/// Edges of one column and the codes of its values (values[k] → codes[k]), NaN included.
void bin_column(std::span<const float> values, int max_bin, ColumnScratch& s, std::uint8_t* codes,
                std::vector<float>& edges) {
  s.keys.clear();
  s.rows.clear();
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (std::isnan(values[k])) continue;
    s.keys.push_back(order_key(values[k]));
    s.rows.push_back(static_cast<std::uint32_t>(k));
  }
  radix_sort(s);
  s.sorted.resize(s.rows.size());
  for (std::size_t k = 0; k < s.rows.size(); ++k) s.sorted[k] = values[s.rows[k]];
  edges = bin_edges(s.sorted, max_bin);
  const auto nan_code = static_cast<std::uint8_t>(edges.size() + 1);
  for (std::size_t k = 0; k < values.size(); ++k) codes[k] = nan_code;  // overwritten for every non-NaN value
  std::size_t code = 0;  // = the number of edges below the current value: values ascend, so it only grows
  for (std::size_t k = 0; k < s.rows.size(); ++k) {
    while (code < edges.size() && edges[code] < s.sorted[k]) ++code;
    codes[s.rows[k]] = static_cast<std::uint8_t>(code);
  }
}

}  // namespace

BinnedColumns bin_rows(const Matrix& X, std::span<const Index> rows, int max_bin, int threads) {
  BinnedColumns binned;
  const Index p = X.cols();
  binned.rows = static_cast<Index>(rows.size());
  binned.codes.resize(static_cast<std::size_t>(binned.rows * p));
  binned.edges.resize(static_cast<std::size_t>(p));
  // Columns in blocks: each row's block of a row-major X is one contiguous read, transposed into column buffers.
  constexpr Index kBlock = 16;
  const Index blocks = (p + kBlock - 1) / kBlock;
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    ColumnScratch scratch;
    std::vector<float> columns(static_cast<std::size_t>(kBlock) * rows.size());
#pragma omp for schedule(dynamic, 1)
    for (Index block = 0; block < blocks; ++block) {
      const Index first = block * kBlock, width = std::min(kBlock, p - first);
      for (std::size_t r = 0; r < rows.size(); ++r) {
        const float* row = X.data() + rows[r] * p + first;
        for (Index c = 0; c < width; ++c) columns[static_cast<std::size_t>(c) * rows.size() + r] = row[c];
      }
      for (Index c = 0; c < width; ++c) {
        const std::span<const float> values(columns.data() + static_cast<std::size_t>(c) * rows.size(), rows.size());
        bin_column(values, max_bin, scratch, binned.codes.data() + (first + c) * binned.rows,
                   binned.edges[static_cast<std::size_t>(first + c)]);
      }
    }
  }
  return binned;
}

BinnedColumns select_binned(const BinnedColumns& binned, std::span<const Index> rows,
                            std::span<const FeatureId> columns) {
  BinnedColumns out;
  out.rows = static_cast<Index>(rows.size());
  out.codes.resize(rows.size() * columns.size());
  out.edges.reserve(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    BFS_CHECK(columns[c] >= 0 && columns[c] < binned.cols(), "hgb: column ", columns[c], " of ", binned.cols());
    const std::uint8_t* source = binned.column(columns[c]);
    std::uint8_t* target = out.codes.data() + c * rows.size();
    for (std::size_t r = 0; r < rows.size(); ++r) target[r] = source[rows[r]];
    out.edges.push_back(binned.edges[static_cast<std::size_t>(columns[c])]);
  }
  return out;
}

}  // namespace bfs::hgb
