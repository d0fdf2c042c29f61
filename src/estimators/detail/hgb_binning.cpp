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

/// order_key's inverse: the float itself (−0 stays −0).
float from_order_key(std::uint32_t key) {
  return std::bit_cast<float>((key & 0x80000000u) != 0 ? key & 0x7FFFFFFFu : ~key);
}

/// Buffers of one thread's column binning. An entry is (order key << 32) | row, so one 8-byte move sorts both.
struct ColumnScratch {
  std::vector<std::uint64_t> entries, entries_tmp;
  std::vector<float> sorted;
  std::array<std::array<std::uint32_t, 2048>, 3> count{};  ///< radix_sort's digit counts, one array per pass
};

/// LSD radix sort of the entries by their key, in three passes of 11, 11 and 10 bits whose counts come from one read
/// of the keys; a pass where every key has the same digit is skipped. A column of a few thousand values sorts in
/// about ten microseconds, a comparison sort in hundreds. (Ties may end in any order: codes and edges depend only on
/// the values.)
void radix_sort(ColumnScratch& s, std::size_t n) {
  constexpr int kPasses = 3;
  constexpr std::array<int, kPasses> kShift{32, 43, 54};
  constexpr std::uint64_t kDigitMask = 0x7FF;  // 11 bits; the last pass's digit has 10
  auto& count = s.count;
  for (auto& c : count) c.fill(0);
  const std::uint64_t* in = s.entries.data();
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t e = in[i];
    ++count[0][(e >> kShift[0]) & kDigitMask];
    ++count[1][(e >> kShift[1]) & kDigitMask];
    ++count[2][e >> kShift[2]];
  }
  s.entries_tmp.resize(n);
  for (int pass = 0; pass < kPasses; ++pass) {
    auto& c = count[static_cast<std::size_t>(pass)];
    const int shift = kShift[static_cast<std::size_t>(pass)];
    if (c[(s.entries[0] >> shift) & kDigitMask] == n) continue;  // every key has this digit
    std::uint32_t total = 0;
    for (auto& bucket : c) {
      const std::uint32_t here = bucket;
      bucket = total;
      total += here;
    }
    const std::uint64_t* from = s.entries.data();
    std::uint64_t* to = s.entries_tmp.data();
    for (std::size_t i = 0; i < n; ++i) to[c[(from[i] >> shift) & kDigitMask]++] = from[i];
    s.entries.swap(s.entries_tmp);
  }
}

/// Edges of one column and the codes of its values (values[k] → codes[k]), NaN included.
void bin_column(std::span<const float> values, int max_bin, ColumnScratch& s, std::uint8_t* codes,
                std::vector<float>& edges) {
  s.entries.resize(values.size());
  std::size_t n = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    s.entries[n] = static_cast<std::uint64_t>(order_key(values[k])) << 32 | k;
    n += std::isnan(values[k]) ? 0 : 1;
  }
  if (n > 0) radix_sort(s, n);
  s.sorted.resize(n);
  for (std::size_t k = 0; k < n; ++k) s.sorted[k] = from_order_key(static_cast<std::uint32_t>(s.entries[k] >> 32));
  edges = bin_edges(s.sorted, max_bin);
  const auto nan_code = static_cast<std::uint8_t>(edges.size() + 1);
  std::fill(codes, codes + values.size(), nan_code);  // overwritten for every non-NaN value
  std::size_t code = 0;  // = the number of edges below the current value: values ascend, so it only grows
  for (std::size_t k = 0; k < n; ++k) {
    while (code < edges.size() && edges[code] < s.sorted[k]) ++code;
    codes[static_cast<std::uint32_t>(s.entries[k])] = static_cast<std::uint8_t>(code);
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
  constexpr Index kBlock = 16;  // one cache line of a row
  constexpr std::size_t kPrefetchRows = 48;
  const Index blocks = (p + kBlock - 1) / kBlock;
#pragma omp parallel num_threads(threads) if (threads > 1)
  {
    ColumnScratch scratch;
    std::vector<float> columns(static_cast<std::size_t>(kBlock) * rows.size());
#pragma omp for schedule(dynamic, 1)
    for (Index block = 0; block < blocks; ++block) {
      const Index first = block * kBlock, width = std::min(kBlock, p - first);
      for (std::size_t r = 0; r < rows.size(); ++r) {
        // Rows are a page or more apart, beyond the hardware prefetcher's reach: ask for a row well ahead.
        if (r + kPrefetchRows < rows.size()) __builtin_prefetch(X.data() + rows[r + kPrefetchRows] * p + first);
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
