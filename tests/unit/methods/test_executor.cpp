// The local Executor (methods/executor.hpp): results in task order whatever the thread count, every task run once,
// the lowest failing task's exception rethrown; task_block's contiguous blocks checked exhaustively on small cases.
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <stdexcept>

#include "methods/executor.hpp"

using namespace bfs;

BOOST_AUTO_TEST_CASE(task_blocks_tile_the_tasks_in_rank_order) {
  for (std::size_t n = 0; n <= 20; ++n)
    for (int ranks = 1; ranks <= 6; ++ranks) {
      std::size_t next = 0, smallest = n, largest = 0;
      for (int r = 0; r < ranks; ++r) {
        const auto [begin, end] = task_block(n, r, ranks);
        BOOST_TEST(begin == next);
        BOOST_TEST(end >= begin);
        smallest = std::min(smallest, end - begin);
        largest = std::max(largest, end - begin);
        next = end;
      }
      BOOST_TEST(next == n);
      BOOST_TEST(largest - smallest <= 1u);
    }
}

BOOST_AUTO_TEST_CASE(map_returns_results_in_task_order_with_one_or_two_threads) {
  for (int threads : {1, 2, 5}) {
    LocalExecutor executor(threads);
    std::atomic<int> calls{0};
    const auto results = executor.map(100, [&](std::size_t i) {
      ++calls;
      return std::vector<double>(i % 4, static_cast<double>(i));
    });
    BOOST_TEST(calls.load() == 100);
    BOOST_REQUIRE(results.size() == 100u);
    for (std::size_t i = 0; i < results.size(); ++i) {
      BOOST_TEST(results[i].size() == i % 4);
      for (double x : results[i]) BOOST_TEST(x == static_cast<double>(i));
    }
    BOOST_TEST(executor.map(0, [](std::size_t) { return std::vector<double>{1.0}; }).empty());
    BOOST_TEST((executor.block(7) == std::pair<std::size_t, std::size_t>{0, 7}));
  }
}

BOOST_AUTO_TEST_CASE(the_lowest_failing_tasks_exception_is_rethrown) {
  for (int threads : {1, 2}) {
    LocalExecutor executor(threads);
    try {
      executor.map(30, [](std::size_t i) -> std::vector<double> {
        if (i == 7 || i == 21) throw std::runtime_error("task " + std::to_string(i));
        return {};
      });
      BOOST_FAIL("no exception");
    } catch (const std::runtime_error& e) {
      BOOST_TEST(std::string(e.what()) == "task 7");
    }
  }
}
