// data.batch_size and bandit.rebatch = "bootstrap" (data/batches.hpp): batch boundaries, the bootstrap passes'
// rows and determinism, and the refusals.
#include <boost/test/unit_test.hpp>
#include <map>
#include <set>

#include "core/error.hpp"
#include "data/batches.hpp"
#include "data/source.hpp"

using namespace bfs;

namespace {

/// n rows whose y is the row index and x0 = 10·row, so every served row says where it came from.
Dataset indexed_rows(Index n, std::vector<std::int64_t> offsets = {}) {
  Dataset d;
  d.X.resize(n, 2);
  d.y.resize(n);
  for (Index i = 0; i < n; ++i) {
    d.X(i, 0) = static_cast<float>(10 * i);
    d.X(i, 1) = 1.0f;
    d.y[i] = static_cast<double>(i);
  }
  d.feature_names = {"a", "b"};
  d.period_offsets = std::move(offsets);
  d.origin = "memory";
  return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(batches)

BOOST_AUTO_TEST_CASE(batch_size_cuts_rows_in_order_with_the_remainder_last) {
  auto source = with_batches(make_memory_source(indexed_rows(10), true, 0, 1), 4);
  BOOST_TEST(source->num_periods() == 3);
  const std::vector<std::vector<double>> expected{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}};
  for (int k = 0; k < 3; ++k) {
    const Dataset batch = source->load_period(k);
    BOOST_TEST(std::vector<double>(batch.y.begin(), batch.y.end()) == expected[static_cast<std::size_t>(k)],
               boost::test_tools::per_element());
    for (Index i = 0; i < batch.rows(); ++i) BOOST_TEST(batch.X(i, 0) == 10 * batch.y[i]);
  }
}

BOOST_AUTO_TEST_CASE(batch_size_refuses_periods_and_too_many_rows) {
  BOOST_CHECK_THROW(with_batches(make_memory_source(indexed_rows(10, {0, 5, 10}), true, 0, 1), 2), ConfigError);
  try {
    with_batches(make_memory_source(indexed_rows(10), true, 0, 1), 11);
    BOOST_FAIL("batch_size 11 > n 10 accepted");
  } catch (const ConfigError& e) {
    BOOST_TEST(std::string(e.what()).find("data.batch_size = 11") != std::string::npos);
    BOOST_TEST(std::string(e.what()).find("n = 10") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(bootstrap_passes_keep_pass_zero_and_resample_the_others) {
  const auto make = [] {
    return with_bootstrap_passes(make_memory_source(indexed_rows(12, {0, 5, 12}), true, 0, 1), 3, 7);
  };
  auto source = make();
  BOOST_TEST(source->num_periods() == 6);  // 3 passes × 2 batches
  BOOST_TEST(source->load_period(0).rows() == 5);
  BOOST_TEST(source->load_period(1).y[0] == 5.0);  // pass 0: the source's own periods
  std::map<double, int> seen;
  for (int pass = 1; pass < 3; ++pass) {
    std::vector<double> rows;
    for (int k = 0; k < 2; ++k) {
      const Dataset batch = source->load_period(pass * 2 + k);
      BOOST_TEST(batch.rows() == (k == 0 ? 5 : 7));  // the same batch sizes
      for (Index i = 0; i < batch.rows(); ++i) {
        BOOST_TEST(batch.X(i, 0) == 10 * batch.y[i]);  // whole rows move together
        rows.push_back(batch.y[i]);
      }
    }
    for (double r : rows) ++seen[r];
    // With replacement: 12 draws from 12 rows repeat one with probability 1 − 12!/12^12 ≈ 1.
    BOOST_TEST(std::set<double>(rows.begin(), rows.end()).size() < rows.size());
  }
  // Deterministic, and independent of the order periods are asked for.
  auto again = make();
  const Dataset late = again->load_period(5);
  const Dataset early = again->load_period(2);
  BOOST_TEST(late.y == source->load_period(5).y);
  BOOST_TEST(early.y == source->load_period(2).y);
  BOOST_TEST(source->load_period(2).y != source->load_period(4).y);  // each pass draws afresh
}

BOOST_AUTO_TEST_SUITE_END()
