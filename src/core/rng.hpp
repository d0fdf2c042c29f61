#pragma once
// Deterministic random streams (docs/design.md §1). Every draw in banditfs comes from a stream derived from
// (run seed, round, arm slot, purpose[, feature]) — never from a rank or thread id — so results are bit-identical
// for any number of ranks, groups or threads, and a resumed run equals an uninterrupted one.
//
// The generator is xoshiro256** (Blackman & Vigna); stream keys are mixed with SplitMix64. The distributions are
// our own (not <random>'s) because libstdc++ and libc++ do not promise the same sequences for std::*_distribution.
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

namespace bfs {

/// What a stream is used for; part of the stream key so two purposes never share draws.
enum class Purpose : std::uint64_t {
  PolicyFirst = 1,   ///< θ draws for the first super-arm S
  PolicySecond = 2,  ///< θ' draws for TTTS's second super-arm (and the coin)
  Cap = 3,           ///< max_features uniform subset
  Split = 4,         ///< train/test split of an evaluation
  Bootstrap = 5,     ///< bootstrap resample of the training rows
  Fit = 6,           ///< the estimator's own randomness
  Permutation = 7,   ///< permutation importance (one stream per feature)
  Reward = 8,        ///< Bernoulli rewards
  Simulate = 9,      ///< simulated data sets (batch k: round k; the forest DGP's trees: round 0, feature 2^40)
  Noise = 10,        ///< on-the-fly noise features
  Shuffle = 11,      ///< re-batching passes
  Tuning = 12,       ///< hyper-parameter tuning: k-fold assignment (feature 0) and CV fit seeds (feature 1)
  Search = 13,       ///< a tree search's descent (FUSE: round = iteration)
  Subsample = 14,    ///< a fresh validation subsample (FUSE's reward)
  Shadow =
      15,  ///< shadow features: the bandit's reward.null = "shadow" (round, slot = the evaluation), FUSE's and
           ///< cmab-scores' select = "shadow" (round 0, slot 0); which features (feature 2^40) and each row shuffle
  Knockoff = 16,   ///< data.knockoffs: the Gaussian draw of a loaded row's knockoffs (round = period, slot = row)
  Stability = 17,  ///< stability selection: pair b's split of period k's rows (round = b, slot = k, feature 0) and
                   ///< the seed of run i of the 2B (round = i, slot 0, feature 1)
};

/// SplitMix64 finaliser: a bijective 64-bit mixer.
std::uint64_t mix64(std::uint64_t x);
/// Folds the parts into one 64-bit stream key.
std::uint64_t derive_key(std::uint64_t seed, std::span<const std::uint64_t> parts);

/// xoshiro256** with the distributions banditfs needs.
class Rng {
 public:
  explicit Rng(std::uint64_t key);
  /// The stream for (seed, round, slot, purpose, feature).
  static Rng stream(std::uint64_t seed, std::uint64_t round, std::uint64_t slot, Purpose purpose,
                    std::uint64_t feature = 0);

  /// stream() split in two for loops over many features of one (seed, round, slot, purpose): the key of the first
  /// four parts, the mixed feature (the same for every prefix), and the stream of their combination. The result is
  /// stream(seed, round, slot, purpose, feature), bit for bit, at a third of the mixing cost.
  static std::uint64_t stream_prefix(std::uint64_t seed, std::uint64_t round, std::uint64_t slot, Purpose purpose);
  static std::uint64_t mixed_feature(std::uint64_t feature);
  static Rng from_prefix(std::uint64_t prefix, std::uint64_t mixed_feature);
  /// out[j] = float(from_prefix(prefix, mixed_features[j]).normal()) for every j, the same numbers, computed eight
  /// streams at a time in AVX-512 registers where the CPU has them, four at a time otherwise (rng_normals.cpp; the
  /// noise columns: 25 M draws a period).
  static void normals_from_prefix(std::uint64_t prefix, std::span<const std::uint64_t> mixed_features, float* out);

  // next_u64, uniform and uniform_int are defined here, inline: hot loops (the forest's per-node column draws,
  // permutations) draw one number at a time, and an out-of-line call per draw cost a tenth of a forest fit.
  std::uint64_t next_u64() {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [0, n), unbiased (Lemire's method). n > 0 (n = 0 returns 0).
  std::uint64_t uniform_int(std::uint64_t n) {
    __extension__ using u128 = unsigned __int128;  // 64×64→128 multiply
    u128 m = static_cast<u128>(next_u64()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) [[unlikely]] {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<u128>(next_u64()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }
  /// Standard normal (Marsaglia polar method, no cached spare so the stream state is the whole state).
  double normal();
  /// Gamma(shape, 1), shape > 0 (Marsaglia & Tsang 2000; shape < 1 boosted by U^{1/shape}).
  double gamma(double shape);
  /// Beta(a, b) = X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b).
  double beta(double a, double b);
  /// Bernoulli(p).
  bool bernoulli(double p) { return uniform() < p; }

  /// Fisher–Yates shuffle in place.
  template <class T>
  void shuffle(std::vector<T>& values) {
    for (std::size_t i = values.size(); i > 1; --i) {
      std::size_t j = uniform_int(i);
      std::swap(values[i - 1], values[j]);
    }
  }
  /// A uniformly random permutation of 0..n-1.
  std::vector<std::int64_t> permutation(std::int64_t n);

 private:
  std::array<std::uint64_t, 4> s_{};
};

}  // namespace bfs
