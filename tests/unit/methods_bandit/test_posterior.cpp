#include <boost/test/unit_test.hpp>

#include "core/error.hpp"
#include "methods/bandit/beta_posterior.hpp"

using namespace bfs;

BOOST_AUTO_TEST_CASE(played_arms_are_updated_with_their_rewards) {
  BetaPosterior posterior(5, 1.0, 2.0);
  posterior.update({0, 3}, {1, 0});
  BOOST_TEST(posterior.alpha(0) == 2.0);
  BOOST_TEST(posterior.beta(0) == 2.0);
  BOOST_TEST(posterior.alpha(3) == 1.0);
  BOOST_TEST(posterior.beta(3) == 3.0);
  for (FeatureId k : {1, 2, 4}) {  // semi-bandit: unplayed arms keep their posterior
    BOOST_TEST(posterior.alpha(k) == 1.0);
    BOOST_TEST(posterior.beta(k) == 2.0);
  }
  BOOST_TEST(posterior.mean(0) == 0.5);
}

BOOST_AUTO_TEST_CASE(unplayed_arms_can_count_as_failures) {
  BetaPosterior posterior(4, 1.0, 1.0);
  posterior.update({1}, {1}, true);
  BOOST_TEST(posterior.alpha(1) == 2.0);
  BOOST_TEST(posterior.beta(1) == 1.0);
  for (FeatureId k : {0, 2, 3}) BOOST_TEST(posterior.beta(k) == 2.0);
}

BOOST_AUTO_TEST_CASE(sampling_is_a_pure_function_of_the_stream) {
  BetaPosterior posterior(50, 2.0, 3.0);
  Rng a(11), b(11);
  BOOST_TEST(posterior.sample(a) == posterior.sample(b));
}

// Expected values: scipy 1.10's beta.ppf((1 - level)/2, a, b) and beta.ppf((1 + level)/2, a, b), printed with repr.
BOOST_AUTO_TEST_CASE(credible_interval_is_the_exact_beta_quantiles) {
  struct Case {
    double a, b, level, lo, hi;
  };
  const Case cases[] = {{3, 7, 0.9, 0.09774681343927573, 0.5496416495066101},
                        {12.5, 4.5, 0.95, 0.5092710112735391, 0.9091718049657238},
                        {1, 1, 0.9, 0.05, 0.95},
                        {40, 160, 0.9, 0.1553470847900771, 0.24807104428322255},
                        {0.5, 0.5, 0.5, 0.14644660940672624, 0.8535533905932737}};
  for (const Case& c : cases) {
    const auto [lo, hi] = beta_credible_interval(c.a, c.b, c.level);
    BOOST_TEST(lo == c.lo, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(hi == c.hi, boost::test_tools::tolerance(1e-12));
  }
}

BOOST_AUTO_TEST_CASE(credible_interval_holds_the_posterior_mean_and_widens_with_the_level) {
  for (double a = 1.0; a < 400.0; a = a * 1.7 + 0.5) {
    for (double b = 1.0; b < 400.0; b = b * 2.1 + 0.25) {
      const double mean = a / (a + b);
      const auto [lo90, hi90] = beta_credible_interval(a, b, 0.9);
      const auto [lo50, hi50] = beta_credible_interval(a, b, 0.5);
      BOOST_TEST(lo90 <= mean);
      BOOST_TEST(mean <= hi90);
      BOOST_TEST(lo90 < lo50);
      BOOST_TEST(hi50 < hi90);
      BOOST_TEST(lo90 > 0.0);
      BOOST_TEST(hi90 < 1.0);
    }
  }
  BOOST_CHECK_THROW(beta_credible_interval(1.0, 1.0, 1.0), InternalError);
  BOOST_CHECK_THROW(beta_credible_interval(0.0, 1.0, 0.9), InternalError);
}
