#include "core/rng.hpp"

#include <cmath>

#include "core/detail/splitmix.hpp"
#include "core/error.hpp"

namespace bfs {

std::uint64_t mix64(std::uint64_t x) {
  x += detail::kSplitMixIncrement;
  x = (x ^ (x >> 30)) * detail::kSplitMixMultiplier1;
  x = (x ^ (x >> 27)) * detail::kSplitMixMultiplier2;
  return x ^ (x >> 31);
}

namespace {
constexpr std::uint64_t kSeedSalt = 0x62616e6469746673ULL;  // "banditfs"
constexpr std::uint64_t kPartSalt = 0x632be59bd9b4e019ULL;
}  // namespace

std::uint64_t derive_key(std::uint64_t seed, std::span<const std::uint64_t> parts) {
  std::uint64_t key = mix64(seed ^ kSeedSalt);
  for (std::uint64_t part : parts) key = mix64(key ^ mix64(part + kPartSalt));
  return key;
}

std::uint64_t Rng::stream_prefix(std::uint64_t seed, std::uint64_t round, std::uint64_t slot, Purpose purpose) {
  const std::uint64_t parts[] = {round, slot, static_cast<std::uint64_t>(purpose)};
  return derive_key(seed, parts);
}

std::uint64_t Rng::mixed_feature(std::uint64_t feature) {
  return mix64(feature + kPartSalt);
}

Rng Rng::from_prefix(std::uint64_t prefix, std::uint64_t mixed_feature) {
  return Rng(mix64(prefix ^ mixed_feature));  // derive_key's last step
}

Rng::Rng(std::uint64_t key) {
  // Seed the four words with successive SplitMix64 outputs, the initialisation its authors recommend.
  std::uint64_t x = key;
  for (auto& word : s_) {
    word = mix64(x);  // mix64 adds the SplitMix64 increment itself
    x += detail::kSplitMixIncrement;
  }
  if (s_[0] == 0 && s_[1] == 0 && s_[2] == 0 && s_[3] == 0) s_[0] = 1;
}

Rng Rng::stream(std::uint64_t seed, std::uint64_t round, std::uint64_t slot, Purpose purpose, std::uint64_t feature) {
  const std::uint64_t parts[] = {round, slot, static_cast<std::uint64_t>(purpose), feature};
  return Rng(derive_key(seed, parts));
}

double Rng::normal() {
  for (;;) {
    const double u = 2.0 * uniform() - 1.0;
    const double v = 2.0 * uniform() - 1.0;
    const double s = u * u + v * v;
    if (s > 0.0 && s < 1.0) return u * std::sqrt(-2.0 * std::log(s) / s);
  }
}

double Rng::gamma(double shape) {
  BFS_CHECK(shape > 0.0, "gamma shape ", shape);
  if (shape < 1.0) {
    // Gamma(a) = Gamma(a + 1) * U^{1/a}.
    const double g = gamma(shape + 1.0);
    double u = uniform();
    while (u <= 0.0) u = uniform();
    return g * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0.0;
    double v = 0.0;
    do {
      x = normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = uniform();
    if (u < 1.0 - 0.0331 * x * x * x * x) return d * v;
    if (u > 0.0 && std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return d * v;
  }
}

double Rng::beta(double a, double b) {
  const double x = gamma(a);
  const double y = gamma(b);
  const double sum = x + y;
  if (sum <= 0.0) return a / (a + b);  // both underflowed (tiny shapes): fall back to the mean
  return x / sum;
}

std::vector<std::int64_t> Rng::permutation(std::int64_t n) {
  std::vector<std::int64_t> perm(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) perm[static_cast<std::size_t>(i)] = i;
  shuffle(perm);
  return perm;
}

}  // namespace bfs
