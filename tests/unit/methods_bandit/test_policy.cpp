#include <boost/test/unit_test.hpp>
#include <cmath>

#include "core/error.hpp"
#include "methods/bandit/policy.hpp"

using namespace bfs;

namespace {
PolicySettings settings(const std::string& name) {
  PolicySettings s;
  s.name = *enum_from_name<PolicyKind>(name);
  return s;
}
/// A posterior almost certain that features `on` are in and all others out.
BetaPosterior concentrated(Index p, const FeatureSet& on) {
  std::vector<double> alpha(static_cast<std::size_t>(p), 1.0), beta(static_cast<std::size_t>(p), 1e6);
  for (FeatureId k : on) {
    alpha[k] = 1e6;
    beta[k] = 1.0;
  }
  return BetaPosterior(alpha, beta);
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_golden_ratio_c_gives_the_median_threshold) {
  BOOST_TEST(std::abs(tvs_threshold((std::sqrt(5.0) - 1.0) / 2.0) - 0.5) < 1e-12);
  // C̃ decreases in C: a larger C is a smaller false-positive penalty.
  BOOST_TEST(tvs_threshold(0.3) > tvs_threshold(0.6));
  BOOST_TEST(std::abs(tvs_threshold(0.3) - std::log(1 / 0.3) / std::log(1.3 / 0.3)) < 1e-15);
}

BOOST_AUTO_TEST_CASE(oracles_pick_by_threshold_and_top_q) {
  const std::vector<double> theta = {0.9, 0.2, 0.5, 0.7, 0.49, 0.8};
  BOOST_TEST((threshold_oracle(theta, 0.5) == FeatureSet{0, 2, 3, 5}));
  BOOST_TEST((top_q_oracle(theta, 0.5, 2) == FeatureSet{0, 5}));
  BOOST_TEST((top_q_oracle(theta, 0.5, 10) == FeatureSet{0, 2, 3, 5}));
  BOOST_TEST((top_q_oracle(theta, 0.85, 3) == FeatureSet{0}));
}

BOOST_AUTO_TEST_CASE(symmetric_difference_is_union_minus_intersection) {
  BOOST_TEST((symmetric_difference({1, 2, 5, 7}, {2, 3, 7, 9}) == FeatureSet{1, 3, 5, 9}));
  BOOST_TEST((symmetric_difference({}, {4}) == FeatureSet{4}));
  BOOST_TEST(symmetric_difference({1, 2}, {1, 2}).empty());
}

BOOST_AUTO_TEST_CASE(ts_plays_the_thresholded_draw) {
  BetaPosterior posterior(30, 1.0, 1.0);
  const Policy policy(settings("ts"));
  const ArmDraw draw = policy.choose(posterior, 5, 7, 0);
  Rng rng = Rng::stream(5, 7, 0, Purpose::PolicyFirst);
  BOOST_TEST(draw.arm == threshold_oracle(posterior.sample(rng), 0.5));
  BOOST_TEST(!draw.played_second);
}

BOOST_AUTO_TEST_CASE(ttts_plays_s_or_the_symmetric_difference_with_a_second_draw) {
  BetaPosterior posterior(40, 1.0, 1.0);
  const Policy policy(settings("ttts"));
  int second = 0;
  const int rounds = 2000;
  for (int round = 1; round <= rounds; ++round) {
    const ArmDraw draw = policy.choose(posterior, 3, static_cast<std::uint64_t>(round), 0);
    Rng first = Rng::stream(3, static_cast<std::uint64_t>(round), 0, Purpose::PolicyFirst);
    const FeatureSet s = threshold_oracle(posterior.sample(first), 0.5);
    Rng other = Rng::stream(3, static_cast<std::uint64_t>(round), 0, Purpose::PolicySecond);
    if (other.uniform() > 0.5) {
      ++second;
      const FeatureSet s2 = threshold_oracle(posterior.sample(other), 0.5);  // S' ≠ S almost surely at p = 40
      BOOST_TEST(draw.played_second);
      BOOST_TEST(draw.redraws == 1);
      BOOST_TEST(draw.arm == symmetric_difference(s, s2));
    } else {
      BOOST_TEST(!draw.played_second);
      BOOST_TEST(draw.arm == s);
    }
  }
  BOOST_TEST(std::abs(second - rounds / 2) < 120);  // Bernoulli(1/2): 5.4 standard deviations
}

BOOST_AUTO_TEST_CASE(ttts_redraws_are_bounded_and_fall_back_to_s) {
  const BetaPosterior posterior = concentrated(20, {2, 5});
  PolicySettings s = settings("ttts");
  s.max_redraws = 7;
  const Policy policy(s);
  int fallbacks = 0;
  for (int round = 1; round <= 200; ++round) {
    const ArmDraw draw = policy.choose(posterior, 9, static_cast<std::uint64_t>(round), 0);
    BOOST_TEST((draw.arm == FeatureSet{2, 5}));
    if (draw.fallback) {
      ++fallbacks;
      BOOST_TEST(draw.redraws == 7);
      BOOST_TEST(!draw.played_second);
    }
  }
  BOOST_TEST(fallbacks > 50);  // the coin sends about half of the rounds to the (always failing) redraw loop
}

BOOST_AUTO_TEST_CASE(tvs_uses_its_threshold_and_known_q) {
  const BetaPosterior posterior = concentrated(30, {1, 4, 9, 12});
  PolicySettings s = settings("tvs");
  s.tvs_c = 0.3;
  BOOST_TEST((Policy(s).choose(posterior, 1, 1, 0).arm == FeatureSet{1, 4, 9, 12}));
  s.tvs_q = 2;
  const ArmDraw draw = Policy(s).choose(posterior, 1, 1, 0);
  BOOST_TEST(draw.arm.size() == 2u);
  for (FeatureId k : draw.arm) BOOST_TEST((k == 1 || k == 4 || k == 9 || k == 12));
}

BOOST_AUTO_TEST_CASE(the_cap_keeps_a_uniform_subset) {
  const BetaPosterior posterior = concentrated(100, {});
  std::vector<double> alpha(100, 1e6), beta(100, 1.0);  // every arm in S
  const BetaPosterior all_in(alpha, beta);
  PolicySettings s = settings("ts");
  s.max_features = 0.1;
  const Policy policy(s);
  std::vector<int> counts(100, 0);
  for (int round = 1; round <= 3000; ++round) {
    const ArmDraw draw = policy.choose(all_in, 2, static_cast<std::uint64_t>(round), 0);
    BOOST_TEST(draw.arm.size() == 10u);
    BOOST_TEST(draw.capped);
    BOOST_TEST(std::is_sorted(draw.arm.begin(), draw.arm.end()));
    for (FeatureId k : draw.arm) counts[k]++;
  }
  for (int c : counts) BOOST_TEST(std::abs(c - 300) < 90);  // Binomial(3000, 0.1): sd 16.4
  // An empty super-arm is a valid draw, not a crash.
  BOOST_TEST(policy.choose(posterior, 2, 1, 0).arm.empty());
}

BOOST_AUTO_TEST_CASE(an_unknown_policy_has_no_name) {
  // bandit.policy is an enum read once by the job parser, which names the key for "ucb" (test_schema).
  BOOST_TEST(!enum_from_name<PolicyKind>("ucb").has_value());
}
