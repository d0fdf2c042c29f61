// The Executor under mpiexec at 1–4 ranks (tests/mpi/CMakeLists.txt), with 1 and 2 threads per rank: map(n, task)
// returns every result in task order on every rank, each rank ran exactly its contiguous block, and a failing task
// fails the map on every rank instead of leaving one waiting.
#define BOOST_TEST_MODULE executor
#include <boost/test/unit_test.hpp>
#include <memory>
#include <set>
#include <stdexcept>

#include "core/error.hpp"
#include "dist/runtime.hpp"
#include "mpi_session.hpp"

using namespace bfs;

namespace {

/// Task i returns {i, i², rank that ran it}; the lengths vary with i (0..2 values beyond the first) so the
/// encoding of uneven results is exercised too.
std::vector<double> task(std::size_t i, int rank) {
  std::vector<double> out = {static_cast<double>(i), static_cast<double>(i * i), static_cast<double>(rank)};
  out.resize(1 + i % 3);
  if (i % 3 == 2) out[2] = rank;
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(results_come_back_in_task_order_on_every_rank) {
  const int ranks = g_session->size();
  for (int threads : {1, 2}) {
    const dist::Runtime runtime = dist::make_runtime(*g_session, threads);
    Executor& executor = *runtime.executor;
    BOOST_TEST(executor.threads() == threads);
    for (std::size_t n : {0u, 1u, 3u, 7u, 40u}) {
      BOOST_TEST_CONTEXT("threads " << threads << ", n " << n << ", ranks " << ranks) {
        const auto results = executor.map(n, [&](std::size_t i) { return task(i, g_session->rank()); });
        BOOST_REQUIRE(results.size() == n);
        for (std::size_t i = 0; i < n; ++i) {
          BOOST_TEST(results[i].size() == 1 + i % 3);
          BOOST_TEST(results[i][0] == static_cast<double>(i));
          if (results[i].size() > 1) BOOST_TEST(results[i][1] == static_cast<double>(i * i));
          if (results[i].size() > 2) {
            // The rank that ran task i owns the block holding i.
            const int owner = static_cast<int>(results[i][2]);
            const auto [begin, end] = task_block(n, owner, ranks);
            BOOST_TEST((begin <= i && i < end));
          }
        }
        const auto [begin, end] = executor.block(n);
        BOOST_TEST((std::pair{begin, end} == task_block(n, g_session->rank(), ranks)));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_failing_task_fails_the_map_on_every_rank) {
  const dist::Runtime runtime = dist::make_runtime(*g_session, 2);
  const std::size_t n = 9;
  const std::size_t bad = 5;
  bool threw = false;
  try {
    runtime.executor->map(n, [&](std::size_t i) -> std::vector<double> {
      if (i == bad) throw InputError("task 5 is bad");
      return {1.0};
    });
  } catch (const InputError& e) {
    threw = true;
    const auto [begin, end] = runtime.executor->block(n);
    BOOST_TEST((begin <= bad && bad < end));  // the owner rethrows the task's own error
    BOOST_TEST(std::string(e.what()) == "task 5 is bad");
  } catch (const Error& e) {
    threw = true;
    BOOST_TEST(std::string(e.what()).find("failed") != std::string::npos);
  }
  BOOST_TEST(threw);
  // The job is still usable afterwards: no rank was left inside a collective.
  const auto again = runtime.executor->map(4, [](std::size_t i) { return std::vector<double>{double(i)}; });
  BOOST_TEST(again.size() == 4u);
}
