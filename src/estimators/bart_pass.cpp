// The pass over all rows between two BART tree updates (detail/bart_lanes.hpp): the one loop of the sampler that
// touches every row for every tree, hence its own AVX-512 path. Why it is written by hand: the leaf values of a tree
// with ≤ 16 node ids fit in two registers, so a permute replaces a gather, and the lane sums of up to 16 leaves stay
// in registers as masked adds; the compiler does neither.
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <utility>

#include "estimators/detail/bart_lanes.hpp"

namespace bfs::bart {

namespace {

constexpr std::size_t kMaxTableNodes = 16;  // two zmm registers of leaf values
constexpr std::size_t kMaxSimdLeaves = 16;  // lane sums kept in registers
constexpr __mmask8 kAllLanes = 0xFF;

/// Whether the CPU runs the AVX-512 paths (asked once; the scalar paths give the same bits either way).
bool has_avx512() {
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}

void advance_scalar(std::size_t begin, std::span<double> residual, std::span<const std::int32_t> leaf_now,
                    std::span<const double> mu_now, std::span<const std::int32_t> leaf_next,
                    std::span<const double> mu_next, std::span<double> lane_sums) {
  for (std::size_t i = begin; i < residual.size(); ++i) {
    const auto next = static_cast<std::size_t>(leaf_next[i]);
    const double r = (residual[i] - mu_now[static_cast<std::size_t>(leaf_now[i])]) + mu_next[next];
    residual[i] = r;
    lane_sums[next * kLanes + lane_of(i)] += r;
  }
}

/// Leaf values of up to 16 nodes as two registers (unused slots 0).
__attribute__((target("avx512f"))) void load_table(std::span<const double> mu, __m512d& low, __m512d& high) {
  alignas(64) double table[kMaxTableNodes] = {};
  std::copy(mu.begin(), mu.end(), table);
  low = _mm512_load_pd(table);
  high = _mm512_load_pd(table + kLanes);
}

/// μ[ids] for eight rows: a permute of two registers when the tree has at most 16 node ids, a gather otherwise.
struct LeafValues {
  __m512d low, high;
  std::span<const double> mu;
  bool in_registers;
  __attribute__((target("avx512f"))) explicit LeafValues(std::span<const double> values)
      : low(), high(), mu(values), in_registers(values.size() <= kMaxTableNodes) {
    if (in_registers) load_table(values, low, high);
  }
  [[nodiscard]] __attribute__((target("avx512f"))) __m512d of(__m256i ids) const {
    // The masked forms with every lane set: the plain ones start from an undefined register GCC 12 warns about.
    if (in_registers) return _mm512_permutex2var_pd(low, _mm512_maskz_cvtepi32_epi64(kAllLanes, ids), high);
    return _mm512_mask_i32gather_pd(_mm512_setzero_pd(), kAllLanes, ids, mu.data(), sizeof(double));
  }
};

/// Rows 0…8⌊n/8⌋ − 1, eight at a time, for a next tree of kLeaves leaves (a constant, so that the sums are
/// registers); returns the first row left to the scalar loop.
template <std::size_t kLeaves>
__attribute__((target("avx512f"))) std::size_t advance_avx512(
    std::span<double> residual, std::span<const std::int32_t> leaf_now, std::span<const double> mu_now,
    std::span<const std::int32_t> leaf_next, std::span<const double> mu_next, std::span<const std::int32_t> leaves_next,
    std::span<double> lane_sums) {
  const LeafValues now_values(mu_now), next_values(mu_next);
  __m512d sums[kLeaves];  // NOLINT(*-avoid-c-arrays): std::array drops the vector types' alignment attributes
  __m512i ids[kLeaves];   // NOLINT(*-avoid-c-arrays)
  for (std::size_t k = 0; k < kLeaves; ++k) {
    sums[k] = _mm512_setzero_pd();
    ids[k] = _mm512_set1_epi32(leaves_next[k]);
  }
  const std::size_t end = residual.size() / kLanes * kLanes;
  for (std::size_t i = 0; i < end; i += kLanes) {
    const __m256i now = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&leaf_now[i]));
    const __m256i next = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&leaf_next[i]));
    __m512d r = _mm512_loadu_pd(&residual[i]);
    r = _mm512_add_pd(_mm512_sub_pd(r, now_values.of(now)), next_values.of(next));
    _mm512_storeu_pd(&residual[i], r);
    const __m512i next_wide = _mm512_castsi256_si512(next);
    for (std::size_t k = 0; k < kLeaves; ++k) {
      const auto mine = static_cast<__mmask8>(_mm512_cmpeq_epi32_mask(next_wide, ids[k]));  // the low 8 ids only
      sums[k] = _mm512_mask_add_pd(sums[k], mine, sums[k], r);
    }
  }
  for (std::size_t k = 0; k < kLeaves; ++k)
    _mm512_storeu_pd(&lane_sums[static_cast<std::size_t>(leaves_next[k]) * kLanes], sums[k]);
  return end;
}

using AdvanceKernel = std::size_t (*)(std::span<double>, std::span<const std::int32_t>, std::span<const double>,
                                      std::span<const std::int32_t>, std::span<const double>,
                                      std::span<const std::int32_t>, std::span<double>);
/// advance_avx512<L> for L = 1…kMaxSimdLeaves, indexed by L − 1.
template <std::size_t... L>
constexpr std::array<AdvanceKernel, sizeof...(L)> kernels(std::index_sequence<L...>) {
  return {&advance_avx512<L + 1>...};
}
constexpr auto kAdvanceKernels = kernels(std::make_index_sequence<kMaxSimdLeaves>());

/// fit_i = (y_i − r_i) + μ[leaf_i] for rows 0…8⌊n/8⌋ − 1; returns the first row left to the scalar loop.
__attribute__((target("avx512f"))) std::size_t forest_fit_avx512(std::span<const double> y,
                                                                 std::span<const double> residual,
                                                                 std::span<const std::int32_t> leaf,
                                                                 std::span<const double> mu, std::span<double> fit) {
  const LeafValues values(mu);
  const std::size_t end = residual.size() / kLanes * kLanes;
  for (std::size_t i = 0; i < end; i += kLanes) {
    const __m256i ids = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&leaf[i]));
    const __m512d difference = _mm512_sub_pd(_mm512_loadu_pd(&y[i]), _mm512_loadu_pd(&residual[i]));
    _mm512_storeu_pd(&fit[i], _mm512_add_pd(difference, values.of(ids)));
  }
  return end;
}

}  // namespace

void forest_fit(std::span<const double> y, std::span<const double> residual, std::span<const std::int32_t> leaf,
                std::span<const double> mu, std::span<double> fit, bool allow_simd) {
  const std::size_t begin = allow_simd && has_avx512() ? forest_fit_avx512(y, residual, leaf, mu, fit) : 0;
  for (std::size_t i = begin; i < residual.size(); ++i)
    fit[i] = (y[i] - residual[i]) + mu[static_cast<std::size_t>(leaf[i])];
}

void advance_residual(std::span<double> residual, std::span<const std::int32_t> leaf_now,
                      std::span<const double> mu_now, std::span<const std::int32_t> leaf_next,
                      std::span<const double> mu_next, std::span<const std::int32_t> leaves_next,
                      std::span<double> lane_sums, bool allow_simd) {
  std::fill(lane_sums.begin(), lane_sums.end(), 0.0);
  std::size_t begin = 0;
  if (allow_simd && has_avx512() && !leaves_next.empty() && leaves_next.size() <= kMaxSimdLeaves)
    begin =
        kAdvanceKernels[leaves_next.size() - 1](residual, leaf_now, mu_now, leaf_next, mu_next, leaves_next, lane_sums);
  advance_scalar(begin, residual, leaf_now, mu_now, leaf_next, mu_next, lane_sums);
}

}  // namespace bfs::bart
