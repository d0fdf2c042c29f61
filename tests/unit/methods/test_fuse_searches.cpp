// FUSE's R searches (methods/fuse/searches.hpp; docs/fuse.md, "Selection by signal"): how the iterations are shared,
// which checkpoints are whole rounds, and the rule "above the shadows in every search", by hand.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>

#include "methods/fuse/searches.hpp"

using namespace bfs;

BOOST_AUTO_TEST_SUITE(fuse_searches)

BOOST_AUTO_TEST_CASE(the_default_is_two_searches_under_the_shadow_rule_only) {
  fuse::FuseParams params;
  BOOST_TEST(fuse::search_count(params) == 2);
  params.select = fuse::Select::rave;
  BOOST_TEST(fuse::search_count(params) == 1);
  params.select = fuse::Select::path;
  BOOST_TEST(fuse::search_count(params) == 1);
  params.searches = 3;
  BOOST_TEST(fuse::search_count(params) == 3);
}

BOOST_AUTO_TEST_CASE(iterations_are_shared_with_the_remainder_first) {
  BOOST_TEST(fuse::search_iterations(200000, 2, 0) == 100000u);
  BOOST_TEST(fuse::search_iterations(200000, 2, 1) == 100000u);
  BOOST_TEST(fuse::search_iterations(10, 3, 0) == 4u);
  BOOST_TEST(fuse::search_iterations(10, 3, 1) == 3u);
  BOOST_TEST(fuse::search_iterations(10, 3, 2) == 3u);
  BOOST_TEST(fuse::search_iterations(7, 1, 0) == 7u);
  for (std::uint64_t total : {1u, 2u, 9u, 90u, 1001u})
    for (std::uint64_t r = 1; r <= std::min<std::uint64_t>(total, 5); ++r) {
      std::uint64_t sum = 0;
      for (std::uint64_t c = 0; c < r; ++c) sum += fuse::search_iterations(total, r, c);
      BOOST_TEST(sum == total);
    }
}

BOOST_AUTO_TEST_CASE(whole_rounds_restart_at_each_search) {
  // 90 iterations, 2 searches of 45, rounds of 4: search 0 ends its rounds at 4, 8, ..., 44, 45; search 1 at 49, ...
  BOOST_TEST(fuse::ends_whole_round(0, 90, 2, 4));
  BOOST_TEST(fuse::ends_whole_round(44, 90, 2, 4));
  BOOST_TEST(fuse::ends_whole_round(45, 90, 2, 4));
  BOOST_TEST(!fuse::ends_whole_round(48, 90, 2, 4));
  BOOST_TEST(fuse::ends_whole_round(49, 90, 2, 4));
  BOOST_TEST(fuse::ends_whole_round(89, 90, 2, 4));
  BOOST_TEST(fuse::ends_whole_round(90, 90, 2, 4));
  BOOST_TEST(!fuse::ends_whole_round(91, 90, 2, 4));
  // One search: whole rounds of the batch, or all of them.
  BOOST_TEST(fuse::ends_whole_round(88, 90, 1, 4));
  BOOST_TEST(!fuse::ends_whole_round(89, 90, 1, 4));
  BOOST_TEST(fuse::ends_whole_round(90, 90, 1, 4));
}

BOOST_AUTO_TEST_CASE(selected_when_above_the_threshold_in_every_search) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // p = 4 features, then each search's shadows (ignored here: the thresholds are given).
  const std::vector<std::vector<double>> scores = {{0.9, 0.7, 0.6, nan, 0.1}, {0.8, 0.5, 0.6, 0.9, 0.1}};
  const std::vector<double> thresholds = {0.6, 0.55};
  // x0 above in both; x1 above in search 0 only; x2 equal to search 0's threshold (strictly above is needed); x3 NaN.
  BOOST_TEST((fuse::above_in_every_search(scores, thresholds, 4) == std::vector<FeatureId>{0}));
  const std::vector<double> first_threshold = {0.6};
  BOOST_TEST((fuse::above_in_every_search({scores[0]}, first_threshold, 4) == std::vector<FeatureId>{0, 1}));
  const std::vector<double> mean = fuse::mean_over_searches(scores, 2);
  BOOST_TEST(mean.size() == 2u);
  BOOST_TEST(mean[0] == (0.9 + 0.8) / 2);
  BOOST_TEST(mean[1] == (0.7 + 0.5) / 2);
  BOOST_TEST((fuse::mean_over_searches({scores[1]}, 3) == std::vector<double>{0.8, 0.5, 0.6}));
}

BOOST_AUTO_TEST_SUITE_END()
