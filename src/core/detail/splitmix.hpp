#pragma once
// SplitMix64's constants (Steele, Lea & Flood), declared once: the scalar mix64 and Rng seeding (rng.cpp) and the
// vector kernels that do the same in lanes (rng_normals.cpp, rng_normals_avx2.cpp) must agree bit for bit.
#include <cstdint>

namespace bfs::detail {

inline constexpr std::uint64_t kSplitMixIncrement = 0x9e3779b97f4a7c15ULL;    ///< the golden-ratio step
inline constexpr std::uint64_t kSplitMixMultiplier1 = 0xbf58476d1ce4e5b9ULL;  ///< after x ^= x >> 30
inline constexpr std::uint64_t kSplitMixMultiplier2 = 0x94d049bb133111ebULL;  ///< after x ^= x >> 27

}  // namespace bfs::detail
