// Rng::normals_from_prefix: a period's noise columns (25 M draws a month at the empirical study's scale), each entry
// from its own stream and bit for bit Rng::normal()'s value (loading a month must hide behind the
// rounds, and the result must not change by a bit).
//
// The AVX-512 path runs eight streams at once (rng_normals_avx2.cpp four, on CPUs with AVX2 only): SplitMix64 seeding
// and xoshiro256** are integer operations that a vector lane does exactly as the scalar code; u, v, s = u² + v², the
// division and the square root are IEEE operations with one rounding each (no FMA: -ffp-contract=off), so they match
// too. Only the logarithm differs: glibc's log is not available in vector form with the same bits, so the lanes use
// their own (atanh series, a few units in the last place) and a lane keeps its float only when it is certain: when y·(1
// − detail::kNormalGuard) and y·(1 + detail::kNormalGuard) round to the same float as y. The exact y (with glibc's log)
// is within a relative 2⁻⁴⁸ of the lane's, far inside that interval, and rounding is monotone, so it rounds to the same
// float. About one lane in 4 000 fails the test and recomputes y with std::log. Rejected attempts (s ∉ (0, 1), one in
// five) repeat in the lanes, as normal()'s loop does.
#include <array>
#include <cmath>
#include <cstddef>

#include "core/detail/normal_lanes.hpp"
#include "core/detail/splitmix.hpp"
#include "core/rng.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
// GCC 12's AVX-512 shift intrinsics start from _mm512_undefined_epi32(), which -Wmaybe-uninitialized reports.
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#define BFS_NORMALS_AVX512 1
#endif

namespace bfs {

namespace {

/// The portable path: four streams at a time, so their independent work overlaps in the CPU.
void normals_portable(std::uint64_t prefix, std::span<const std::uint64_t> mixed_features, float* out,
                      std::size_t first) {
  constexpr std::size_t kLanes = 4;
  const std::size_t n = mixed_features.size();
  std::size_t j = first;
  for (; j + kLanes <= n; j += kLanes) {
    std::array<Rng, kLanes> lanes{
        Rng::from_prefix(prefix, mixed_features[j]), Rng::from_prefix(prefix, mixed_features[j + 1]),
        Rng::from_prefix(prefix, mixed_features[j + 2]), Rng::from_prefix(prefix, mixed_features[j + 3])};
    std::array<double, kLanes> u{}, v{}, s{};
    for (std::size_t l = 0; l < kLanes; ++l) {
      u[l] = 2.0 * lanes[l].uniform() - 1.0;
      v[l] = 2.0 * lanes[l].uniform() - 1.0;
      s[l] = u[l] * u[l] + v[l] * v[l];
    }
    for (std::size_t l = 0; l < kLanes; ++l) {
      const bool accepted = s[l] > 0.0 && s[l] < 1.0;
      out[j + l] = static_cast<float>(accepted ? u[l] * std::sqrt(-2.0 * std::log(s[l]) / s[l]) : lanes[l].normal());
    }
  }
  for (; j < n; ++j) out[j] = static_cast<float>(Rng::from_prefix(prefix, mixed_features[j]).normal());
}

#ifdef BFS_NORMALS_AVX512
#define BFS_AVX512 __attribute__((target("avx512f,avx512dq")))

/// mix64 (SplitMix64's finaliser with its increment) in eight lanes.
BFS_AVX512 inline __m512i mix64_lanes(__m512i x) {
  x = _mm512_add_epi64(x, _mm512_set1_epi64(static_cast<long long>(detail::kSplitMixIncrement)));
  x = _mm512_mullo_epi64(_mm512_xor_si512(x, _mm512_srli_epi64(x, 30)),
                         _mm512_set1_epi64(static_cast<long long>(detail::kSplitMixMultiplier1)));
  x = _mm512_mullo_epi64(_mm512_xor_si512(x, _mm512_srli_epi64(x, 27)),
                         _mm512_set1_epi64(static_cast<long long>(detail::kSplitMixMultiplier2)));
  return _mm512_xor_si512(x, _mm512_srli_epi64(x, 31));
}

/// xoshiro256** state of eight streams, one register per state word.
struct Lanes {
  __m512i s0, s1, s2, s3;
};

/// Rng::uniform() in eight lanes: next_u64 (×5 and ×9 as shifts and adds), then (x >> 11) · 2⁻⁵³, exact.
BFS_AVX512 inline __m512d uniform_lanes(Lanes& st) {
  const __m512i times5 = _mm512_add_epi64(st.s1, _mm512_slli_epi64(st.s1, 2));
  const __m512i rotated = _mm512_rol_epi64(times5, 7);
  const __m512i result = _mm512_add_epi64(rotated, _mm512_slli_epi64(rotated, 3));
  const __m512i t = _mm512_slli_epi64(st.s1, 17);
  st.s2 = _mm512_xor_si512(st.s2, st.s0);
  st.s3 = _mm512_xor_si512(st.s3, st.s1);
  st.s1 = _mm512_xor_si512(st.s1, st.s2);
  st.s0 = _mm512_xor_si512(st.s0, st.s3);
  st.s2 = _mm512_xor_si512(st.s2, t);
  st.s3 = _mm512_rol_epi64(st.s3, 45);
  return _mm512_mul_pd(_mm512_cvtepu64_pd(_mm512_srli_epi64(result, 11)), _mm512_set1_pd(0x1.0p-53));
}

/// log(s) for s in (0, 1) (normal doubles): s = 2^e·m with m in [√½, √2), log m = 2·atanh(z), z = (m − 1)/(m + 1),
/// |z| <= 0.1716, by its series to z²¹ (truncation below 2⁻⁵⁶). A few roundings: within ~2⁻⁵⁰ relative.
BFS_AVX512 inline __m512d log_lanes(__m512d s) {
  const __m512i bits = _mm512_castpd_si512(s);
  __m512i exponent = _mm512_sub_epi64(_mm512_srli_epi64(bits, 52), _mm512_set1_epi64(1023));
  __m512d m = _mm512_castsi512_pd(_mm512_or_si512(_mm512_and_si512(bits, _mm512_set1_epi64(0x000FFFFFFFFFFFFFLL)),
                                                  _mm512_set1_epi64(0x3FF0000000000000LL)));
  const __mmask8 high = _mm512_cmp_pd_mask(m, _mm512_set1_pd(detail::kSqrt2), _CMP_GT_OQ);
  m = _mm512_mask_mul_pd(m, high, m, _mm512_set1_pd(0.5));
  exponent = _mm512_mask_add_epi64(exponent, high, exponent, _mm512_set1_epi64(1));
  const __m512d one = _mm512_set1_pd(1.0);
  const __m512d z = _mm512_div_pd(_mm512_sub_pd(m, one), _mm512_add_pd(m, one));
  const __m512d w = _mm512_mul_pd(z, z);
  __m512d series = _mm512_set1_pd(1.0 / (2 * detail::kLogSeriesTerms - 1));
  for (int k = detail::kLogSeriesTerms - 2; k >= 0; --k)
    series = _mm512_add_pd(_mm512_mul_pd(series, w), _mm512_set1_pd(1.0 / static_cast<double>(2 * k + 1)));
  const __m512d log_m = _mm512_mul_pd(_mm512_add_pd(z, z), series);
  const __m512d e_ln2 = _mm512_mul_pd(_mm512_cvtepi64_pd(exponent), _mm512_set1_pd(detail::kLn2));
  return _mm512_add_pd(e_ln2, log_m);
}

BFS_AVX512 void log_avx512(const double* s, double* out, std::size_t n) {
  for (std::size_t j = 0; j + 8 <= n; j += 8) _mm512_storeu_pd(out + j, log_lanes(_mm512_loadu_pd(s + j)));
}

/// Columns [0, 8·⌊n/8⌋) of a row; returns where the portable path takes over.
BFS_AVX512 std::size_t normals_avx512(std::uint64_t prefix, std::span<const std::uint64_t> mixed_features, float* out) {
  const std::size_t n = mixed_features.size() / 8 * 8;
  const __m512i prefix_lanes = _mm512_set1_epi64(static_cast<long long>(prefix));
  const __m512i golden = _mm512_set1_epi64(static_cast<long long>(detail::kSplitMixIncrement));
  const __m512d one = _mm512_set1_pd(1.0), two = _mm512_set1_pd(2.0), zero = _mm512_setzero_pd();
  for (std::size_t j = 0; j < n; j += 8) {
    // Rng(key): word k = mix64(key + k·golden), and s0 = 1 if all four are 0; from_prefix: key = mix64(prefix ^ mixed).
    const __m512i key = mix64_lanes(_mm512_xor_si512(prefix_lanes, _mm512_loadu_si512(mixed_features.data() + j)));
    const __m512i key1 = _mm512_add_epi64(key, golden), key2 = _mm512_add_epi64(key1, golden);
    Lanes st{mix64_lanes(key), mix64_lanes(key1), mix64_lanes(key2), mix64_lanes(_mm512_add_epi64(key2, golden))};
    const __mmask8 all_zero = _mm512_testn_epi64_mask(
        _mm512_or_si512(_mm512_or_si512(st.s0, st.s1), _mm512_or_si512(st.s2, st.s3)), _mm512_set1_epi64(-1));
    st.s0 = _mm512_mask_mov_epi64(st.s0, all_zero, _mm512_set1_epi64(1));
    // normal()'s loop in every lane until each has an accepted (u, s); a lane that is done keeps drawing, unused.
    __m512d u_kept = zero, s_kept = _mm512_set1_pd(0.5);
    __mmask8 pending = 0xFF;
    while (pending != 0) {
      const __m512d u = _mm512_sub_pd(_mm512_mul_pd(two, uniform_lanes(st)), one);
      const __m512d v = _mm512_sub_pd(_mm512_mul_pd(two, uniform_lanes(st)), one);
      const __m512d s = _mm512_add_pd(_mm512_mul_pd(u, u), _mm512_mul_pd(v, v));
      const auto accepted = static_cast<__mmask8>(pending & _mm512_cmp_pd_mask(s, zero, _CMP_GT_OQ) &
                                                  _mm512_cmp_pd_mask(s, one, _CMP_LT_OQ));
      u_kept = _mm512_mask_mov_pd(u_kept, accepted, u);
      s_kept = _mm512_mask_mov_pd(s_kept, accepted, s);
      pending = static_cast<__mmask8>(pending & ~accepted);
    }
    const __m512d q = _mm512_div_pd(_mm512_mul_pd(_mm512_set1_pd(-2.0), log_lanes(s_kept)), s_kept);
    const __m512d y = _mm512_mul_pd(u_kept, _mm512_sqrt_pd(q));
    const __m256 f = _mm512_cvtpd_ps(y);
    const __m256 below = _mm512_cvtpd_ps(_mm512_mul_pd(y, _mm512_set1_pd(1.0 - detail::kNormalGuard)));
    const __m256 above = _mm512_cvtpd_ps(_mm512_mul_pd(y, _mm512_set1_pd(1.0 + detail::kNormalGuard)));
    const __m256i f_bits = _mm256_castps_si256(f);
    const auto certain = static_cast<unsigned>(_mm256_movemask_ps(
        _mm256_castsi256_ps(_mm256_and_si256(_mm256_cmpeq_epi32(f_bits, _mm256_castps_si256(below)),
                                             _mm256_cmpeq_epi32(f_bits, _mm256_castps_si256(above))))));
    _mm256_storeu_ps(out + j, f);
    if (certain == 0xFFu) continue;
    // One lane in a few thousand: y with glibc's log, as normal() computes it.
    alignas(64) std::array<double, 8> u_lane{}, s_lane{};
    _mm512_store_pd(u_lane.data(), u_kept);
    _mm512_store_pd(s_lane.data(), s_kept);
    for (std::size_t l = 0; l < 8; ++l) {
      if ((certain >> l & 1u) == 0)
        out[j + l] = static_cast<float>(u_lane[l] * std::sqrt(-2.0 * std::log(s_lane[l]) / s_lane[l]));
    }
  }
  return n;
}
#endif

}  // namespace

namespace detail {

int vector_normals_width() {
#ifdef BFS_NORMALS_AVX512
  static const int cpu = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? 8
                         : __builtin_cpu_supports("avx2")                                        ? 4
                                                                                                 : 0;
  const int limit = vector_normals_limit.load(std::memory_order_relaxed);
  return cpu <= limit ? cpu : (limit >= 4 && cpu >= 4 ? 4 : 0);
#else
  return 0;
#endif
}

void vector_log_for_test(const double* s, double* out, std::size_t n) {
#ifdef BFS_NORMALS_AVX512
  if (vector_normals_width() == 8) return log_avx512(s, out, n);
  if (vector_normals_width() == 4) return log_avx2(s, out, n);
#endif
  for (std::size_t j = 0; j < n; ++j) out[j] = std::log(s[j]);
}

}  // namespace detail

void Rng::normals_from_prefix(std::uint64_t prefix, std::span<const std::uint64_t> mixed_features, float* out) {
  std::size_t done = 0;
#ifdef BFS_NORMALS_AVX512
  const int width = detail::vector_normals_width();
  if (width == 8) done = normals_avx512(prefix, mixed_features, out);
  if (width == 4) done = detail::normals_avx2(prefix, mixed_features, out);
#endif
  normals_portable(prefix, mixed_features, out, done);
}

}  // namespace bfs
