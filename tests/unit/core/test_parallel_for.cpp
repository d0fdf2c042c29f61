// core/parallel_for: every index runs exactly once, results land in index order, a failing body's exception (the
// lowest failing index's) reaches the caller after every body ran, and 1 or N threads give the same results.
#include <atomic>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/parallel_for.hpp"
#include "core/rng.hpp"

using namespace bfs;

BOOST_AUTO_TEST_SUITE(parallel_for_suite)

BOOST_AUTO_TEST_CASE(every_index_runs_exactly_once) {
  for (const int threads : {1, 2, 3, 8}) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000}}) {
      std::vector<std::atomic<int>> runs(n);
      parallel_for(n, threads, [&](std::size_t i) { ++runs[i]; });
      for (std::size_t i = 0; i < n; ++i) BOOST_TEST(runs[i].load() == 1, "index " << i << ", threads " << threads);
    }
  }
}

BOOST_AUTO_TEST_CASE(uses_up_to_the_threads_asked_for_and_no_more) {
  std::mutex mutex;
  std::set<std::thread::id> seen;
  std::atomic<int> inside{0}, most{0};
  parallel_for(64, 3, [&](std::size_t) {
    const int now = ++inside;
    for (int m = most.load(); now > m && !most.compare_exchange_weak(m, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --inside;
    const std::lock_guard<std::mutex> lock(mutex);
    seen.insert(std::this_thread::get_id());
  });
  BOOST_TEST(most.load() <= 3);
  BOOST_TEST(seen.size() <= 3u);
  BOOST_TEST(seen.count(std::this_thread::get_id()) == 1u);  // the caller works too
  seen.clear();
  parallel_for(5, 0, [&](std::size_t) { seen.insert(std::this_thread::get_id()); });  // < 1 thread: the caller alone
  BOOST_TEST((seen == std::set<std::thread::id>{std::this_thread::get_id()}));
}

BOOST_AUTO_TEST_CASE(results_come_back_in_index_order_and_do_not_depend_on_the_threads) {
  // Each slot's value is drawn from its own stream, with uneven work, so a mixed-up slot would show.
  const auto body = [](std::size_t i) {
    Rng rng = Rng::stream(11, i, 0, Purpose::Search);
    std::vector<double> draws(i % 13 + 1);
    for (double& d : draws) d = rng.normal();
    return draws;
  };
  const auto one = parallel_map<std::vector<double>>(500, 1, body);
  BOOST_REQUIRE(one.size() == 500u);
  for (std::size_t i = 0; i < one.size(); ++i) BOOST_TEST(one[i] == body(i));
  for (const int threads : {2, 4, 16}) BOOST_TEST((parallel_map<std::vector<double>>(500, threads, body) == one));
}

BOOST_AUTO_TEST_CASE(the_lowest_failing_index_is_rethrown_after_every_body_ran) {
  for (const int threads : {1, 2, 4}) {
    std::atomic<int> runs{0};
    try {
      parallel_for(40, threads, [&](std::size_t i) {
        ++runs;
        if (i == 33 || i == 9 || i == 17) throw std::runtime_error("index " + std::to_string(i));
      });
      BOOST_FAIL("no exception");
    } catch (const std::runtime_error& e) {
      BOOST_TEST(std::string(e.what()) == "index 9");
    }
    BOOST_TEST(runs.load() == 40);
  }
}

BOOST_AUTO_TEST_SUITE_END()
