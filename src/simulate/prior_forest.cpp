// Trees drawn from the BART prior ([TVS §6.1], Forest Setup); see prior_forest.hpp for the prior and draw order.
#include "simulate/prior_forest.hpp"

#include <cmath>
#include <numbers>

#include "core/error.hpp"

namespace bfs {

namespace {

/// The cut indices [lo, hi) of each variable still available in a node's range.
struct Range {
  std::vector<int> lo, hi;
};

class TreeDrawer {
 public:
  TreeDrawer(const PriorForestSpec& spec, const std::vector<double>& grid, Rng& rng)
      : spec_(spec), grid_(grid), rng_(rng) {}

  PriorTree draw() {
    PriorTree tree;
    Range range{std::vector<int>(static_cast<std::size_t>(spec_.vars), 0),
                std::vector<int>(static_cast<std::size_t>(spec_.vars), spec_.cuts)};
    grow(tree, range, 0);
    return tree;
  }

 private:
  /// Appends the subtree of a node at `depth` whose cuts are `range`; returns its index.
  std::int32_t grow(PriorTree& tree, Range& range, int depth) {
    const auto at = static_cast<std::int32_t>(tree.size());
    tree.emplace_back();
    std::vector<int> open;  // the variables with a cut left
    for (int v = 0; v < spec_.vars; ++v)
      if (range.lo[static_cast<std::size_t>(v)] < range.hi[static_cast<std::size_t>(v)]) open.push_back(v);
    const double split = spec_.alpha * std::pow(1.0 + depth, -spec_.beta);
    if (open.empty() || !(rng_.uniform() < split)) {
      tree[static_cast<std::size_t>(at)].value = spec_.leaf_sd * rng_.normal();
      return at;
    }
    const int v = open[rng_.uniform_int(open.size())];
    const auto slot = static_cast<std::size_t>(v);
    const int lo = range.lo[slot], hi = range.hi[slot];
    const int c = lo + static_cast<int>(rng_.uniform_int(static_cast<std::uint64_t>(hi - lo)));
    range.hi[slot] = c;  // left: x_v < grid[c] keeps the cuts below c
    const std::int32_t left = grow(tree, range, depth + 1);
    range.hi[slot] = hi;
    range.lo[slot] = c + 1;  // right: the cuts above c
    const std::int32_t right = grow(tree, range, depth + 1);
    range.lo[slot] = lo;
    PriorTreeNode& node = tree[static_cast<std::size_t>(at)];
    node.var = v;
    node.cut = grid_[static_cast<std::size_t>(c)];
    node.left = left;
    node.right = right;
    return at;
  }

  const PriorForestSpec& spec_;
  const std::vector<double>& grid_;
  Rng& rng_;
};

}  // namespace

double normal_quantile(double u) {
  BFS_CHECK(u > 0.0 && u < 1.0, "u = ", u);
  double lo = -40.0, hi = 40.0;  // Φ(±40) is 0 and 1 in double precision
  for (int i = 0; i < 200 && hi - lo > 0.0; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (mid == lo || mid == hi) break;
    (0.5 * std::erfc(-mid / std::numbers::sqrt2) < u ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

std::vector<PriorTree> draw_prior_forest(const PriorForestSpec& spec, Rng& rng) {
  BFS_CHECK(spec.trees >= 0 && spec.vars > 0 && spec.cuts > 0, "trees ", spec.trees, " vars ", spec.vars);
  std::vector<double> grid(static_cast<std::size_t>(spec.cuts));
  for (int k = 1; k <= spec.cuts; ++k)
    grid[static_cast<std::size_t>(k - 1)] = normal_quantile(static_cast<double>(k) / (spec.cuts + 1));
  TreeDrawer drawer(spec, grid, rng);
  std::vector<PriorTree> forest;
  forest.reserve(static_cast<std::size_t>(spec.trees));
  for (int t = 0; t < spec.trees; ++t) forest.push_back(drawer.draw());
  return forest;
}

double forest_value(const std::vector<PriorTree>& forest, const float* x) {
  double sum = 0.0;
  for (const PriorTree& tree : forest) {
    const PriorTreeNode* node = tree.data();
    while (node->var >= 0) node = &tree[static_cast<std::size_t>(x[node->var] < node->cut ? node->left : node->right)];
    sum += node->value;
  }
  return sum;
}

}  // namespace bfs
