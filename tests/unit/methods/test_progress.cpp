// The progress record every method fills (run/progress.hpp): its own label, and a selected count that is what the
// method has at that point — the bandit's after each round, the last report's equal to the result's, and none while
// FUSE and cmab-scores have not selected yet.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "config/schema.hpp"
#include "methods/comm.hpp"
#include "methods/executor.hpp"
#include "methods/registry.hpp"

using namespace bfs;

namespace {

struct Seen {
  std::vector<RoundReport> reports;
  std::vector<std::string> labels;  ///< copies: a report's label may point into the method's own state
};

MethodResult run_method(const std::string& text, Seen& seen) {
  const JobConfig job = parse_job(methods::catalog(), text, "job.toml");
  const Method& method = methods::find(job.method.name);
  method.validate(job);
  Context context;
  context.seed = job.run.seed;
  SoloComm comm;
  LocalExecutor executor(1);
  const std::string job_text = dump_job(job);
  const RunControl control;
  const RoundCallback on_round = [&](const RoundReport& r) {
    seen.reports.push_back(r);
    seen.labels.emplace_back(r.label);
  };
  const auto result = method.run(MethodRun{job, job_text, context, comm, executor, control, on_round});
  BOOST_TEST_REQUIRE(result.has_value());
  return *result;
}

/// Exactly one last report, the final one, with the result's selected count and the method's label.
void expect_last_report(const Seen& seen, const MethodResult& result, const std::string& label) {
  BOOST_TEST_REQUIRE(!seen.reports.empty());
  const RoundReport& last = seen.reports.back();
  BOOST_TEST(last.last);
  BOOST_TEST_REQUIRE(last.selected.has_value());
  BOOST_TEST(*last.selected == result.selected.size());
  BOOST_TEST(!result.selected.empty());  // the count compared is not 0 by accident
  for (std::size_t i = 0; i < seen.reports.size(); ++i) {
    BOOST_TEST(seen.labels[i] == label);
    BOOST_TEST(seen.reports[i].last == (i + 1 == seen.reports.size()));
  }
}

const std::string kSimulated = "[data]\nsource = \"simulate\"\ndgp = \"friedman1\"\nn = 120\np = 10\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(progress_record)

BOOST_AUTO_TEST_CASE(the_bandit_reports_its_selected_set_after_every_round) {
  Seen seen;
  const MethodResult result = run_method(kSimulated +
                                             "[estimator]\nname = \"lasso\"\n[bandit]\niterations = 12\n"
                                             "[run]\nseed = 4\n",
                                         seen);
  expect_last_report(seen, result, "r2");
  BOOST_TEST_REQUIRE(seen.reports.size() == 12u);
  // The selected set after round t is the posterior means' (mean >= 0.5 for TS): row t of the trajectory.
  const std::size_t p = result.num_features();
  for (std::size_t t = 0; t < seen.reports.size(); ++t) {
    std::size_t selected = 0;
    for (std::size_t k = 0; k < p; ++k) selected += result.trajectory[t * p + k] >= 0.5f ? 1 : 0;
    BOOST_TEST(seen.reports[t].selected.value_or(p + 1) == selected, "round " << t + 1);
    BOOST_TEST(seen.reports[t].period == 0);
    BOOST_TEST(seen.reports[t].round == static_cast<std::int32_t>(t + 1));
  }
}

BOOST_AUTO_TEST_CASE(first_reports_its_forward_set_then_the_selected_set) {
  Seen seen;
  const MethodResult result = run_method(
      "[method]\nname = \"first\"\ninner_samples = 2\nouter_samples = 60\n" + kSimulated + "[run]\nseed = 4\n", seen);
  expect_last_report(seen, result, "explained");
  for (std::size_t i = 0; i + 1 < seen.reports.size(); ++i) {
    BOOST_TEST(seen.reports[i].selected.value_or(0) == static_cast<std::size_t>(seen.reports[i].round));
    BOOST_TEST(seen.reports[i].period == -1);
  }
}

BOOST_AUTO_TEST_CASE(fuse_has_no_selected_count_until_its_search_is_done) {
  Seen seen;
  const MethodResult result =
      run_method("[method]\nname = \"fuse\"\niterations = 60\nsearches = 1\nreward_subsample = 30\ntop = 10\n" +
                     kSimulated + "task = \"binary\"\n[run]\nseed = 4\n",
                 seen);
  expect_last_report(seen, result, "auc");
  BOOST_TEST(seen.reports.size() >= 2u);
  for (std::size_t i = 0; i + 1 < seen.reports.size(); ++i) BOOST_TEST(!seen.reports[i].selected.has_value());
}

BOOST_AUTO_TEST_CASE(cmab_scores_has_no_selected_count_until_every_feature_is_scored) {
  Seen seen;
  const MethodResult result = run_method(
      "[method]\nname = \"cmab-scores\"\nselect = \"top\"\nselect_top = 3\n[data]\nsource = \"simulate\"\ndgp = "
      "\"cmab-hte\"\n"
      "n = 2000\np = 10\n[run]\nseed = 4\n",
      seen);
  expect_last_report(seen, result, "scored");
  BOOST_TEST(result.selected.size() == 3u);
  for (std::size_t i = 0; i + 1 < seen.reports.size(); ++i) BOOST_TEST(!seen.reports[i].selected.has_value());
  BOOST_TEST(seen.reports.back().value == 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
