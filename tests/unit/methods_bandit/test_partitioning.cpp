#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <functional>
#include <numeric>

#include "methods/bandit/partitioning.hpp"

using namespace bfs;

namespace {
/// The smallest possible maximum block cost, by trying every assignment of items to members.
double optimal_makespan(const std::vector<double>& costs, int members) {
  double best = 1e300;
  std::vector<double> load(static_cast<std::size_t>(members), 0.0);
  std::function<void(std::size_t)> assign = [&](std::size_t item) {
    if (item == costs.size()) {
      best = std::min(best, *std::max_element(load.begin(), load.end()));
      return;
    }
    for (auto& l : load) {
      l += costs[item];
      assign(item + 1);
      l -= costs[item];
    }
  };
  assign(0);
  return best;
}
}  // namespace

// Every cost vector of length 0..5 over {0, 1, 2, 3, 5} and 1..4 members: the blocks are a partition of the items,
// ascending, deterministic, and within Graham's LPT bound of the brute-force optimum.
BOOST_AUTO_TEST_CASE(partition_by_cost_is_an_lpt_partition_on_every_small_case) {
  const std::vector<double> values = {0, 1, 2, 3, 5};
  std::size_t cases = 0;
  for (std::size_t n = 0; n <= 5; ++n) {
    std::vector<std::size_t> digits(n, 0);
    for (;;) {
      std::vector<double> costs(n);
      for (std::size_t i = 0; i < n; ++i) costs[i] = values[digits[i]];
      for (int m = 1; m <= 4; ++m) {
        const auto blocks = partition_by_cost(costs, m);
        BOOST_TEST_REQUIRE(blocks.size() == static_cast<std::size_t>(m));
        std::vector<int> seen(n, 0);
        double max_load = 0.0;
        for (const auto& block : blocks) {
          BOOST_TEST_REQUIRE(std::is_sorted(block.begin(), block.end()));
          double load = 0.0;
          for (std::size_t item : block) {
            seen[item]++;
            load += costs[item];
          }
          max_load = std::max(max_load, load);
        }
        for (int count : seen) BOOST_TEST_REQUIRE(count == 1);
        const double bound = (4.0 / 3.0 - 1.0 / (3.0 * m)) * optimal_makespan(costs, m);
        BOOST_TEST_REQUIRE(max_load <= bound + 1e-12);
        BOOST_TEST_REQUIRE((partition_by_cost(costs, m) == blocks));
        ++cases;
      }
      std::size_t d = 0;
      while (d < n && ++digits[d] == values.size()) digits[d++] = 0;
      if (d == n) break;
    }
  }
  BOOST_TEST(cases == 4u * (1 + 5 + 25 + 125 + 625 + 3125));
}

BOOST_AUTO_TEST_CASE(equal_costs_give_blocks_whose_sizes_differ_by_at_most_one) {
  for (std::size_t n = 0; n <= 40; ++n) {
    for (int m = 1; m <= 9; ++m) {
      const auto blocks = partition_by_cost(std::vector<double>(n, 1.0), m);
      std::size_t lo = n, hi = 0;
      for (const auto& block : blocks) {
        lo = std::min(lo, block.size());
        hi = std::max(hi, block.size());
      }
      BOOST_TEST_REQUIRE(hi - lo <= 1u);
    }
  }
}

// Every job size up to 64 ranks and 16 arms per round: each worker is in exactly one contiguous group, group sizes
// differ by at most one, and the groups' arm slots partition the round's slots.
BOOST_AUTO_TEST_CASE(group_layouts_cover_every_worker_and_every_arm_once) {
  for (int ranks = 1; ranks <= 64; ++ranks) {
    for (int arms = 1; arms <= 16; ++arms) {
      const GroupLayout layout = make_group_layout(ranks, arms);
      const int workers = ranks == 1 ? 1 : ranks - 1;
      BOOST_TEST_REQUIRE(layout.groups == std::min(arms, workers));
      std::vector<int> group_count(static_cast<std::size_t>(ranks), 0);
      int smallest = ranks, largest = 0;
      for (int g = 0; g < layout.groups; ++g) {
        smallest = std::min(smallest, layout.size[g]);
        largest = std::max(largest, layout.size[g]);
        for (int r = layout.first_rank[g]; r < layout.first_rank[g] + layout.size[g]; ++r) {
          group_count[static_cast<std::size_t>(r)]++;
          BOOST_TEST_REQUIRE(layout.group_of(r) == g);
        }
      }
      BOOST_TEST_REQUIRE(largest - smallest <= 1);
      for (int r = (ranks == 1 ? 0 : 1); r < ranks; ++r) BOOST_TEST_REQUIRE(group_count[r] == 1);
      if (ranks > 1) BOOST_TEST_REQUIRE(layout.group_of(0) == -1);
      std::vector<int> slot_count(static_cast<std::size_t>(arms), 0);
      for (int g = 0; g < layout.groups; ++g)
        for (int slot : arms_of_group(layout, g, arms)) slot_count[static_cast<std::size_t>(slot)]++;
      for (int c : slot_count) BOOST_TEST_REQUIRE(c == 1);
    }
  }
}

// run.group_size: groups of at least that many workers while the workers allow, never more groups than
// arms, at least one group; 0 keeps one group per arm.
BOOST_AUTO_TEST_CASE(group_size_asks_for_groups_of_at_least_that_many_workers) {
  BOOST_TEST(make_group_layout(9, 8, 0).groups == 8);
  BOOST_TEST(make_group_layout(9, 8, 2).groups == 4);   // 8 workers in groups of 2
  BOOST_TEST(make_group_layout(9, 8, 3).groups == 2);   // sizes 4 and 4
  BOOST_TEST(make_group_layout(9, 8, 16).groups == 1);  // more than the workers: one group of all 8
  BOOST_TEST(make_group_layout(9, 1, 2).groups == 1);   // never more groups than arms
  for (int ranks = 2; ranks <= 40; ++ranks)
    for (int size = 1; size <= 12; ++size) {
      const GroupLayout layout = make_group_layout(ranks, 16, size);
      const int workers = ranks - 1;
      for (int g = 0; g < layout.groups; ++g)
        BOOST_TEST_REQUIRE(layout.size[static_cast<std::size_t>(g)] >= std::min(size, workers));
      BOOST_TEST_REQUIRE(layout.groups == std::max(1, std::min(16, workers / size)));
    }
}
