// The summary of R runs (run/stability_summary.hpp) on hand-made runs; the expected numbers are numpy 1.24's
// (np.quantile's default "linear", np.std(ddof=1)), printed with repr and pasted here.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "run/stability_summary.hpp"

using namespace bfs;

namespace {

/// Four runs of four features: importance, selected flags, ranks (the ranks need not follow the importance here).
std::vector<RunOutcome> four_runs() {
  return {{{0.9, 0.1, 0.5, 0.3}, {1, 0, 1, 0}, {1, 4, 2, 3}},
          {{0.7, 0.2, 0.55, 0.31}, {1, 0, 1, 0}, {1, 4, 3, 2}},
          {{0.8, 0.05, 0.6, 0.2}, {1, 0, 0, 0}, {2, 4, 1, 3}},
          {{0.95, 0.15, 0.4, 0.33}, {1, 1, 0, 0}, {1, 3, 2, 4}}};
}

void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  BOOST_TEST_REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < got.size(); ++k) BOOST_TEST(got[k] == want[k], boost::test_tools::tolerance(1e-14));
}

}  // namespace

BOOST_AUTO_TEST_CASE(linear_quantile_is_numpys_default) {
  const std::vector<double> x = {3.0, -1.0, 2.5, 10.0, 7.0};  // unsorted on purpose
  const std::vector<std::pair<double, double>> numpy = {
      {0.0, -1.0}, {0.05, -0.29999999999999993}, {0.25, 2.5}, {0.5, 3.0},
      {0.9, 8.8},  {0.95, 9.399999999999999},    {1.0, 10.0}};
  for (const auto& [q, want] : numpy) BOOST_TEST(linear_quantile(x, q) == want, boost::test_tools::tolerance(1e-15));
  BOOST_TEST(linear_quantile({4.0}, 0.05) == 4.0);
  BOOST_TEST(std::isnan(linear_quantile({1.0, std::numeric_limits<double>::quiet_NaN(), 2.0}, 0.5)));
  BOOST_CHECK_THROW(linear_quantile({}, 0.5), InternalError);
}

BOOST_AUTO_TEST_CASE(summary_of_four_hand_made_runs_equals_numpy) {
  const StabilitySummary s = summarize_runs(four_runs());
  BOOST_TEST(s.runs == 4);
  check_close(s.selection_frequency, {1.0, 0.25, 0.5, 0.0});
  check_close(s.importance_mean, {0.8375000000000001, 0.125, 0.5125, 0.28500000000000003});
  check_close(s.importance_sd, {0.11086778913041725, 0.06454972243679027, 0.08539125638299665, 0.05802298395176404});
  check_close(s.importance_q05, {0.715, 0.0575, 0.41500000000000004, 0.21500000000000002});
  check_close(s.importance_q50, {0.8500000000000001, 0.125, 0.525, 0.305});
  check_close(s.importance_q95, {0.9424999999999999, 0.1925, 0.5924999999999999, 0.327});
  check_close(s.rank_mean, {1.25, 3.75, 2.0, 3.0});
  check_close(s.rank_sd, {0.5, 0.5, 0.816496580927726, 0.816496580927726});
  BOOST_TEST(stable_set(s, 0.5) == (FeatureSet{0, 2}));
  BOOST_TEST(stable_set(s, 0.75) == (FeatureSet{0}));
  BOOST_TEST(stable_set(s, 0.25) == (FeatureSet{0, 1, 2}));
}

BOOST_AUTO_TEST_CASE(identical_runs_have_no_spread_and_one_run_no_sd) {
  auto runs = four_runs();
  const StabilitySummary same = summarize_runs({runs[1], runs[1], runs[1]});
  check_close(same.importance_mean, runs[1].importance);
  check_close(same.importance_q05, runs[1].importance);
  check_close(same.importance_q95, runs[1].importance);
  check_close(same.importance_sd, {0, 0, 0, 0});
  check_close(same.selection_frequency, {1, 0, 1, 0});
  const StabilitySummary one = summarize_runs({runs[0]});
  BOOST_TEST(std::isnan(one.importance_sd[0]));
  BOOST_TEST(one.importance_q50[2] == 0.5);
}

BOOST_AUTO_TEST_CASE(columns_name_every_per_feature_vector_in_output_order) {
  StabilitySummary s = summarize_runs(four_runs());
  std::vector<std::string> names;
  for (const auto& [name, values] : s.columns()) {
    names.push_back(name);
    BOOST_TEST(values->size() == 4u);
  }
  BOOST_TEST(names ==
             (std::vector<std::string>{"selection_frequency", "importance_mean", "importance_sd", "importance_q05",
                                       "importance_q50", "importance_q95", "rank_mean", "rank_sd"}));
}

BOOST_AUTO_TEST_CASE(runs_of_other_sizes_are_refused) {
  auto runs = four_runs();
  runs[2].rank.pop_back();
  BOOST_CHECK_THROW(summarize_runs(runs), InternalError);
  BOOST_CHECK_THROW(summarize_runs({}), InternalError);
}
