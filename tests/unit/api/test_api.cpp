// The library API's contract (src/api/banditfs.hpp): a bad job key is a ConfigError naming the key, bad data an
// InputError naming the row and column as the file readers name them, a stop request ends the run after the round in
// progress with an interrupted result, and one Data serves several runs unchanged.
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "api/banditfs.hpp"
#include "api_test_data.hpp"
#include "core/error.hpp"
#include "methods/bandit/bandit_params.hpp"

namespace fs = std::filesystem;
using namespace bfs;

namespace {

/// The ConfigError / InputError `call` throws must contain `needle`.
template <class E, class F>
void expect_error(F call, const std::string& needle) {
  try {
    call();
  } catch (const E& e) {
    BOOST_TEST(std::string(e.what()).find(needle) != std::string::npos,
               "'" << e.what() << "' lacks '" << needle << "'");
    return;
  }
  BOOST_FAIL("no error containing '" + needle + "'");
}

Dataset simulated(bool binary, std::int64_t n = 120, std::int64_t p = 10) {
  return test::friedman_data(n, p, binary);
}

api::ArraysView view_of(const Dataset& data) {
  api::ArraysView view;
  view.X = data.X.data();
  view.rows = data.rows();
  view.cols = data.cols();
  view.y = data.y.data();
  view.feature_names = data.feature_names;
  return view;
}

const char* const kBanditJob = "[estimator]\nname = \"lasso\"\n[bandit]\niterations = 12\n[run]\nthreads = 1\n";
const char* const kFirstJob = "[method]\nname = \"first\"\n[run]\nthreads = 1\n";
const char* const kFuseJob =
    "[method]\nname = \"fuse\"\niterations = 60\nreward_subsample = 30\ntop = 10\n[run]\nthreads = 1\n";

}  // namespace

BOOST_AUTO_TEST_CASE(a_bad_key_is_a_config_error_naming_it) {
  expect_error<ConfigError>([] { api::Job::parse("[bandit]\nitrations = 5\n"); }, "bandit.itrations");
  expect_error<ConfigError>([] { api::Job::parse("", {"bandit.iterations=-3"}); }, "bandit.iterations");
  JobConfig config = api::Job::defaults("bandit");
  bandit_config(config).iterations = -1;
  expect_error<ConfigError>([&] { api::Job::from_config(config); }, "bandit.iterations");
  expect_error<ConfigError>([] { api::Job::defaults("no-such-method"); }, "method.name");
  // The method's own checks run too: fuse needs a binary target.
  expect_error<ConfigError>([] { api::Job::parse("[method]\nname = \"fuse\"\n[data]\ntask = \"regression\"\n"); },
                            "data.task");
}

BOOST_AUTO_TEST_CASE(a_job_built_in_code_has_the_canonical_text_of_the_same_job_from_toml) {
  JobConfig config = api::Job::defaults("first");
  config.run.seed = 11;
  const api::Job built = api::Job::from_config(config);
  const api::Job parsed = api::Job::parse("[method]\nname = \"first\"\n[run]\nseed = 11\n");
  BOOST_TEST(built.text() == parsed.text());
  BOOST_TEST(built.method() == "first");
  BOOST_TEST(api::Job::from_config(parsed.config()).text() == parsed.text());
}

BOOST_AUTO_TEST_CASE(a_nan_in_x_is_missing_and_inf_an_input_error_naming_row_and_column) {
  Dataset data = simulated(false);
  data.X(7, 3) = std::numeric_limits<float>::quiet_NaN();  // a missing cell, counted
  BOOST_TEST(api::Data::from(view_of(data)).dataset().missing[3] == 1);
  data.X(7, 3) = std::numeric_limits<float>::infinity();
  expect_error<InputError>([&] { api::Data::from(view_of(data)); }, "in-memory data: X has +Inf at row 7, column 'x4'");
  data.X(7, 3) = 0.0f;
  data.y[2] = std::numeric_limits<double>::infinity();
  expect_error<InputError>([&] { api::Data::from(view_of(data)); }, "in-memory data: y has +Inf at row 2");
}

BOOST_AUTO_TEST_CASE(shape_names_periods_and_truth_are_checked_as_a_file_s) {
  const Dataset data = simulated(false);
  api::ArraysView view = view_of(data);
  view.feature_names.pop_back();
  expect_error<InputError>([&] { api::Data::from(view); }, "in-memory data: 9 feature names but X has 10 columns");
  view = view_of(data);
  view.feature_names[1] = view.feature_names[0];
  expect_error<InputError>([&] { api::Data::from(view); }, "duplicate feature name 'x1'");
  view = view_of(data);
  std::vector<std::int32_t> periods(static_cast<std::size_t>(data.rows()), 2);
  periods[5] = 1;
  view.periods = periods.data();
  expect_error<InputError>([&] { api::Data::from(view); }, "in-memory data: periods is not sorted at row 5");
  view = view_of(data);
  view.truth = std::vector<std::int32_t>{0, 10};
  expect_error<InputError>([&] { api::Data::from(view); }, "truth index 10 out of range [0, 10)");
  view = view_of(data);
  view.y = nullptr;
  expect_error<InputError>([&] { api::Data::from(view); }, "a null pointer");
}

BOOST_AUTO_TEST_CASE(periods_become_the_offsets_a_file_s_period_column_gives) {
  const Dataset data = simulated(false, 9, 5);
  api::ArraysView view = view_of(data);
  const std::vector<std::int32_t> periods{201001, 201001, 201001, 201002, 201002, 201002, 201003, 201003, 201003};
  view.periods = periods.data();
  const api::Data attached = api::Data::from(view);
  BOOST_TEST(attached.dataset().period_offsets == (std::vector<std::int64_t>{0, 3, 6, 9}),
             boost::test_tools::per_element());
  BOOST_TEST(attached.dataset().period_labels == (std::vector<std::int32_t>{201001, 201002, 201003}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_binary_task_refuses_a_third_class_when_the_run_opens_the_data) {
  Dataset data = simulated(true);
  data.y[4] = 2.0;
  const api::Data attached = api::Data::from(view_of(data));
  expect_error<InputError>([&] { api::run(api::Job::parse(kFuseJob), &attached); }, "in-memory data");
}

BOOST_AUTO_TEST_CASE(logged_data_methods_refuse_attached_x_y) {
  const api::Data attached = api::Data::from(view_of(simulated(false)));
  expect_error<ConfigError>([&] { api::run(api::Job::parse("[method]\nname = \"cmab-scores\"\n"), &attached); },
                            "attach a log");
}

// A stop request is honoured at the end of the round in progress: the round that asked is the last one reported,
// and the result says interrupted after that round (and names no checkpoint: none was asked for).
BOOST_AUTO_TEST_CASE(a_stop_request_ends_the_run_after_the_round_in_progress) {
  struct Case {
    const char* job;
    bool binary;
  };
  for (const Case& c : {Case{kBanditJob, false}, Case{kFirstJob, false}, Case{kFuseJob, true}}) {
    const api::Job job = api::Job::parse(c.job);
    BOOST_TEST_CONTEXT(job.method()) {
      const api::Data data = api::Data::from(view_of(simulated(c.binary)));
      int rounds = 0;
      api::RunOptions options;
      options.on_progress = [&](const api::Progress&) { ++rounds; };
      options.should_stop = [&] { return rounds >= 2; };
      const MethodResult result = api::run(job, &data, options);
      BOOST_TEST(interrupted(result), result.stop_reason);
      BOOST_TEST(rounds == 2);
      BOOST_TEST(result.stop_reason.find(" 2") != std::string::npos, result.stop_reason);  // after round/step 2
      BOOST_TEST(result.stop_reason.find("checkpoint") == std::string::npos, result.stop_reason);
    }
  }
}

BOOST_AUTO_TEST_CASE(one_data_serves_several_runs_unchanged_and_the_outputs_read_back) {
  const Dataset data = simulated(false);
  const api::Data attached = api::Data::from(view_of(data));
  const api::Job job = api::Job::parse(kBanditJob);
  const MethodResult first = api::run(job, &attached);
  const MethodResult second = api::run(job, &attached);
  BOOST_TEST(first.importance == second.importance, boost::test_tools::per_element());
  BOOST_TEST(first.trajectory == second.trajectory, boost::test_tools::per_element());
  BOOST_TEST(attached.dataset().y == data.y);
  BOOST_TEST(first.version == api::version());
  BOOST_TEST(first.data_origin.find("in-memory data") == 0);

  const fs::path dir = fs::temp_directory_path() / ("banditfs_api_" + std::to_string(::getpid()));
  api::write_outputs(first, dir.string());
  for (const char* name : {"result.h5", "summary.csv", "run.json"}) BOOST_TEST(fs::exists(dir / name), name);
  const MethodResult back = api::read_result(dir.string());
  BOOST_TEST(back.importance == first.importance, boost::test_tools::per_element());
  BOOST_TEST(back.rank == first.rank, boost::test_tools::per_element());
  BOOST_TEST(back.job_text == job.text());
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_log_is_checked_as_a_log_file_is_and_only_a_log_method_takes_it) {
  const test::TestLog log = test::friedman_log(30, 4);
  api::LogView view = test::log_view(log, {"a", "b", "c"});
  std::vector<double> reward = log.reward;
  view.reward = reward.data();
  const api::Data attached = api::Data::from_log(view);
  BOOST_TEST(attached.is_log());
  expect_error<ConfigError>([&] { api::run(api::Job::parse(kFirstJob), &attached); }, "attach arrays");
  reward[3] = 2.0;
  expect_error<InputError>([&] { api::Data::from_log(view); }, "in-memory log: reward row 3 is 2, not 0 or 1");
  reward[3] = 1.0;
  view.arm_labels = {"a", "b"};  // code 2 has no label
  expect_error<InputError>([&] { api::Data::from_log(view); }, "in-memory log: row 2: arm code 2 is outside");
}
