// Rng::normals_from_prefix's kernel for CPUs with AVX2 but not AVX-512 (rng_normals.cpp states the method): four
// streams at a time, the same floats as Rng::normal(). What AVX2 lacks is built from what it has, exactly: the 64-bit
// multiplies of SplitMix64 from three 32×32 → 64 products, and the 53-bit uniforms' conversion to double from two
// exact 26/27-bit halves.
#include <array>
#include <cmath>
#include <cstddef>

#include "core/detail/normal_lanes.hpp"
#include "core/detail/splitmix.hpp"
#include "core/rng.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

namespace bfs::detail {

namespace {

#define BFS_AVX2 __attribute__((target("avx2")))

BFS_AVX2 inline __m256i set1(std::uint64_t x) {
  return _mm256_set1_epi64x(static_cast<long long>(x));
}

/// The low 64 bits of a · b: lo·lo + ((hi·lo + lo·hi) << 32), each product 32 × 32 → 64 bits.
BFS_AVX2 inline __m256i mullo64(__m256i a, std::uint64_t b) {
  const __m256i b_lanes = set1(b), b_high = set1(b >> 32);
  const __m256i low = _mm256_mul_epu32(a, b_lanes);
  const __m256i cross =
      _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b_lanes), _mm256_mul_epu32(a, b_high));
  return _mm256_add_epi64(low, _mm256_slli_epi64(cross, 32));
}

BFS_AVX2 inline __m256i rotl64(__m256i x, int r) {
  return _mm256_or_si256(_mm256_slli_epi64(x, r), _mm256_srli_epi64(x, 64 - r));
}

BFS_AVX2 inline __m256i mix64_lanes(__m256i x) {
  x = _mm256_add_epi64(x, set1(kSplitMixIncrement));
  x = mullo64(_mm256_xor_si256(x, _mm256_srli_epi64(x, 30)), kSplitMixMultiplier1);
  x = mullo64(_mm256_xor_si256(x, _mm256_srli_epi64(x, 27)), kSplitMixMultiplier2);
  return _mm256_xor_si256(x, _mm256_srli_epi64(x, 31));
}

/// v < 2⁵² as a double, exactly: its bits under the exponent of 2⁵², minus 2⁵².
BFS_AVX2 inline __m256d small_to_double(__m256i v) {
  const __m256d two52 = _mm256_set1_pd(0x1.0p52);
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(v, _mm256_castpd_si256(two52))), two52);
}

struct Lanes {
  __m256i s0, s1, s2, s3;
};

/// Rng::uniform() in four lanes: next_u64, then (x >> 11) · 2⁻⁵³ with x >> 11 = high · 2²⁶ + low, all exact.
BFS_AVX2 inline __m256d uniform_lanes(Lanes& st) {
  const __m256i times5 = _mm256_add_epi64(st.s1, _mm256_slli_epi64(st.s1, 2));
  const __m256i rotated = rotl64(times5, 7);
  const __m256i result = _mm256_add_epi64(rotated, _mm256_slli_epi64(rotated, 3));
  const __m256i t = _mm256_slli_epi64(st.s1, 17);
  st.s2 = _mm256_xor_si256(st.s2, st.s0);
  st.s3 = _mm256_xor_si256(st.s3, st.s1);
  st.s1 = _mm256_xor_si256(st.s1, st.s2);
  st.s0 = _mm256_xor_si256(st.s0, st.s3);
  st.s2 = _mm256_xor_si256(st.s2, t);
  st.s3 = rotl64(st.s3, 45);
  const __m256i bits53 = _mm256_srli_epi64(result, 11);
  const __m256d high = small_to_double(_mm256_srli_epi64(bits53, 26));
  const __m256d low = small_to_double(_mm256_and_si256(bits53, set1((std::uint64_t{1} << 26) - 1)));
  const __m256d value = _mm256_add_pd(_mm256_mul_pd(high, _mm256_set1_pd(0x1.0p26)), low);
  return _mm256_mul_pd(value, _mm256_set1_pd(0x1.0p-53));
}

/// log(s) for s in (0, 1), as rng_normals.cpp's eight-lane version (the same series, the same bound).
BFS_AVX2 inline __m256d log_lanes(__m256d s) {
  const __m256i bits = _mm256_castpd_si256(s);
  // The biased exponent (< 2¹¹) as a double, exactly.
  __m256d exponent = _mm256_sub_pd(small_to_double(_mm256_srli_epi64(bits, 52)), _mm256_set1_pd(1023.0));
  __m256d m = _mm256_castsi256_pd(
      _mm256_or_si256(_mm256_and_si256(bits, set1(0x000FFFFFFFFFFFFFULL)), set1(0x3FF0000000000000ULL)));
  const __m256d high = _mm256_cmp_pd(m, _mm256_set1_pd(kSqrt2), _CMP_GT_OQ);
  m = _mm256_blendv_pd(m, _mm256_mul_pd(m, _mm256_set1_pd(0.5)), high);
  exponent = _mm256_blendv_pd(exponent, _mm256_add_pd(exponent, _mm256_set1_pd(1.0)), high);
  const __m256d one = _mm256_set1_pd(1.0);
  const __m256d z = _mm256_div_pd(_mm256_sub_pd(m, one), _mm256_add_pd(m, one));
  const __m256d w = _mm256_mul_pd(z, z);
  __m256d series = _mm256_set1_pd(1.0 / (2 * kLogSeriesTerms - 1));
  for (int k = kLogSeriesTerms - 2; k >= 0; --k)
    series = _mm256_add_pd(_mm256_mul_pd(series, w), _mm256_set1_pd(1.0 / static_cast<double>(2 * k + 1)));
  const __m256d log_m = _mm256_mul_pd(_mm256_add_pd(z, z), series);
  return _mm256_add_pd(_mm256_mul_pd(exponent, _mm256_set1_pd(kLn2)), log_m);
}

}  // namespace

BFS_AVX2 void log_avx2(const double* s, double* out, std::size_t n) {
  for (std::size_t j = 0; j + 4 <= n; j += 4) _mm256_storeu_pd(out + j, log_lanes(_mm256_loadu_pd(s + j)));
}

BFS_AVX2 std::size_t normals_avx2(std::uint64_t prefix, std::span<const std::uint64_t> mixed_features, float* out) {
  const std::size_t n = mixed_features.size() / 4 * 4;
  const __m256i prefix_lanes = set1(prefix), golden = set1(kSplitMixIncrement), zero_int = _mm256_setzero_si256();
  const __m256d one = _mm256_set1_pd(1.0), two = _mm256_set1_pd(2.0), zero = _mm256_setzero_pd();
  for (std::size_t j = 0; j < n; j += 4) {
    const __m256i mixed = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(mixed_features.data() + j));
    const __m256i key = mix64_lanes(_mm256_xor_si256(prefix_lanes, mixed));
    const __m256i key1 = _mm256_add_epi64(key, golden), key2 = _mm256_add_epi64(key1, golden);
    Lanes st{mix64_lanes(key), mix64_lanes(key1), mix64_lanes(key2), mix64_lanes(_mm256_add_epi64(key2, golden))};
    const __m256i all_zero =
        _mm256_cmpeq_epi64(_mm256_or_si256(_mm256_or_si256(st.s0, st.s1), _mm256_or_si256(st.s2, st.s3)), zero_int);
    st.s0 = _mm256_blendv_epi8(st.s0, set1(1), all_zero);  // Rng's constructor: s0 = 1 if all four are 0
    __m256d u_kept = zero, s_kept = _mm256_set1_pd(0.5);
    int pending = 0xF;
    while (pending != 0) {
      const __m256d u = _mm256_sub_pd(_mm256_mul_pd(two, uniform_lanes(st)), one);
      const __m256d v = _mm256_sub_pd(_mm256_mul_pd(two, uniform_lanes(st)), one);
      const __m256d s = _mm256_add_pd(_mm256_mul_pd(u, u), _mm256_mul_pd(v, v));
      const int in_disc =
          _mm256_movemask_pd(_mm256_and_pd(_mm256_cmp_pd(s, zero, _CMP_GT_OQ), _mm256_cmp_pd(s, one, _CMP_LT_OQ)));
      const int accepted = pending & in_disc;
      // Lane l of the mask: all ones where accepted has bit l.
      const __m256d take = _mm256_castsi256_pd(
          _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(accepted), _mm256_setr_epi64x(1, 2, 4, 8)),
                             _mm256_setr_epi64x(1, 2, 4, 8)));
      u_kept = _mm256_blendv_pd(u_kept, u, take);
      s_kept = _mm256_blendv_pd(s_kept, s, take);
      pending &= ~accepted;
    }
    const __m256d q = _mm256_div_pd(_mm256_mul_pd(_mm256_set1_pd(-2.0), log_lanes(s_kept)), s_kept);
    const __m256d y = _mm256_mul_pd(u_kept, _mm256_sqrt_pd(q));
    const __m128 f = _mm256_cvtpd_ps(y);
    const __m128 below = _mm256_cvtpd_ps(_mm256_mul_pd(y, _mm256_set1_pd(1.0 - kNormalGuard)));
    const __m128 above = _mm256_cvtpd_ps(_mm256_mul_pd(y, _mm256_set1_pd(1.0 + kNormalGuard)));
    const __m128i f_bits = _mm_castps_si128(f);
    const int certain = _mm_movemask_ps(_mm_castsi128_ps(_mm_and_si128(
        _mm_cmpeq_epi32(f_bits, _mm_castps_si128(below)), _mm_cmpeq_epi32(f_bits, _mm_castps_si128(above)))));
    _mm_storeu_ps(out + j, f);
    if (certain == 0xF) continue;
    alignas(32) std::array<double, 4> u_lane{}, s_lane{};
    _mm256_store_pd(u_lane.data(), u_kept);
    _mm256_store_pd(s_lane.data(), s_kept);
    for (std::size_t l = 0; l < 4; ++l) {
      if ((certain >> l & 1) == 0)
        out[j + l] = static_cast<float>(u_lane[l] * std::sqrt(-2.0 * std::log(s_lane[l]) / s_lane[l]));
    }
  }
  return n;
}

}  // namespace bfs::detail

#endif
