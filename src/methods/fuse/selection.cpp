#include "methods/fuse/selection.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/error.hpp"
#include "methods/fuse/detail/argmax.hpp"

namespace bfs::fuse {

SearchSettings search_settings(const FuseParams& params) {
  return SearchSettings{params.heuristic, params.widening_b, params.q,      params.c_e,
                        params.c,         params.c_l,        params.untried};
}

double exploration(double variance, double parent_visits, double visits, double c_e) {
  const double log_t = std::log(parent_visits);
  const double tuned = std::min(0.25, variance + std::sqrt(2.0 * log_t / visits));
  return std::sqrt(c_e * log_t / visits * tuned);
}

double ucb1_tuned(double mean, double variance, double parent_visits, double visits, double c_e) {
  return mean + exploration(variance, parent_visits, visits, c_e);
}

double continuous_score(const Tree& tree, std::int32_t node, const Action* action, std::int32_t feature,
                        const SearchSettings& settings) {
  return continuous_score_given(tree, node, action, tree.widening_score(node, feature, settings.c_l), settings);
}

double continuous_score_given(const Tree& tree, std::int32_t node, const Action* action, double rave,
                              const SearchSettings& settings) {
  const std::int64_t real = action != nullptr ? action->visits : 0;
  const std::int64_t seen = real + (action != nullptr ? action->pending : 0);
  if (seen == 0) {
    return settings.c > 0.0 && settings.untried == Untried::rave ? rave : std::numeric_limits<double>::infinity();
  }
  const double alpha = settings.c > 0.0 ? settings.c / (settings.c + static_cast<double>(real)) : 0.0;
  const Node& n = tree.node(node);
  const double mean = real > 0 ? action->mean : 0.0;
  return (1.0 - alpha) * mean + alpha * rave +
         exploration(action->variance(), static_cast<double>(n.visits + n.pending), static_cast<double>(seen),
                     settings.c_e);
}

std::int32_t select_discrete(Tree& tree, std::int32_t node, std::span<const std::uint8_t> in_set,
                             const SearchSettings& settings, Rng& rng) {
  tree.widen(node, in_set, settings.widening_b, settings.c_l, rng);
  const Node& n = tree.node(node);
  BFS_CHECK(!n.actions.empty());
  const auto parent_visits = static_cast<double>(n.visits + n.pending);
  detail::ArgmaxPicker picker(rng);
  for (std::size_t i = 0; i < n.actions.size(); ++i) {
    const Action& a = n.actions[i];
    const std::int64_t seen = a.visits + a.pending;
    if (seen == 0) return static_cast<std::int32_t>(i);  // untried first, in the order widening added them
    const double mean = a.visits > 0 ? a.mean : 0.0;
    picker.offer(static_cast<std::int32_t>(i),
                 ucb1_tuned(mean, a.variance(), parent_visits, static_cast<double>(seen), settings.c_e));
  }
  return picker.best();
}

std::int32_t select_continuous(Tree& tree, std::int32_t node, std::span<const std::uint8_t> in_set,
                               const SearchSettings& settings, Rng& rng) {
  const std::int32_t p = tree.features();
  std::vector<std::int32_t> index(static_cast<std::size_t>(p) + 1, -1);
  const auto& actions = tree.node(node).actions;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    index[static_cast<std::size_t>(actions[i].feature)] = static_cast<std::int32_t>(i);
  }
  std::vector<double> rave;
  tree.widening_scores(node, settings.c_l, rave);
  detail::ArgmaxPicker picker(rng);
  for (std::int32_t f = 0; f <= p; ++f) {
    if (f < p && in_set[static_cast<std::size_t>(f)] != 0) continue;
    const std::int32_t i = index[static_cast<std::size_t>(f)];
    const Action* action = i >= 0 ? &actions[static_cast<std::size_t>(i)] : nullptr;
    picker.offer(f, continuous_score_given(tree, node, action, rave[static_cast<std::size_t>(f)], settings));
  }
  const std::int32_t chosen = picker.best();
  BFS_CHECK(chosen >= 0);
  const std::int32_t i = index[static_cast<std::size_t>(chosen)];
  return i >= 0 ? i : tree.add_action(node, chosen);
}

void random_phase(double q, std::vector<std::int32_t>& features, std::vector<std::uint8_t>& in_set, Rng& rng) {
  const auto p = static_cast<std::int32_t>(in_set.size());
  while (static_cast<std::int32_t>(features.size()) < p &&
         rng.uniform() < std::pow(q, static_cast<double>(features.size()))) {
    // The r-th feature not in F, r uniform: O(p) per draw, small beside a reward.
    auto r = static_cast<std::int64_t>(rng.uniform_int(static_cast<std::uint64_t>(p) - features.size()));
    std::int32_t f = 0;
    for (;; ++f) {
      if (in_set[static_cast<std::size_t>(f)] == 0 && r-- == 0) break;
    }
    in_set[static_cast<std::size_t>(f)] = 1;
    features.push_back(f);
  }
}

Descent descend(Tree& tree, const SearchSettings& settings, Rng& rng) {
  BFS_CHECK(settings.heuristic != Heuristic::rand, "RAND^R makes no descent");
  Descent descent;
  std::vector<std::uint8_t> in_set(static_cast<std::size_t>(tree.features()), 0);
  std::int32_t node = 0;
  while (true) {
    const Node& n = tree.node(node);
    if (n.visits + n.pending == 0) {
      descent.leaf = node;
      random_phase(settings.q, descent.features, in_set, rng);
      return descent;
    }
    const std::int32_t a = settings.heuristic == Heuristic::discrete
                               ? select_discrete(tree, node, in_set, settings, rng)
                               : select_continuous(tree, node, in_set, settings, rng);
    descent.steps.push_back(Step{node, a});
    const Action& action = tree.node(node).actions[static_cast<std::size_t>(a)];
    if (action.feature == tree.stop_action()) return descent;
    descent.features.push_back(action.feature);
    in_set[static_cast<std::size_t>(action.feature)] = 1;
    node = action.child;
  }
}

std::vector<std::int32_t> uniform_subset(std::int32_t p, std::int32_t size, Rng& rng) {
  std::vector<std::int32_t> all(static_cast<std::size_t>(p));
  std::iota(all.begin(), all.end(), 0);
  const auto m = static_cast<std::size_t>(std::clamp(size, 0, p));
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t j = i + static_cast<std::size_t>(rng.uniform_int(all.size() - i));
    std::swap(all[i], all[j]);
  }
  all.resize(m);
  return all;
}

}  // namespace bfs::fuse
