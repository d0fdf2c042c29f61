#pragma once
// The keys of [method] name = "fuse" ([FUSE], FUSE: Monte-Carlo tree search over feature subsets with RAVE).
// Defaults: §7.1's where the paper gives one (k = 5, b = 2), otherwise our picks from §7.1's
// grids (q = 1 − 10^i, i = −1, −3, −5; c_e = 10^{−4,−2,0,2}; c, c_l ∈ {0, 10², 10⁴}) — the paper names no grid
// winner: scripts/bench/fuse_sweep.sh on a held-out madelon-like draw picked c_e = 1 (docs/fuse.md: the FUSE^R top-20
// error 9.1% against 22.6% at c_e = 0.01); 200 000 iterations. reward_subsample (|𝒱|, only
// "aggressive" in §6.1), batch and select/top/shadows/shadow_copies/shadow_max_false/shadow_quantile are ours (select =
// "shadow": Boruta's shadows [Kursa & Rudnicki 2010] with a permutation p-value on g-RAVE, docs/fuse.md "Selection by
// signal"). widening_b ≥ 1: at most T_F children.
#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>

#include "config/method_params.hpp"
#include "methods/common/shadow_rule.hpp"

namespace bfs::fuse {

/// Searches under select = "shadow" when method.searches is 0 (searches.hpp): two, measured in docs/fuse.md.
inline constexpr std::int64_t kDefaultShadowSearches = 2;

/// The exploration heuristics of §5.1 (D- and C-FUSE) and RAND^R (§7.1).
enum class Heuristic { discrete, continuous, rand };
constexpr std::array<std::pair<Heuristic, std::string_view>, 3> enum_table(Heuristic) {
  return {{{Heuristic::discrete, "discrete"}, {Heuristic::continuous, "continuous"}, {Heuristic::rand, "rand"}}};
}
/// How eq. 9 scores an action never tried at the node: its RAVE term, or +∞ (tried first).
enum class Untried { rave, first };
constexpr std::array<std::pair<Untried, std::string_view>, 2> enum_table(Untried) {
  return {{{Untried::first, "first"}, {Untried::rave, "rave"}}};
}
/// The selected set: the features whose g-RAVE beats the shadows' (the shadow rule, methods/common/shadow_rule.hpp),
/// the top of the g-RAVE ranking (FUSE^R) or the most-visited path (FUSE).
enum class Select { shadow, rave, path };
constexpr std::array<std::pair<Select, std::string_view>, 3> enum_table(Select) {
  return {{{Select::shadow, "shadow"}, {Select::rave, "rave"}, {Select::path, "path"}}};
}

struct FuseParams final : MethodParams {
  /// T: Monte-Carlo iterations (descents, each with one reward; Algorithm 1), shared among the searches.
  std::int64_t iterations = 200000;
  /// R: independent searches sharing the T iterations (searches.hpp); 0 = kDefaultShadowSearches with select =
  /// "shadow", else 1. Under select = "shadow" a feature must beat the shadows in every search.
  std::int64_t searches = 0;
  /// k of the reward's k nearest neighbours (§6.1 eq. 10).
  int k = 5;
  /// "discrete" = progressive widening + UCB1-tuned (§5.1, eq. 5); "continuous" = eq. 9 over every action;
  /// "rand" = RAND^R (§7.1: g-RAVE of uniform 20-feature subsets, no tree).
  Heuristic heuristic = Heuristic::discrete;
  /// b of progressive widening: a node visited T_F times has ⌊T_F^{1/b}⌋ children (our reading of §5.1
  /// with §7.1's b = 2: ⌊√T_F⌋).
  double widening_b = 2.0;
  /// q of the random phase (§6.2): stop at depth d with probability 1 − q^d.
  double q = 0.999;
  /// c_e: exploration strength of UCB1-tuned (eq. 5) and of eq. 9 (1: the sweep's pick, docs/fuse.md).
  double c_e = 1.0;
  /// c of eq. 9: α = c / (c + t_{F,f}), the weight of the RAVE term against μ̂_{F,f}.
  double c = 100.0;
  /// c_l of eq. 9 (and of the widening score, §5.3): β = c_l / (c_l + t_l), the weight of g-RAVE against ℓ-RAVE.
  double c_l = 100.0;
  /// How eq. 9 scores an action not yet tried at a node: "first" = +∞, eq. 9 read literally at t_{F,f} = 0 (every
  /// untried action is tried before any is tried again); "rave" = its RAVE term (the other reading, under
  /// which the search becomes a single chain: docs/fuse.md, "Continuous heuristic").
  Untried untried = Untried::first;
  /// |𝒱|: validation rows per reward, a fresh stratified subsample of the training rows each iteration (§6.1).
  std::int64_t reward_subsample = 100;
  /// B: descents per round, rewarded together (1 = the paper's sequential algorithm; part of the algorithm).
  std::int64_t batch = 1;
  /// Centre and scale each training column before the distances (§7.1: "centered and normalized").
  bool standardize = true;
  /// The selected set: "shadow" = the features whose g-RAVE has a p-value against the shadows' of at most
  /// shadow_max_false / p (or beats their quantile shadow_quantile); the shadows are features of the search, so the
  /// search runs over p + S features. "rave" = the
  /// top `top` of the g-RAVE ranking (FUSE^R), "path" = the most-visited path (FUSE); neither has shadows.
  Select select = Select::shadow;
  /// How many g-RAVE-ranked features `select = "rave"` keeps (20, as Fig. 3).
  std::int64_t top = 20;
  /// The features with shadows under select = "shadow": 0 = every feature up to 1000 (methods::kDefaultShadowCap).
  std::int64_t shadows = 0;
  /// k: shadow features per feature with shadows, each its own row shuffle (the search runs over p + k × shadows).
  std::int64_t shadow_copies = methods::kFuseDefaultShadowCopies;
  /// α: the rule bounds the expected number of false selections by α (a feature's permutation p-value against the
  /// pooled shadows must be at most α/p; methods/common/shadow_rule.hpp).
  double shadow_max_false = methods::kDefaultShadowMaxFalse;
  /// Below 1: the quantile of the shadows' g-RAVE a feature must beat, instead of shadow_max_false's rank.
  double shadow_quantile = 1.0;

  void visit(KeyVisitor& v) override {
    using namespace keyspec;
    v("iterations", iterations, range(1, 1e12, "T: Monte-Carlo iterations (descents), shared among the searches"));
    v("searches", searches,
      range(0, 64, "independent searches (0: 2 with select = \"shadow\", else 1); shadows beaten in every one"));
    v("k", k, range(1, 1e6, "k nearest neighbours of the reward (eq. 10)"));
    v("heuristic", heuristic, text("progressive widening + UCB1-tuned, eq. 9, or RAND^R"));
    v("widening_b", widening_b, range(1, 1e3, "progressive widening: floor(T_F^(1/b)) children per node"));
    v("q", q, KeySpec{0, 1, {}, "random phase: stop at depth d with probability 1 - q^d", true, true});
    v("c_e", c_e, range(0, 1e12, "exploration strength of UCB1-tuned (eq. 5, eq. 9)"));
    v("c", c, range(0, 1e12, "eq. 9: alpha = c/(c + t_Ff), the weight of the RAVE term"));
    v("c_l", c_l, range(0, 1e12, "eq. 9: beta = c_l/(c_l + t_l), the weight of g-RAVE against l-RAVE"));
    v("untried", untried, text("eq. 9's score of an untried action: +inf (tried first), or its RAVE term"));
    v("reward_subsample", reward_subsample, range(2, 1e9, "validation rows per reward (stratified, fresh each time)"));
    v("batch", batch, range(1, 1e6, "descents per round (1 = the paper's sequential algorithm)"));
    v("standardize", standardize, text("centre and scale each training column before the distances"));
    v("select", select,
      text("selected set: g-RAVE above the shadows', g-RAVE top `top` (FUSE^R), or most-visited path"));
    v("top", top, range(1, 1e9, "features kept by select = \"rave\""));
    methods::visit_shadow_keys(v, *this, "select = \"shadow\": below 1, the quantile of the shadows' g-RAVE to beat");
  }
  std::unique_ptr<MethodParams> clone() const override { return std::make_unique<FuseParams>(*this); }
};

}  // namespace bfs::fuse
