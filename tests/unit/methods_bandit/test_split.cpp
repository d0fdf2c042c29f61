#include <boost/test/unit_test.hpp>
#include <set>

#include "core/error.hpp"
#include "methods/bandit/split.hpp"

using namespace bfs;

BOOST_AUTO_TEST_CASE(an_offline_split_is_a_shuffled_80_20_partition) {
  const SplitSettings settings{0.2, true, false};
  const TrainTestSplit split = make_split(101, settings, 1, 2, 0);
  BOOST_TEST(split.test.size() == 21u);  // ⌈0.2 · 101⌉
  BOOST_TEST(split.train.size() == 80u);
  std::set<Index> all(split.train.begin(), split.train.end());
  all.insert(split.test.begin(), split.test.end());
  BOOST_TEST(all.size() == 101u);
  BOOST_TEST(!std::is_sorted(split.test.begin(), split.test.end()));
  const TrainTestSplit again = make_split(101, settings, 1, 2, 0);
  BOOST_TEST(again.test == split.test);
  BOOST_TEST(make_split(101, settings, 1, 3, 0).test != split.test);
}

BOOST_AUTO_TEST_CASE(the_bootstrap_resamples_only_training_rows) {
  const TrainTestSplit split = make_split(200, SplitSettings{0.2, true, true}, 4, 1, 0);
  const TrainTestSplit plain = make_split(200, SplitSettings{0.2, true, false}, 4, 1, 0);
  BOOST_TEST(split.test == plain.test);
  BOOST_TEST(split.train.size() == plain.train.size());
  const std::set<Index> train_rows(plain.train.begin(), plain.train.end());
  for (Index row : split.train) BOOST_TEST(train_rows.count(row) == 1u);
  const std::set<Index> distinct(split.train.begin(), split.train.end());
  BOOST_TEST(distinct.size() < split.train.size());  // with replacement: about 63% distinct
}

BOOST_AUTO_TEST_CASE(a_time_series_split_keeps_order_and_tests_on_the_last_rows) {
  const TrainTestSplit split = make_split(10, SplitSettings{0.2, false, false}, 1, 1, 0);
  BOOST_TEST((split.train == std::vector<Index>{0, 1, 2, 3, 4, 5, 6, 7}));
  BOOST_TEST((split.test == std::vector<Index>{8, 9}));
}

BOOST_AUTO_TEST_CASE(too_few_rows_are_rejected_with_the_count) {
  BOOST_CHECK_NO_THROW(check_splittable(10, 0.2, "data.h5"));
  try {
    check_splittable(4, 0.2, "data.h5");
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("data.h5 has 4 rows") != std::string::npos);
  }
}
