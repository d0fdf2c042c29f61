#include <boost/test/unit_test.hpp>

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
