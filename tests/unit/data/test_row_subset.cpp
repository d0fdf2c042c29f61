// A data set or a log at some of its rows (data/row_subset.hpp): stability selection's halves keep every property that
// is not per row (names, the categorical layout and levels, truth, origin, arms) and take the per-row ones at the rows.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "data/row_subset.hpp"

using namespace bfs;

namespace {

/// 8 rows: a numeric feature x (NaN at rows 1 and 6), a categorical feature c of levels a, b, missing (2 columns
/// + its missing indicator), two periods of 4 rows.
Dataset small() {
  Dataset d;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  d.X.resize(8, 4);
  for (Index i = 0; i < 8; ++i) {
    d.X(i, 0) = (i == 1 || i == 6) ? nan : static_cast<float>(i);
    const int level = i == 3 ? 2 : static_cast<int>(i % 2);  // row 3 is missing
    for (int l = 0; l < 3; ++l) d.X(i, 1 + l) = level == l ? 1.0f : 0.0f;
  }
  d.y.resize(8);
  for (Index i = 0; i < 8; ++i) d.y(i) = 10.0 * static_cast<double>(i);
  d.feature_names = {"x", "c"};
  d.layout.offsets = {0, 1, 4};
  d.layout.levels = {{}, {"a", "b", "missing"}};
  d.missing = {2, 1};
  d.period_offsets = {0, 4, 8};
  d.period_labels = {2001, 2002};
  d.truth = {1};
  d.has_truth = true;
  d.origin = "small";
  validate_dataset(d);
  return d;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_subset_keeps_layout_names_truth_and_periods) {
  const std::vector<Index> rows = {1, 3, 4, 7};
  const Dataset s = subset_rows(small(), rows);
  validate_dataset(s);
  BOOST_TEST(s.rows() == 4);
  BOOST_TEST(s.cols() == 4);
  BOOST_TEST(s.feature_names == small().feature_names);
  BOOST_TEST(s.layout.offsets == small().layout.offsets);
  BOOST_TEST(s.layout.levels == small().layout.levels);
  BOOST_TEST(s.truth == FeatureSet{1});
  BOOST_TEST(s.has_truth);
  BOOST_TEST(s.origin == "small");
  BOOST_TEST(s.period_offsets == (std::vector<std::int64_t>{0, 2, 4}));
  BOOST_TEST(s.period_labels == (std::vector<std::int32_t>{2001, 2002}));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    BOOST_TEST(s.y(static_cast<Index>(i)) == 10.0 * static_cast<double>(rows[i]));
    BOOST_TEST(s.X(static_cast<Index>(i), 2) == small().X(rows[i], 2));
  }
  // Missing cells of the subset's rows: x is NaN at row 1 only, c is missing at row 3.
  BOOST_TEST(s.missing == (std::vector<std::int64_t>{1, 1}));
}

BOOST_AUTO_TEST_CASE(a_period_without_rows_or_unsorted_rows_are_refused) {
  BOOST_CHECK_THROW(subset_rows(small(), std::vector<Index>{0, 1, 2}), InternalError);
  BOOST_CHECK_THROW(subset_rows(small(), std::vector<Index>{4, 1}), InternalError);
  BOOST_CHECK_THROW(subset_rows(small(), std::vector<Index>{1, 8}), InternalError);
}

BOOST_AUTO_TEST_CASE(a_log_subset_keeps_its_columns_arms_and_rewards_at_the_rows) {
  LoggedHeader h;
  h.origin = "log";
  h.rows = 6;
  h.cols = 2;
  h.feature_names = {"u", "v"};
  h.categorical = {0, 1};
  h.category_labels = {{}, {"p", "q"}};
  h.arm_labels = {"A", "B"};
  h.arm = {0, 1, 0, 1, 0, 1};
  h.reward = {1, 0, 0, 1, 1, 0};
  h.truth = {0};
  h.has_truth = true;
  std::vector<float> x = {0, 1, 2, 3, 4, 5, /* v */ 0, 1, 1, 0, 0, 1};
  const std::vector<Index> rows = {0, 3, 4, 5};
  const auto sub = subset_log_rows(h, x, rows);
  const LoggedHeader& s = sub->header();
  BOOST_TEST(s.rows == 4);
  BOOST_TEST(s.feature_names == h.feature_names);
  BOOST_TEST(s.categorical == h.categorical);
  BOOST_TEST(s.category_labels == h.category_labels);
  BOOST_TEST(s.arm_labels == h.arm_labels);
  BOOST_TEST(s.arm == (std::vector<std::int32_t>{0, 1, 0, 1}));
  BOOST_TEST(s.reward == (std::vector<std::uint8_t>{1, 1, 1, 0}));
  BOOST_TEST(s.truth == FeatureSet{0});
  BOOST_TEST(sub->columns(0, 2) == (std::vector<float>{0, 3, 4, 5, 0, 0, 0, 1}));
}
