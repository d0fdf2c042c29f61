#include <hdf5.h>

#include <boost/test/unit_test.hpp>
#include <chrono>
#include <filesystem>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "methods/bandit/bandit_checkpoint.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/local_runner.hpp"
#include "methods/bandit/run_result_h5.hpp"
#include "methods/common/checkpoint_seal.hpp"
#include "output/result_io.hpp"
#include "run/job_identity.hpp"

using namespace bfs;
namespace fs = std::filesystem;

namespace {
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("bfs_ckpt_" + std::to_string(::getpid()) + "_" + std::to_string(rand()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

JobConfig offline_job() {
  JobConfig job = bandit_job();
  job.data.n = 150;
  job.data.p = 12;
  job.estimator.name = EstimatorName::Lasso;
  bandit_config(job).iterations = 25;
  bandit_config(job).stop = StopRule::RankStable;
  bandit_config(job).stop_window = 100;  // never fires in 25 rounds, but its state must survive the restart
  return job;
}

JobConfig online_job() {
  JobConfig job = offline_job();
  job.data.periods = 4;
  bandit_config(job).mode = Mode::Online;
  bandit_config(job).iterations_per_period = 3;
  bandit_config(job).passes = 2;
  job.estimator.name = EstimatorName::RandomForest;
  job.estimator.random_forest.n_estimators = 10;
  return job;
}

/// Runs `job` uninterrupted, then interrupted after round `stop_after` and resumed; both must agree exactly.
void check_resume_equals_uninterrupted(const JobConfig& job, int stop_after) {
  TempDir dir;
  Context context;
  context.seed = 9;
  const RunResult whole = run_local(job, "", context);

  RunControl control;
  control.checkpoint_path = (dir.path / "checkpoint.h5").string();
  int rounds_seen = 0;
  control.stop_requested = [&] { return ++rounds_seen >= stop_after; };
  const RunResult first = run_local(job, "", context, control);
  BOOST_TEST_REQUIRE(interrupted(first));
  BOOST_TEST(first.iterations == stop_after);
  BOOST_TEST(read_run_state_h5(control.checkpoint_path).iterations == stop_after);

  control.stop_requested = {};
  control.resume = true;
  context.threads = 2;  // a resume may use another thread count
  const RunResult checkpoint = read_run_state_h5(control.checkpoint_path);
  const auto resume_start = std::chrono::steady_clock::now();
  const RunResult resumed = run_local(job, "", context, control);
  const double resume_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - resume_start).count();
  // Timings add up over the starts: the checkpoint's share plus at most this start's time, never this start alone.
  BOOST_TEST(resumed.timings.wall_seconds >= checkpoint.timings.wall_seconds);
  BOOST_TEST(resumed.timings.wall_seconds <= checkpoint.timings.wall_seconds + resume_seconds);
  BOOST_TEST(resumed.timings.fit_seconds >= checkpoint.timings.fit_seconds);
  BOOST_TEST(resumed.timings.data_seconds >= checkpoint.timings.data_seconds);
  BOOST_TEST(!interrupted(resumed));
  BOOST_TEST(resumed.iterations == whole.iterations);
  BOOST_TEST(resumed.trajectory == whole.trajectory);
  BOOST_TEST(resumed.alpha == whole.alpha);
  BOOST_TEST(resumed.beta == whole.beta);
  BOOST_TEST(resumed.iteration_period == whole.iteration_period);
  BOOST_TEST(resumed.evaluations.size() == whole.evaluations.size());
  for (std::size_t i = 0; i < whole.evaluations.size(); ++i) {
    BOOST_TEST(resumed.evaluations[i].test_score == whole.evaluations[i].test_score);
    BOOST_TEST(resumed.evaluations[i].rewards == whole.evaluations[i].rewards);
  }
  BOOST_TEST(resumed.stop_reason == whole.stop_reason);
}
}  // namespace

BOOST_AUTO_TEST_CASE(an_offline_run_resumed_after_any_round_equals_the_uninterrupted_run) {
  for (int stop_after : {1, 7, 24}) check_resume_equals_uninterrupted(offline_job(), stop_after);
}

BOOST_AUTO_TEST_CASE(an_online_run_resumed_mid_period_and_mid_pass_equals_the_uninterrupted_run) {
  for (int stop_after : {2, 3, 13, 20}) check_resume_equals_uninterrupted(online_job(), stop_after);
}

// The calibrated nulls keep no state of their own, so a resumed run equals the uninterrupted one.
BOOST_AUTO_TEST_CASE(runs_with_a_calibrated_null_resume_exactly) {
  JobConfig shadow = offline_job();
  reward_config(shadow).null = RewardNull::Shadow;
  reward_config(shadow).shadows = 4;
  check_resume_equals_uninterrupted(shadow, 5);
  JobConfig paired = online_job();
  reward_config(paired).null = RewardNull::Paired;
  check_resume_equals_uninterrupted(paired, 3);
}

// [TVS]: TVS with BART rewards keeps no state beyond the posterior (each evaluation's chain is drawn from its own
// stream), so a run stopped after round k and resumed equals the uninterrupted one — offline (eq. 9) and online
// (eq. 10), with the selected-set stopping rule's state carried over.
BOOST_AUTO_TEST_CASE(a_tvs_bart_run_resumes_exactly) {
  JobConfig job = offline_job();
  job.estimator.name = EstimatorName::Bart;
  job.estimator.bart.n_estimators = 5;
  job.estimator.bart.sweeps = 20;
  bandit_config(job).policy = PolicyKind::Tvs;
  bandit_config(job).iterations = 10;
  bandit_config(job).stop = StopRule::SelectedStable;
  reward_config(job).rule = RewardRule::BartLastDraw;
  check_resume_equals_uninterrupted(job, 4);
  JobConfig online = online_job();
  online.estimator.name = EstimatorName::Bart;
  online.estimator.bart = job.estimator.bart;
  bandit_config(online).policy = PolicyKind::Tvs;
  bandit_config(online).stop = StopRule::SelectedStable;
  reward_config(online).rule = RewardRule::BartMeanSplits;
  check_resume_equals_uninterrupted(online, 5);
}

BOOST_AUTO_TEST_CASE(periodic_checkpoints_are_written_atomically) {
  TempDir dir;
  Context context;
  RunControl control;
  control.checkpoint_path = (dir.path / "checkpoint.h5").string();
  control.checkpoint_every = 10;
  const RunResult result = run_local(offline_job(), "", context, control);
  const RunResult checkpoint = read_run_state_h5(control.checkpoint_path);
  BOOST_TEST(checkpoint.iterations == 20);
  BOOST_TEST(checkpoint.resume.present);
  BOOST_TEST(!fs::exists(control.checkpoint_path + ".tmp"));
  const std::vector<float> prefix(result.trajectory.begin(), result.trajectory.begin() + 20 * 12);
  BOOST_TEST(checkpoint.trajectory == prefix);
}

BOOST_AUTO_TEST_CASE(a_checkpoint_of_another_job_or_other_data_is_refused) {
  TempDir dir;
  Context context;
  RunControl control;
  control.checkpoint_path = (dir.path / "checkpoint.h5").string();
  control.checkpoint_every = 5;
  run_local(offline_job(), "", context, control);
  control.resume = true;

  JobConfig other = offline_job();
  reward_config(other).threshold = 0.02;
  BOOST_CHECK_EXCEPTION(run_local(other, "", context, control), InputError, [](const InputError& e) {
    return std::string(e.what()).find("different job") != std::string::npos;
  });
  JobConfig other_data = offline_job();
  other_data.data.p = 13;
  BOOST_CHECK_THROW(run_local(other_data, "", context, control), InputError);
  // Output directory and thread count are not part of the job's identity.
  JobConfig elsewhere = offline_job();
  elsewhere.run.out = "somewhere/else";
  elsewhere.run.threads = 2;
  BOOST_TEST(job_hash(elsewhere) == job_hash(offline_job()));
  BOOST_CHECK_NO_THROW(run_local(elsewhere, "", context, control));
}

BOOST_AUTO_TEST_CASE(a_tuning_job_refuses_the_checkpoint_of_an_untuned_run_before_tuning) {
  TempDir dir;
  Context context;
  JobConfig job = offline_job();
  job.estimator.name = EstimatorName::Gbm;
  job.estimator.gbm.n_estimators = 5;
  RunControl control;
  control.checkpoint_path = (dir.path / "checkpoint.h5").string();
  int rounds_seen = 0;
  control.stop_requested = [&] { return ++rounds_seen >= 3; };
  BOOST_TEST_REQUIRE(interrupted(run_local(job, "", context, control)));

  tuning_config(job).enabled = true;
  tuning_config(job).folds = 2;
  control.stop_requested = {};
  control.resume = true;
  try {
    run_local(job, "", context, control);
    BOOST_FAIL("resumed another job's checkpoint");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("no [tuning] choice") != std::string::npos, e.what());
  }
}

// The bandit's checkpoint is methods/common's (kind "bandit checkpoint", the resume key in its header): another
// method's checkpoint, or a state whose parts disagree, is refused naming the file, and the file is left as it was.
BOOST_AUTO_TEST_CASE(another_methods_or_an_inconsistent_checkpoint_is_refused_naming_the_file) {
  TempDir dir;
  Context context;
  RunControl control;
  control.checkpoint_path = (dir.path / "checkpoint.h5").string();
  control.checkpoint_every = 5;
  run_local(offline_job(), "", context, control);
  const BanditCheckpoint good = read_bandit_checkpoint(control.checkpoint_path);
  BOOST_TEST(good.state.iterations == 25 - 5);
  BOOST_TEST(good.key.job_hash == job_hash(offline_job()));
  // `inspect` reads it as a pre-layout result (output/result_h5_read.cpp, read_old_layout).
  const MethodResult inspected = read_result_h5(control.checkpoint_path);
  BOOST_TEST(inspected.method == "bandit");
  BOOST_TEST(inspected.iterations == 20);
  BOOST_TEST(inspected.trajectory == good.state.trajectory);
  control.resume = true;

  const auto expect_refused = [&](const std::string& fragment) {
    const auto before = fs::file_size(control.checkpoint_path);
    try {
      run_local(offline_job(), "", context, control);
      BOOST_FAIL("resumed a checkpoint that should be refused (" << fragment << ")");
    } catch (const InputError& e) {
      const std::string what = e.what();
      BOOST_TEST(what.find(control.checkpoint_path) != std::string::npos, what);
      BOOST_TEST(what.find(fragment) != std::string::npos, what);
    }
    BOOST_TEST(fs::file_size(control.checkpoint_path) == before);
  };
  // One more round than the trajectory holds.
  {
    detail::H5Handle file = detail::h5_file(H5Fopen(control.checkpoint_path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT));
    detail::H5Handle attr = detail::h5_attr(H5Aopen(file.get(), "iterations", H5P_DEFAULT));
    const std::int32_t rounds = 21;
    BOOST_TEST_REQUIRE(H5Awrite(attr.get(), H5T_NATIVE_INT32, &rounds) >= 0);
  }
  expect_refused("do not match its digest");          // the seal sees the edit first
  methods::seal_checkpoint(control.checkpoint_path);  // sealed again, the state itself must be refused
  expect_refused("inconsistent state");
  // Another method's checkpoint.
  methods::write_checkpoint(control.checkpoint_path, {"first forward-selection checkpoint", "first", good.key},
                            [](hid_t) {});
  expect_refused("not a bandit checkpoint");
}
