#pragma once
// The noise columns' normal draws several streams at a time in vector registers (rng_normals.cpp: eight in AVX-512,
// rng_normals_avx2.cpp: four in AVX2), with the same floats as Rng::normal() stream by stream. Exposed here for the
// unit test, which checks every vector path against the portable one and the vector logarithm's accuracy.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

namespace bfs::detail {

/// Relative half-width of the interval whose ends must round to a lane's float for the lane to keep it
/// (rng_normals.cpp's header comment).
inline constexpr double kNormalGuard = 0x1.0p-36;

/// The vector logarithm both kernels use (rng_normals.cpp's log_lanes states it): s = 2^e·m, m reduced to [√½, √2),
/// log m = 2·atanh(z) = 2z·Σ_{k=0..kLogSeriesTerms−1} z^{2k}/(2k + 1), log s = e·ln 2 + log m.
inline constexpr double kSqrt2 = 1.4142135623730951;
inline constexpr double kLn2 = 0.6931471805599453;
inline constexpr int kLogSeriesTerms = 11;  ///< to z²¹: truncation below 2⁻⁵⁶ for |z| <= 0.1716

/// The widest vector path Rng::normals_from_prefix may take: 8 (AVX-512), 4 (AVX2) or 0 (portable). The unit test
/// lowers it to compare the paths; the CPU may allow less.
inline std::atomic<int> vector_normals_limit{8};
inline void set_vector_normals_limit(int lanes) {
  vector_normals_limit.store(lanes, std::memory_order_relaxed);
}
/// The lanes of the path that runs here: the CPU's widest (AVX-512 F + DQ: 8, AVX2: 4, else 0) within the limit.
int vector_normals_width();

/// log(s) for s in (0, 1) with the path of vector_normals_width() (std::log at 0), within a few units in the last
/// place; for the unit test, which checks the error bound the vector paths rely on. n is a multiple of 8.
void vector_log_for_test(const double* s, double* out, std::size_t n);

#if defined(__x86_64__) && defined(__GNUC__)
/// rng_normals_avx2.cpp: columns [0, 4·⌊n/4⌋) of a row; returns where the portable path takes over. AVX2 CPUs only.
std::size_t normals_avx2(std::uint64_t prefix, std::span<const std::uint64_t> mixed_features, float* out);
void log_avx2(const double* s, double* out, std::size_t n);
#endif

}  // namespace bfs::detail
