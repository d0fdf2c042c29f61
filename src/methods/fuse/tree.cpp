#include "methods/fuse/tree.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/error.hpp"
#include "methods/fuse/detail/argmax.hpp"

namespace bfs::fuse {

namespace {

double mean_of(double sum, std::int64_t count) {
  return count > 0 ? sum / static_cast<double>(count) : 0.0;
}

std::vector<RaveStat>::const_iterator find_rave(const std::vector<RaveStat>& rave, std::int32_t feature) {
  auto it = std::lower_bound(rave.begin(), rave.end(), feature,
                             [](const RaveStat& stat, std::int32_t f) { return stat.feature < f; });
  return (it != rave.end() && it->feature == feature) ? it : rave.end();
}

}  // namespace

std::int64_t widening_limit(std::int64_t visits, double b) {
  if (visits <= 0) return 0;
  const auto t = static_cast<double>(visits);
  auto m = static_cast<std::int64_t>(std::floor(std::pow(t, 1.0 / b)));
  // pow(T, 1/b) may land just below an exact root (pow(8, 1/3) < 2): correct against m^b ≤ T < (m+1)^b.
  while (m > 0 && std::pow(static_cast<double>(m), b) > t) --m;
  while (std::pow(static_cast<double>(m + 1), b) <= t) ++m;
  return m;
}

Tree::Tree(std::int32_t features)
    : Tree(TreeState{features, std::vector<Node>(1), std::vector<double>(static_cast<std::size_t>(features), 0.0),
                     std::vector<std::int64_t>(static_cast<std::size_t>(features), 0),
                     std::vector<double>(static_cast<std::size_t>(features) + 1, 0.0),
                     std::vector<std::int64_t>(static_cast<std::size_t>(features) + 1, 0)}) {}

Tree::Tree(TreeState state) : s_(std::move(state)) {
  BFS_CHECK(s_.features > 0, "FUSE needs at least one feature");
  const auto p = static_cast<std::size_t>(s_.features);
  BFS_CHECK(!s_.nodes.empty() && s_.grave_sum.size() == p && s_.grave_count.size() == p &&
                s_.stop_sum.size() == p + 1 && s_.stop_count.size() == p + 1,
            "inconsistent FUSE tree state");
}

std::int32_t Tree::add_action(std::int32_t node, std::int32_t feature) {
  BFS_CHECK(feature >= 0 && feature <= s_.features);
  BFS_CHECK(find_action(node, feature) < 0, "action added twice");
  Action action;
  action.feature = feature;
  if (feature != s_.features) {
    Node child;
    child.parent = node;
    child.feature = feature;
    child.depth = this->node(node).depth + 1;
    action.child = static_cast<std::int32_t>(s_.nodes.size());
    s_.nodes.push_back(std::move(child));  // invalidates references into s_.nodes
  }
  auto& actions = mutable_node(node).actions;
  actions.push_back(action);
  return static_cast<std::int32_t>(actions.size()) - 1;
}

std::int32_t Tree::find_action(std::int32_t node, std::int32_t feature) const {
  const auto& actions = this->node(node).actions;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    if (actions[i].feature == feature) return static_cast<std::int32_t>(i);
  }
  return -1;
}

double Tree::lrave(std::int32_t node, std::int32_t feature) const {
  const auto& rave = this->node(node).rave;
  auto it = find_rave(rave, feature);
  return it == rave.end() ? 0.0 : it->mean();
}

std::int64_t Tree::lrave_count(std::int32_t node, std::int32_t feature) const {
  const auto& rave = this->node(node).rave;
  auto it = find_rave(rave, feature);
  return it == rave.end() ? 0 : it->count;
}

double Tree::grave(std::int32_t feature, std::int32_t depth) const {
  if (feature == s_.features) {
    const auto d = static_cast<std::size_t>(depth);
    return mean_of(s_.stop_sum[d], s_.stop_count[d]);
  }
  const auto f = static_cast<std::size_t>(feature);
  return mean_of(s_.grave_sum[f], s_.grave_count[f]);
}

std::int64_t Tree::grave_count(std::int32_t feature, std::int32_t depth) const {
  return feature == s_.features ? s_.stop_count[static_cast<std::size_t>(depth)]
                                : s_.grave_count[static_cast<std::size_t>(feature)];
}

namespace {

/// (1 − β)·ℓ-RAVE + β·g-RAVE with β = c_l/(c_l + t_l) (§5.3).
double blend(double lrave, std::int64_t t_l, double grave, double c_l) {
  const double beta = c_l > 0.0 ? c_l / (c_l + static_cast<double>(t_l)) : 0.0;
  return (1.0 - beta) * lrave + beta * grave;
}

}  // namespace

double Tree::widening_score(std::int32_t node, std::int32_t feature, double c_l) const {
  return blend(lrave(node, feature), lrave_count(node, feature), grave(feature, this->node(node).depth), c_l);
}

void Tree::widening_scores(std::int32_t node, double c_l, std::vector<double>& scores) const {
  // The node's ℓ-RAVE list (sorted by feature) walked beside the features instead of searched p + 1 times; the
  // same arithmetic as widening_score.
  const Node& n = this->node(node);
  scores.resize(static_cast<std::size_t>(s_.features) + 1);
  std::size_t next = 0;
  for (std::int32_t f = 0; f <= s_.features; ++f) {
    while (next < n.rave.size() && n.rave[next].feature < f) ++next;
    const bool seen = next < n.rave.size() && n.rave[next].feature == f;
    scores[static_cast<std::size_t>(f)] =
        blend(seen ? n.rave[next].mean() : 0.0, seen ? n.rave[next].count : 0, grave(f, n.depth), c_l);
  }
}

void Tree::widen(std::int32_t node, std::span<const std::uint8_t> in_set, double b, double c_l, Rng& rng) {
  const Node& n = this->node(node);
  const std::int64_t available = static_cast<std::int64_t>(s_.features - n.depth) + 1;  // features not in F, and f_s
  const std::int64_t target = std::min(widening_limit(n.visits + n.pending, b), available);
  if (static_cast<std::int64_t>(n.actions.size()) >= target) return;
  std::vector<std::uint8_t> taken(in_set.begin(), in_set.end());
  taken.push_back(0);  // f_s
  for (const Action& action : n.actions) taken[static_cast<std::size_t>(action.feature)] = 1;
  std::vector<double> scores;
  widening_scores(node, c_l, scores);  // adding children changes no RAVE statistic
  while (static_cast<std::int64_t>(this->node(node).actions.size()) < target) {
    detail::ArgmaxPicker picker(rng);
    for (std::int32_t f = 0; f <= s_.features; ++f) {
      if (taken[static_cast<std::size_t>(f)] == 0) picker.offer(f, scores[static_cast<std::size_t>(f)]);
    }
    BFS_CHECK(picker.best() >= 0);
    taken[static_cast<std::size_t>(picker.best())] = 1;
    add_action(node, picker.best());
  }
}

void Tree::add_pending(const Descent& descent) {
  for (const Step& step : descent.steps) {
    Node& n = mutable_node(step.node);
    ++n.pending;
    ++n.actions[static_cast<std::size_t>(step.action)].pending;
  }
  if (descent.leaf >= 0) ++mutable_node(descent.leaf).pending;
}

void Tree::remove_pending(const Descent& descent) {
  for (const Step& step : descent.steps) {
    Node& n = mutable_node(step.node);
    Action& action = n.actions[static_cast<std::size_t>(step.action)];
    BFS_CHECK(n.pending > 0 && action.pending > 0, "removing a descent that was not pending");
    --n.pending;
    --action.pending;
  }
  if (descent.leaf >= 0) {
    Node& n = mutable_node(descent.leaf);
    BFS_CHECK(n.pending > 0, "removing a descent that was not pending");
    --n.pending;
  }
}

void Tree::add_rave(Node& node, std::int32_t feature, double reward) {
  auto it = std::lower_bound(node.rave.begin(), node.rave.end(), feature,
                             [](const RaveStat& stat, std::int32_t f) { return stat.feature < f; });
  if (it == node.rave.end() || it->feature != feature) it = node.rave.insert(it, RaveStat{feature, 0, 0.0});
  ++it->count;
  it->sum += reward;
}

void Tree::backup(const Descent& descent, double reward) {
  const auto& final_set = descent.features;
  const auto final_size = static_cast<std::int32_t>(final_set.size());
  auto update_node = [&](std::int32_t index) {
    Node& n = mutable_node(index);
    BFS_CHECK(n.depth <= final_size);
    ++n.visits;
    // F = the first |F| features of the final set; ℓ-RAVE keeps the others, and f_s when F_t = F.
    for (auto i = static_cast<std::size_t>(n.depth); i < final_set.size(); ++i) add_rave(n, final_set[i], reward);
    if (n.depth == final_size) add_rave(n, s_.features, reward);
  };
  for (const Step& step : descent.steps) {
    update_node(step.node);
    Action& action = mutable_node(step.node).actions[static_cast<std::size_t>(step.action)];
    ++action.visits;
    const double delta = reward - action.mean;
    action.mean += delta / static_cast<double>(action.visits);
    action.m2 += delta * (reward - action.mean);
  }
  if (descent.leaf >= 0) update_node(descent.leaf);
  record_final(final_set, reward);
}

void Tree::record_final(std::span<const std::int32_t> features, double reward) {
  for (std::int32_t f : features) {
    BFS_CHECK(f >= 0 && f < s_.features);
    s_.grave_sum[static_cast<std::size_t>(f)] += reward;
    ++s_.grave_count[static_cast<std::size_t>(f)];
  }
  s_.stop_sum[features.size()] += reward;
  ++s_.stop_count[features.size()];
}

std::vector<PathStep> most_visited_path(const Tree& tree) {
  std::vector<PathStep> path;
  std::int32_t node = 0;
  while (true) {
    const Action* best = nullptr;
    for (const Action& action : tree.node(node).actions) {
      if (action.visits == 0) continue;
      if (best == nullptr || action.visits > best->visits ||
          (action.visits == best->visits &&
           (action.mean > best->mean || (action.mean == best->mean && action.feature < best->feature)))) {
        best = &action;
      }
    }
    if (best == nullptr || best->feature == tree.stop_action()) return path;
    path.push_back(PathStep{best->feature, best->visits, best->mean});
    node = best->child;
  }
}

std::vector<std::int32_t> grave_ranking(const Tree& tree) {
  std::vector<double> grave(tree.grave_sums().size());
  for (std::size_t f = 0; f < grave.size(); ++f) grave[f] = tree.grave(static_cast<std::int32_t>(f), 0);
  return grave_ranking(grave, tree.grave_counts());
}

std::vector<std::int32_t> grave_ranking(std::span<const double> grave, std::span<const std::int64_t> counts) {
  BFS_CHECK(grave.size() == counts.size(), "g-RAVE of ", grave.size(), " features, counts of ", counts.size());
  std::vector<std::int32_t> order(grave.size());
  for (std::size_t f = 0; f < order.size(); ++f) order[f] = static_cast<std::int32_t>(f);
  std::stable_sort(order.begin(), order.end(), [&](std::int32_t a, std::int32_t b) {
    const auto ia = static_cast<std::size_t>(a);
    const auto ib = static_cast<std::size_t>(b);
    if ((counts[ia] > 0) != (counts[ib] > 0)) return counts[ia] > 0;  // unseen last
    if (counts[ia] == 0) return a < b;
    if (grave[ia] != grave[ib]) return grave[ia] > grave[ib];
    if (counts[ia] != counts[ib]) return counts[ia] > counts[ib];
    return a < b;
  });
  return order;
}

}  // namespace bfs::fuse
