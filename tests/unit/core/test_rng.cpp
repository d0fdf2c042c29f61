#include <bit>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "core/detail/normal_lanes.hpp"
#include "core/rng.hpp"

using namespace bfs;

BOOST_AUTO_TEST_CASE(streams_are_reproducible_and_distinct) {
  Rng a = Rng::stream(7, 3, 0, Purpose::Split);
  Rng b = Rng::stream(7, 3, 0, Purpose::Split);
  Rng c = Rng::stream(7, 3, 0, Purpose::Bootstrap);
  Rng d = Rng::stream(7, 4, 0, Purpose::Split);
  for (int i = 0; i < 100; ++i) BOOST_TEST(a.next_u64() == b.next_u64());
  BOOST_TEST(Rng::stream(7, 3, 0, Purpose::Split).next_u64() != c.next_u64());
  BOOST_TEST(Rng::stream(7, 3, 0, Purpose::Split).next_u64() != d.next_u64());
}

BOOST_AUTO_TEST_CASE(a_stream_from_its_prefix_is_the_stream) {
  // The split derivation (data's noise columns use it) gives exactly Rng::stream's draws.
  for (std::uint64_t seed : {0ULL, 1ULL, 0xFFFFFFFFFFFFFFFFULL}) {
    for (std::uint64_t feature : {0ULL, 7ULL, 4999ULL, 1ULL << 40}) {
      const std::uint64_t prefix = Rng::stream_prefix(seed, 3, 12345, Purpose::Noise);
      Rng split = Rng::from_prefix(prefix, Rng::mixed_feature(feature));
      Rng whole = Rng::stream(seed, 3, 12345, Purpose::Noise, feature);
      for (int k = 0; k < 4; ++k) BOOST_TEST(split.next_u64() == whole.next_u64());
      BOOST_TEST(split.normal() == whole.normal());
    }
  }
}

BOOST_AUTO_TEST_CASE(normals_four_streams_at_a_time_are_each_streams_normal) {
  // 1 003 columns: the four-lane body, a tail of three, and ~200 lanes whose first attempt is rejected (each of those
  // must continue exactly as normal()'s own loop).
  const std::uint64_t prefix = Rng::stream_prefix(5, 2, 777, Purpose::Noise);
  std::vector<std::uint64_t> mixed(1003);
  for (std::size_t j = 0; j < mixed.size(); ++j) mixed[j] = Rng::mixed_feature(j);
  std::vector<float> out(mixed.size());
  Rng::normals_from_prefix(prefix, mixed, out.data());
  int rejected_first = 0;
  for (std::size_t j = 0; j < mixed.size(); ++j) {
    BOOST_TEST_REQUIRE(out[j] == static_cast<float>(Rng::from_prefix(prefix, mixed[j]).normal()));
    Rng first = Rng::from_prefix(prefix, mixed[j]);
    const double u = 2.0 * first.uniform() - 1.0, v = 2.0 * first.uniform() - 1.0;
    rejected_first += u * u + v * v >= 1.0;
  }
  BOOST_TEST(rejected_first > 100);
}

namespace {

/// Noise rows as append_noise_features draws them: rows × columns entries, each its own stream.
std::vector<float> noise_rows(std::uint64_t rows, std::size_t columns) {
  std::vector<std::uint64_t> mixed(columns);
  for (std::size_t j = 0; j < columns; ++j) mixed[j] = Rng::mixed_feature(j);
  std::vector<float> out(rows * columns);
  for (std::uint64_t i = 0; i < rows; ++i)
    Rng::normals_from_prefix(Rng::stream_prefix(9, 4, i, Purpose::Noise), mixed, out.data() + i * columns);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_vector_path_and_the_portable_one_give_each_streams_normal) {
  // 300 × 1 001 = 300 300 draws: the eight- or four-lane body and a tail per row; with about one lane in 4 000 outside
  // the vector logarithm's guard band, ~75 of them take the glibc fallback. Every float must be normal()'s, on every
  // path this CPU has (limit 8: AVX-512, 4: AVX2, 0: portable).
  constexpr std::uint64_t kRows = 300;
  constexpr std::size_t kColumns = 1001;
  std::vector<float> expected(kRows * kColumns);
  for (std::uint64_t i = 0; i < kRows; ++i) {
    const std::uint64_t prefix = Rng::stream_prefix(9, 4, i, Purpose::Noise);
    for (std::size_t j = 0; j < kColumns; ++j)
      expected[i * kColumns + j] = static_cast<float>(Rng::from_prefix(prefix, Rng::mixed_feature(j)).normal());
  }
  for (int limit : {8, 4, 0}) {
    detail::set_vector_normals_limit(limit);
    BOOST_TEST_MESSAGE("limit " << limit << ": " << detail::vector_normals_width() << " lanes on this CPU");
    const std::vector<float> drawn = noise_rows(kRows, kColumns);
    for (std::size_t k = 0; k < drawn.size(); ++k)
      BOOST_TEST_REQUIRE(std::bit_cast<std::uint32_t>(drawn[k]) == std::bit_cast<std::uint32_t>(expected[k]));
  }
  detail::set_vector_normals_limit(8);
}

BOOST_AUTO_TEST_CASE(the_vector_logarithms_are_within_their_error_bound) {
  // The vector paths keep a lane's float only when y·(1 ± 2⁻³⁶) round alike; that is sound while the vector log is
  // within a relative 2⁻⁴⁶ of glibc's. Checked on s = u² + v² as the draws make them and on the edge cases: near 1,
  // tiny, powers of two, and both sides of √½ and √2 where the reduction changes branch.
  std::vector<double> s;
  Rng rng(42);
  while (s.size() < 400000) {
    const double u = 2.0 * rng.uniform() - 1.0, v = 2.0 * rng.uniform() - 1.0;
    if (u * u + v * v > 0.0 && u * u + v * v < 1.0) s.push_back(u * u + v * v);
  }
  for (double edge : {1.0 - 0x1.0p-53, 1.0 - 0x1.0p-30, 0.5, 0.25, 0x1.0p-104, 0x1.0p-1022, 0.70710678118654746,
                      0.70710678118654757, 0.35355339059327373, 0.35355339059327379, 0.999, 1e-300})
    s.push_back(edge);
  while (s.size() % 8 != 0) s.push_back(0.75);
  for (int limit : {8, 4}) {
    detail::set_vector_normals_limit(limit);
    std::vector<double> vector_log(s.size());
    detail::vector_log_for_test(s.data(), vector_log.data(), s.size());
    double worst = 0.0;
    int differing = 0;
    for (std::size_t k = 0; k < s.size(); ++k) {
      const double exact = std::log(s[k]);
      worst = std::max(worst, std::abs(vector_log[k] - exact) / std::abs(exact));
      differing += vector_log[k] != exact;
    }
    BOOST_TEST_MESSAGE(detail::vector_normals_width() << "-lane log: worst relative error " << worst << ", "
                                                      << differing << " of " << s.size() << " differ from glibc");
    BOOST_TEST(worst < 0x1.0p-46);
  }
  detail::set_vector_normals_limit(8);
}

BOOST_AUTO_TEST_CASE(uniform_int_is_in_range_and_roughly_uniform) {
  Rng rng(1);
  std::vector<int> counts(7, 0);
  for (int i = 0; i < 70000; ++i) counts[rng.uniform_int(7)]++;
  for (int c : counts) BOOST_TEST(std::abs(c - 10000) < 500);
}

BOOST_AUTO_TEST_CASE(beta_draws_match_the_moments) {
  Rng rng(2);
  const double a = 3.0, b = 7.0;
  const int n = 200000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    double x = rng.beta(a, b);
    BOOST_TEST((x >= 0.0 && x <= 1.0));
    sum += x;
    sum2 += x * x;
  }
  const double mean = sum / n, var = sum2 / n - mean * mean;
  BOOST_TEST(std::abs(mean - a / (a + b)) < 0.003);
  BOOST_TEST(std::abs(var - a * b / ((a + b) * (a + b) * (a + b + 1))) < 0.001);
}

BOOST_AUTO_TEST_CASE(gamma_with_small_shape_has_the_right_mean) {
  Rng rng(3);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += rng.gamma(0.3);
  BOOST_TEST(std::abs(sum / n - 0.3) < 0.01);
}

BOOST_AUTO_TEST_CASE(normal_has_unit_variance) {
  Rng rng(4);
  double sum = 0, sum2 = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    double z = rng.normal();
    sum += z;
    sum2 += z * z;
  }
  BOOST_TEST(std::abs(sum / n) < 0.01);
  BOOST_TEST(std::abs(sum2 / n - 1.0) < 0.02);
}

BOOST_AUTO_TEST_CASE(permutation_is_a_permutation) {
  Rng rng(5);
  auto perm = rng.permutation(1000);
  std::vector<bool> seen(1000, false);
  for (auto v : perm) seen[v] = true;
  for (bool s : seen) BOOST_TEST(s);
}
