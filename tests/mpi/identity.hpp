#pragma once
// Bit identity of two method-neutral results (methods/result.hpp): every deterministic output — importance,
// selection, rank, trajectory, and each of the method's own datasets and facts — must match bit for bit. Timings,
// ranks and threads are not compared (they describe the deployment, not the numbers).
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <variant>
#include <vector>

#include "methods/result.hpp"

namespace bfs::testing {

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  if constexpr (std::is_arithmetic_v<T>)
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
  else
    return a == b;
}

inline void expect_identical(const MethodResult& expected, const MethodResult& actual) {
  BOOST_TEST(actual.method == expected.method);
  BOOST_TEST(actual.iterations == expected.iterations);
  BOOST_TEST(actual.stop_reason == expected.stop_reason);
  BOOST_TEST(actual.feature_names == expected.feature_names);
  BOOST_TEST(same_bits(actual.importance, expected.importance));
  BOOST_TEST(actual.selected == expected.selected);
  BOOST_TEST(actual.rank == expected.rank);
  BOOST_TEST(same_bits(actual.trajectory, expected.trajectory));
  BOOST_TEST(actual.truth == expected.truth);
  BOOST_REQUIRE(actual.datasets.size() == expected.datasets.size());
  for (std::size_t i = 0; i < expected.datasets.size(); ++i) {
    const MethodDataset& a = expected.datasets[i];
    const MethodDataset& b = actual.datasets[i];
    BOOST_TEST_CONTEXT("dataset " << a.name) {
      BOOST_TEST(b.name == a.name);
      BOOST_TEST(b.shape == a.shape);
      BOOST_REQUIRE(b.values.index() == a.values.index());
      const bool same = std::visit(
          [&](const auto& values) { return same_bits(values, std::get<std::decay_t<decltype(values)>>(b.values)); },
          a.values);
      BOOST_TEST(same);
    }
  }
  BOOST_REQUIRE(actual.facts.size() == expected.facts.size());
  for (std::size_t i = 0; i < expected.facts.size(); ++i) {
    BOOST_TEST(actual.facts[i].name == expected.facts[i].name);
    BOOST_TEST((actual.facts[i].value == expected.facts[i].value), "fact " << expected.facts[i].name);
  }
}

}  // namespace bfs::testing
