#include "methods/bandit/partitioning.hpp"

#include <algorithm>
#include <numeric>

#include "core/error.hpp"

namespace bfs {

std::vector<std::vector<std::size_t>> partition_by_cost(const std::vector<double>& costs, int members) {
  BFS_CHECK(members >= 1, "members = ", members);
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  std::vector<std::vector<std::size_t>> blocks(static_cast<std::size_t>(members));
  std::vector<double> load(static_cast<std::size_t>(members), 0.0);
  for (std::size_t item : order) {
    BFS_CHECK(costs[item] >= 0.0, "negative cost for item ", item);
    const auto cheapest = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    blocks[cheapest].push_back(item);
    load[cheapest] += costs[item];
  }
  for (auto& block : blocks) std::sort(block.begin(), block.end());
  return blocks;
}

int GroupLayout::group_of(int rank) const {
  for (int g = 0; g < groups; ++g)
    if (rank >= first_rank[static_cast<std::size_t>(g)] &&
        rank < first_rank[static_cast<std::size_t>(g)] + size[static_cast<std::size_t>(g)])
      return g;
  return -1;
}

GroupLayout make_group_layout(int ranks, int arms_per_round, int group_size) {
  BFS_CHECK(ranks >= 1 && arms_per_round >= 1 && group_size >= 0, "ranks ", ranks, " arms ", arms_per_round,
            " group size ", group_size);
  GroupLayout layout;
  layout.ranks = ranks;
  if (ranks == 1) {
    layout.groups = 1;
    layout.first_rank = {0};
    layout.size = {1};
    return layout;
  }
  const int workers = ranks - 1;
  layout.groups =
      group_size == 0 ? std::min(arms_per_round, workers) : std::max(1, std::min(arms_per_round, workers / group_size));
  int next = 1;
  for (int g = 0; g < layout.groups; ++g) {
    const int size = workers / layout.groups + (g < workers % layout.groups ? 1 : 0);
    layout.first_rank.push_back(next);
    layout.size.push_back(size);
    next += size;
  }
  return layout;
}

std::vector<int> arms_of_group(const GroupLayout& layout, int group, int arms_per_round) {
  std::vector<int> slots;
  for (int slot = group; slot < arms_per_round; slot += layout.groups) slots.push_back(slot);
  return slots;
}

}  // namespace bfs
