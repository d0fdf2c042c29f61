// FUSE's pure core (src/methods/fuse/: tree, selection, reward; [FUSE]), the "Must hold" hand checks:
// UCB1-tuned (eq. 5) by hand; ⌊√T_F⌋ children for T_F = 1…20; ℓ-/g-RAVE after three scripted iterations; the random
// phase's stopping depth at q = 0.5 against the exact law; the AUC of footnote 1; leave-one-out kNN and its ties;
// the most-visited path's ties and the g-RAVE ranking's; the same seed giving the same tree.
#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "methods/fuse/reward.hpp"
#include "methods/fuse/selection.hpp"
#include "methods/fuse/tree.hpp"

using namespace bfs;
using namespace bfs::fuse;

namespace {

/// A descent through the given (node, action) steps to `leaf` with the final set `features` (for scripted backups).
Descent scripted(std::vector<Step> steps, std::int32_t leaf, std::vector<std::int32_t> features) {
  Descent d;
  d.steps = std::move(steps);
  d.leaf = leaf;
  d.features = std::move(features);
  return d;
}

/// A deterministic stand-in reward: features 0–2 help, the others cost a little.
double toy_reward(const std::vector<std::int32_t>& features) {
  double v = 0.5;
  for (std::int32_t f : features) v += f < 3 ? 0.1 : -0.01;
  return v;
}

void run_descents(Tree& tree, Rng& rng, const SearchSettings& settings, int iterations, int batch) {
  for (int round = 0; round < iterations / batch; ++round) {
    std::vector<Descent> pending;
    for (int b = 0; b < batch; ++b) {
      pending.push_back(descend(tree, settings, rng));
      tree.add_pending(pending.back());
    }
    for (const Descent& d : pending) {
      tree.remove_pending(d);
      tree.backup(d, toy_reward(d.features));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fuse)

BOOST_AUTO_TEST_CASE(ucb1_tuned_by_hand) {
  // ln 100 = 4.605170; sqrt(2·4.605170/10) = 0.959705, + σ̂² 0.01 = 0.969705 → min(1/4, ·) = 1/4;
  // c_e·ln T/t = 0.01·4.605170/10 = 0.004605170; × 1/4 = 0.001151293; sqrt = 0.0339307; + μ̂ 0.6 = 0.6339307.
  BOOST_TEST(ucb1_tuned(0.6, 0.01, 100, 10, 0.01) == 0.6339307, boost::test_tools::tolerance(1e-7));
  // The variance branch: σ̂² + sqrt(2 ln T/t) below 1/4 needs large t: T = 100, t = 10⁴ gives 0.0303 + σ̂² 0.1.
  const double log_t = std::log(100.0);
  const double expected = 0.5 + std::sqrt(0.01 * log_t / 1e4 * (0.1 + std::sqrt(2 * log_t / 1e4)));
  BOOST_TEST(ucb1_tuned(0.5, 0.1, 100, 1e4, 0.01) == expected, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(widening_sqrt_children) {
  for (std::int64_t t = 0; t <= 400; ++t) {
    BOOST_TEST(widening_limit(t, 2.0) == static_cast<std::int64_t>(std::floor(std::sqrt(static_cast<double>(t)))));
  }
  BOOST_TEST(widening_limit(8, 3.0) == 2);  // pow(8, 1/3) rounds below 2
  BOOST_TEST(widening_limit(26, 3.0) == 2);
  BOOST_TEST(widening_limit(27, 3.0) == 3);
  // In the tree: the descent after the root's T_F-th visit leaves ⌊√T_F⌋ children, T_F = 1…20.
  Tree tree(30);
  SearchSettings settings;
  settings.q = 0.5;
  Rng rng(7);
  tree.backup(descend(tree, settings, rng), 0.5);  // the first iteration adds the root
  for (std::int64_t t = 1; t <= 20; ++t) {
    BOOST_TEST(tree.node(0).visits == t);
    const Descent d = descend(tree, settings, rng);
    BOOST_TEST(tree.node(0).actions.size() == static_cast<std::size_t>(std::floor(std::sqrt(static_cast<double>(t)))));
    tree.backup(d, 0.5);
  }
}

BOOST_AUTO_TEST_CASE(rave_after_three_scripted_iterations) {
  Tree tree(3);  // features 0, 1, 2; f_s = 3
  // 1: the root is added, the random phase ends at {1, 2}: V = 0.8.
  tree.backup(scripted({}, 0, {1, 2}), 0.8);
  // 2: root → 0 (node 1 added), the random phase stops at once: final {0}, V = 0.6.
  const std::int32_t a0 = tree.add_action(0, 0);
  const std::int32_t n1 = tree.node(0).actions[static_cast<std::size_t>(a0)].child;
  tree.backup(scripted({{0, a0}}, n1, {0}), 0.6);
  // 3: root → 0 → 2 (node 2 added), final {0, 2}: V = 0.4.
  const std::int32_t a2 = tree.add_action(n1, 2);
  const std::int32_t n2 = tree.node(n1).actions[static_cast<std::size_t>(a2)].child;
  tree.backup(scripted({{0, a0}, {n1, a2}}, n2, {0, 2}), 0.4);

  const auto tol = boost::test_tools::tolerance(1e-12);
  // Root (F = ∅, T = 3): ℓ-RAVE_0 = (0.6 + 0.4)/2 = 0.5; ℓ-RAVE_1 = 0.8 (1 iteration); ℓ-RAVE_2 = (0.8 + 0.4)/2 = 0.6;
  // ℓ-RAVE_{f_s} unseen (no final set is ∅). Action 0: t = 2, μ̂ = 0.5, σ̂² = ((0.1)² + (0.1)²)/2 = 0.01.
  BOOST_TEST(tree.node(0).visits == 3);
  BOOST_TEST(tree.lrave(0, 0) == 0.5, tol);
  BOOST_TEST(tree.lrave_count(0, 0) == 2);
  BOOST_TEST(tree.lrave(0, 1) == 0.8, tol);
  BOOST_TEST(tree.lrave(0, 2) == 0.6, tol);
  BOOST_TEST(tree.lrave_count(0, 3) == 0);
  const Action& root0 = tree.node(0).actions[static_cast<std::size_t>(a0)];
  BOOST_TEST(root0.visits == 2);
  BOOST_TEST(root0.mean == 0.5, tol);
  BOOST_TEST(root0.variance() == 0.01, tol);
  // Node {0} (T = 2): ℓ-RAVE_2 = 0.4; ℓ-RAVE_{f_s} = 0.6 (iteration 2 stopped there); feature 0 ∈ F not kept.
  BOOST_TEST(tree.node(n1).visits == 2);
  BOOST_TEST(tree.lrave(n1, 2) == 0.4, tol);
  BOOST_TEST(tree.lrave(n1, 3) == 0.6, tol);
  BOOST_TEST(tree.lrave_count(n1, 0) == 0);
  BOOST_TEST(tree.lrave_count(n1, 1) == 0);
  // Node {0, 2} (T = 1, added by iteration 3): only ℓ-RAVE_{f_s} = 0.4; no action statistics.
  BOOST_TEST(tree.node(n2).visits == 1);
  BOOST_TEST(tree.node(n2).rave.size() == 1U);
  BOOST_TEST(tree.lrave(n2, 3) == 0.4, tol);
  BOOST_TEST(tree.node(n2).actions.empty());
  // g-RAVE (eq. 6): 0 → (0.6 + 0.4)/2 = 0.5; 1 → 0.8; 2 → (0.8 + 0.4)/2 = 0.6. Eq. 8: d = 1 → 0.6, d = 2 → 0.6.
  BOOST_TEST(tree.grave(0, 0) == 0.5, tol);
  BOOST_TEST(tree.grave(1, 0) == 0.8, tol);
  BOOST_TEST(tree.grave(2, 0) == 0.6, tol);
  BOOST_TEST(tree.grave(3, 1) == 0.6, tol);
  BOOST_TEST(tree.grave(3, 2) == 0.6, tol);
  BOOST_TEST(tree.grave_count(3, 2) == 2);
  BOOST_TEST(tree.grave_count(3, 0) == 0);
  // The widening score at the root with c_l = 100: feature 1 has t_l = 1, β = 100/101:
  // (1/101)·0.8 + (100/101)·0.8 = 0.8; f_s: unseen everywhere at level 0 → 0.
  BOOST_TEST(tree.widening_score(0, 1, 100.0) == 0.8, tol);
  BOOST_TEST(tree.widening_score(0, 3, 100.0) == 0.0, tol);
  // Feature 2 at node {0}: ℓ = 0.4 (t_l = 1), g = 0.6: (1/101)·0.4 + (100/101)·0.6.
  BOOST_TEST(tree.widening_score(n1, 2, 100.0) == (0.4 + 100.0 * 0.6) / 101.0, tol);
  // Eq. 9 at the root (c = c_l = 100, c_e = 0.01): the untried feature 1 scores its RAVE term 0.8 (+∞ when c = 0);
  // the tried feature 0: α = 100/102, RAVE term (1/102)·0.5 + (100/102)·0.5 = 0.5 (ℓ = g = 0.5, t_l = 2), so
  // (2/102)·0.5 + (100/102)·0.5 + the eq. 5 term with σ̂² 0.01, T_F = 3, t = 2.
  SearchSettings cont;
  cont.heuristic = Heuristic::continuous;
  BOOST_TEST(continuous_score(tree, 0, nullptr, 1, cont) == 0.8, tol);
  SearchSettings greedy = cont;
  greedy.c = 0.0;
  BOOST_TEST(std::isinf(continuous_score(tree, 0, nullptr, 1, greedy)));
  BOOST_TEST(continuous_score(tree, 0, &root0, 0, cont) == 0.5 + exploration(0.01, 3, 2, 0.01), tol);
  BOOST_TEST(continuous_score(tree, 0, &root0, 0, greedy) == ucb1_tuned(0.5, 0.01, 3, 2, 0.01), tol);
  // untried = "first": eq. 9 read at t = 0 (+∞) for the untried feature; a tried one scores as before.
  SearchSettings literal = cont;
  literal.untried = Untried::first;
  BOOST_TEST(std::isinf(continuous_score(tree, 0, nullptr, 1, literal)));
  BOOST_TEST(continuous_score(tree, 0, &root0, 0, literal) == continuous_score(tree, 0, &root0, 0, cont));
  BOOST_TEST((enum_from_name<Untried>("first") == Untried::first && enum_from_name<Untried>("rave") == Untried::rave));
  BOOST_TEST(!enum_from_name<Untried>("all").has_value());  // the schema refuses it: test_registry, test_fuse.sh
  // The g-RAVE ranking: 1 (0.8), 2 (0.6), 0 (0.5).
  BOOST_TEST(grave_ranking(tree) == (std::vector<std::int32_t>{1, 2, 0}));
}

BOOST_AUTO_TEST_CASE(stopping_depth_law) {
  // From ∅ the walk always adds one feature (q⁰ = 1), then continues with probability q^d: at q = 0.5 it stops at
  // depth 1, 2, 3 with probability 1/2, (1/2)(3/4) = 0.375 and (1/2)(1/4)(7/8) = 0.109375.
  constexpr int kDraws = 100000;
  const std::vector<double> exact{0.5, 0.375, 0.109375};
  std::vector<int> counts(4, 0);
  Rng rng(2024);
  for (int i = 0; i < kDraws; ++i) {
    std::vector<std::int32_t> features;
    std::vector<std::uint8_t> in_set(40, 0);
    random_phase(0.5, features, in_set, rng);
    BOOST_TEST_REQUIRE(!features.empty());
    ++counts[std::min<std::size_t>(features.size(), 4) - 1];
  }
  for (std::size_t d = 0; d < exact.size(); ++d) {
    const double freq = counts[d] / static_cast<double>(kDraws);
    const double se = std::sqrt(exact[d] * (1 - exact[d]) / kDraws);
    BOOST_TEST(std::abs(freq - exact[d]) < 3 * se, "depth " << d + 1 << ": " << freq << " vs " << exact[d]);
  }
}

BOOST_AUTO_TEST_CASE(auc_by_hand) {
  // Positives score 3 and 2, negatives 1 and 2: pairs (3,1) (3,2) (2,1) win, (2,2) ties: 3.5 / 4.
  const std::vector<std::int32_t> s{3, 1, 2, 2};
  const std::vector<std::uint8_t> y{1, 0, 1, 0};
  BOOST_TEST(auc(s, y) == 0.875);
  BOOST_TEST(auc(std::vector<std::int32_t>{0, 1}, std::vector<std::uint8_t>{1, 1}) == 0.5);  // one class
}

BOOST_AUTO_TEST_CASE(knn_leave_one_out_and_ties) {
  // One column x = (0, 1, −1, 3, 0), y = (0, 1, 0, 1, 1), k = 1.
  //  row 0: row 4 is at distance 0 (a duplicate, not z itself) → s = y4 = 1;
  //  row 1: row 0 (d 1) and row 4 (d 1) tie → the lower row, 0 → s = 0;
  //  row 2: rows 0 and 4 at d 1 → row 0 → 0;
  //  row 3: row 1 at d 2 → 1.
  // Without leave-one-out row 1 and row 3 would find themselves (s = 1 both times).
  TrainingSet data;
  data.rows = 5;
  data.cols = 2;
  data.values = {0, 1, -1, 3, 0, /* column 1, unused */ 9, 9, 9, 9, 9};
  data.labels = {0, 1, 0, 1, 1};
  const KnnReward reward(data, 1);
  const std::vector<std::size_t> all{0, 1, 2, 3, 4};
  const std::vector<std::int32_t> f0{0};
  BOOST_TEST(reward.scores(f0, all) == (std::vector<std::int32_t>{1, 0, 0, 1, 0}));
  // Row 4: row 0 at d 0 → 0. k = 2: row 1 → rows 0, 4 (d 1, 1) → 1; row 2 → rows 0, 4 → 1; row 3 → 1 (d 2), then
  // rows 0, 4 tie at d 3 → 0 → 1 positive; row 0 → 4 (d 0) then 1 and 2 tie at d 1 → 1 → 2; row 4 → 0, 1 → 1.
  const KnnReward reward2(data, 2);
  BOOST_TEST(reward2.scores(f0, all) == (std::vector<std::int32_t>{2, 1, 1, 1, 1}));
  // A constant column adds nothing; F's order does not matter; V(∅) = ½.
  const std::vector<std::int32_t> f10{1, 0};
  BOOST_TEST(reward2.scores(f10, all) == reward2.scores(f0, all));
  BOOST_TEST(reward2.value({}, all) == 0.5);
  // V on rows {0..4} with s = (2, 1, 1, 1, 1), y = (0, 1, 0, 1, 1): positives 1, 1, 1 vs negatives 2, 1:
  // each positive ties row 2 (½) and loses to row 0 → 3·½ / 6 = 0.25.
  BOOST_TEST(reward2.value(f0, all) == 0.25);
}

/// s_F by the definition: every other row's squared distance summed over F in ascending column order, the k
/// smallest by (distance, row).
std::vector<std::int32_t> brute_force_scores(const TrainingSet& data, std::vector<std::int32_t> features,
                                             const std::vector<std::size_t>& validation, std::size_t k) {
  std::sort(features.begin(), features.end());
  std::vector<std::int32_t> out;
  for (std::size_t z : validation) {
    std::vector<std::pair<double, std::size_t>> others;
    for (std::size_t i = 0; i < data.rows; ++i) {
      if (i == z) continue;
      double sum = 0.0;
      for (std::int32_t f : features) {
        const double d = data.column(static_cast<std::size_t>(f))[i] - data.column(static_cast<std::size_t>(f))[z];
        sum += d * d;
      }
      others.emplace_back(sum, i);
    }
    std::sort(others.begin(), others.end());
    std::int32_t positives = 0;
    for (std::size_t i = 0; i < k; ++i) positives += data.labels[others[i].second];
    out.push_back(positives);
  }
  return out;
}

BOOST_AUTO_TEST_CASE(knn_blocked_kernel_equals_brute_force) {
  // The reward's blocked kernel (tiles of rows, blocks of validation rows, a tail of each) against the definition,
  // on small-integer data where distance ties are everywhere, for row counts around the tile sizes.
  Rng rng(Rng::stream(11, 0, 0, Purpose::Fit));
  for (std::size_t rows : {6, 8, 9, 17, 31, 64, 77}) {
    TrainingSet data;
    data.rows = rows;
    data.cols = 7;
    for (std::size_t i = 0; i < rows * data.cols; ++i) data.values.push_back(static_cast<double>(rng.uniform_int(4)));
    for (std::size_t i = 0; i < rows; ++i) data.labels.push_back(static_cast<std::uint8_t>(rng.uniform_int(2)));
    for (std::int32_t k : {1, 3, 5}) {
      const KnnReward reward(data, k);
      for (std::size_t m : {std::size_t{1}, std::size_t{5}, rows / 2, rows}) {
        const auto validation = stratified_subsample(data.labels, std::max<std::size_t>(m, 1), rng);
        for (const std::vector<std::int32_t>& features :
             {std::vector<std::int32_t>{3}, {6, 0, 2}, {0, 1, 2, 3, 4, 5, 6}}) {
          BOOST_TEST(reward.scores(features, validation) ==
                         brute_force_scores(data, features, validation, static_cast<std::size_t>(k)),
                     "rows " << rows << ", k " << k << ", |V| " << validation.size() << ", |F| " << features.size());
        }
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(knn_float_screen_equals_brute_force) {
  // The float screen (detail/knn_screen.hpp) decides alone only when its bound proves it; these data sets are built
  // to defeat a screen without that bound: values a float cannot tell apart (a large offset plus steps far below
  // its resolution), near-duplicates 1e-12 apart, k above the 16 lanes the first bound needs, values too large for
  // the screen (off: exact throughout) or for floats at all, and the realistic case of Gaussian columns.
  Rng rng(Rng::stream(12, 0, 0, Purpose::Fit));
  const std::size_t rows = 300;
  auto make = [&](auto value) {
    TrainingSet data;
    data.rows = rows;
    data.cols = 6;
    for (std::size_t i = 0; i < rows * data.cols; ++i) data.values.push_back(value());
    for (std::size_t i = 0; i < rows; ++i) data.labels.push_back(static_cast<std::uint8_t>(rng.uniform_int(2)));
    return data;
  };
  const std::vector<TrainingSet> sets{
      make([&] { return 1e6 + 1e-4 * static_cast<double>(rng.uniform_int(50)); }),
      make([&] { return static_cast<double>(rng.uniform_int(3)) + 1e-12 * static_cast<double>(rng.uniform_int(3)); }),
      make([&] { return 1e16 * static_cast<double>(rng.uniform_int(5)); }),
      make([&] { return 1e300 * static_cast<double>(rng.uniform_int(5)); }),  // beyond floats; distances overflow
      make([&] { return rng.normal(); }),
  };
  for (std::size_t set = 0; set < sets.size(); ++set) {
    for (std::int32_t k : {1, 5, 17, 40}) {
      const KnnReward reward(sets[set], k);
      const auto validation = stratified_subsample(sets[set].labels, 37, rng);
      for (const std::vector<std::int32_t>& features : {std::vector<std::int32_t>{2}, {5, 1, 3}, {0, 1, 2, 3, 4, 5}}) {
        BOOST_TEST(reward.scores(features, validation) ==
                       brute_force_scores(sets[set], features, validation, static_cast<std::size_t>(k)),
                   "set " << set << ", k " << k << ", |F| " << features.size());
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(standardised_columns) {
  // Column 0: (1, 2, 3) → mean 2, sd 1 → (−1, 0, 1); column 1 constant → 0.
  TrainingSet data;
  data.rows = 3;
  data.cols = 2;
  data.values = {1, 2, 3, 5, 5, 5};
  data.labels = {0, 1, 0};
  standardise(data);
  BOOST_TEST(data.values == (std::vector<double>{-1, 0, 1, 0, 0, 0}));
}

BOOST_AUTO_TEST_CASE(stratified_draw) {
  std::vector<std::uint8_t> labels(100, 0);
  for (std::size_t i = 0; i < 30; ++i) labels[i * 3] = 1;
  Rng rng(5);
  const auto rows = stratified_subsample(labels, 20, rng);
  BOOST_TEST(rows.size() == 20U);
  BOOST_TEST(std::is_sorted(rows.begin(), rows.end()));
  BOOST_TEST((std::adjacent_find(rows.begin(), rows.end()) == rows.end()));
  std::size_t positives = 0;
  for (std::size_t r : rows) positives += labels[r];
  BOOST_TEST(positives == 6U);  // round(20 · 30/100)
  BOOST_CHECK_THROW(stratified_subsample(labels, 101, rng), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(path_ties) {
  Tree tree(4);
  tree.backup(scripted({}, 0, {0}), 0.5);
  // Root actions 2, 1, 3, 0. 2 and 1 have 3 visits each, 1 the higher μ̂ → the path takes 1, not 2.
  const std::int32_t a2 = tree.add_action(0, 2);
  const std::int32_t a1 = tree.add_action(0, 1);
  const std::int32_t a3 = tree.add_action(0, 3);
  const auto child = [&](std::int32_t node, std::int32_t a) {
    return tree.node(node).actions[static_cast<std::size_t>(a)].child;
  };
  for (int i = 0; i < 3; ++i) tree.backup(scripted({{0, a2}}, child(0, a2), {2}), 0.5);
  for (int i = 0; i < 3; ++i) tree.backup(scripted({{0, a1}}, child(0, a1), {1}), 0.7);
  tree.backup(scripted({{0, a3}}, child(0, a3), {3}), 0.9);  // fewer visits, higher μ̂: not taken
  // Below {1}: actions 3 and 0 with equal visits and equal μ̂ → the lower index, 0.
  const std::int32_t n1 = child(0, a1);
  const std::int32_t b3 = tree.add_action(n1, 3);
  const std::int32_t b0 = tree.add_action(n1, 0);
  tree.backup(scripted({{0, a1}, {n1, b3}}, child(n1, b3), {1, 3}), 0.6);
  tree.backup(scripted({{0, a1}, {n1, b0}}, child(n1, b0), {1, 0}), 0.6);
  const auto tied = most_visited_path(tree);  // {1, 0} has no visited action yet: the path ends there
  BOOST_TEST_REQUIRE(tied.size() == 2U);
  BOOST_TEST(tied[0].feature == 1);
  BOOST_TEST(tied[1].feature == 0);  // not 3, which was added first
  BOOST_TEST(tied[1].visits == 1);
  BOOST_TEST(tied[1].mean == 0.6);
  // Below {1, 0}: f_s is the most visited (2 against 1 with a higher μ̂) → the path still ends at {1, 0}.
  const std::int32_t n10 = child(n1, b0);
  const std::int32_t stop = tree.add_action(n10, tree.stop_action());
  const std::int32_t c2 = tree.add_action(n10, 2);
  for (int i = 0; i < 2; ++i) tree.backup(scripted({{0, a1}, {n1, b0}, {n10, stop}}, -1, {1, 0}), 0.6);
  tree.backup(scripted({{0, a1}, {n1, b0}, {n10, c2}}, child(n10, c2), {1, 0, 2}), 0.99);

  const auto path = most_visited_path(tree);
  BOOST_TEST_REQUIRE(path.size() == 2U);
  BOOST_TEST(path[0].feature == 1);
  BOOST_TEST(path[0].visits == 8);  // 3 + 2 + 2 + 1
  BOOST_TEST(path[1].feature == 0);
  BOOST_TEST(path[1].visits == 4);
  // g-RAVE ranking ties: equal means go to more final sets, then to the lower index; unseen features last.
  Tree tie(4);
  tie.record_final(std::vector<std::int32_t>{2, 3}, 0.7);
  tie.record_final(std::vector<std::int32_t>{3}, 0.7);
  tie.record_final(std::vector<std::int32_t>{1}, 0.7);
  // Means all 0.7: 3 (2 final sets) first, then 1 and 2 (1 each) by index; 0 unseen last.
  BOOST_TEST(grave_ranking(tie) == (std::vector<std::int32_t>{3, 1, 2, 0}));
}

BOOST_AUTO_TEST_CASE(same_seed_same_tree) {
  for (const Heuristic h : {Heuristic::discrete, Heuristic::continuous}) {
    SearchSettings settings;
    settings.heuristic = h;
    settings.q = 0.7;
    for (const int batch : {1, 4}) {
      Tree a(12);
      Tree b(12);
      Tree other(12);
      Rng rng_a(11);
      Rng rng_b(11);
      Rng rng_other(12);
      run_descents(a, rng_a, settings, 400, batch);
      run_descents(b, rng_b, settings, 400, batch);
      run_descents(other, rng_other, settings, 400, batch);
      BOOST_TEST((a == b));
      BOOST_TEST(!(a == other));  // the seed matters
      BOOST_TEST(a.node(0).visits == 400);
      BOOST_TEST(a.node(0).pending == 0);
      // A tree rebuilt from its state (a checkpoint) continues as the original does.
      Tree resumed(a.state());
      Rng rng_resumed = rng_a;
      run_descents(a, rng_a, settings, 100, batch);
      run_descents(resumed, rng_resumed, settings, 100, batch);
      BOOST_TEST((a == resumed));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
