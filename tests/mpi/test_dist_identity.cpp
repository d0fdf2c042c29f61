// Run under mpiexec at 1, 2, 3 and 4 ranks (tests/mpi/CMakeLists.txt). Every case runs a job distributed over all
// ranks with arms_per_round G = 1 and G = 4 and, on rank 0, the same job in one process (another thread
// count), and asserts that every deterministic output — posterior, trajectory, evaluation records, selected set — is
// bit-identical (docs/design.md §1). The distributed run goes through the registry, as the CLI's
// does.
#define BOOST_TEST_MODULE dist_identity
#include <boost/test/unit_test.hpp>
#include <cstring>
#include <memory>
#include <optional>

#include "config/schema.hpp"
#include "dist/runtime.hpp"
#include "identity.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/bandit_result.hpp"
#include "methods/bandit/local_runner.hpp"
#include "methods/registry.hpp"
#include "mpi_session.hpp"

using namespace bfs;

namespace {

/// Runs `job` distributed (threads 1) and, on rank 0, locally (threads 2); compares on rank 0. G = 1 and 4.
/// Returns, on rank 0, the local run with G = 4.
std::optional<RunResult> check_job(JobConfig job) {
  std::optional<RunResult> last_local;
  for (int arms_per_round : {1, 4}) {
    BOOST_TEST_CONTEXT("arms_per_round = " << arms_per_round << ", ranks = " << g_session->size()) {
      bandit_config(job).arms_per_round = arms_per_round;
      Context distributed_context;
      distributed_context.seed = job.run.seed;
      distributed_context.threads = 1;
      const dist::Runtime runtime = dist::make_runtime(*g_session, 1);
      const std::string job_text = "job";
      const auto distributed = methods::find("bandit").run(
          MethodRun{job, job_text, distributed_context, *runtime.comm, *runtime.executor, RunControl{}, {}});
      BOOST_TEST(distributed.has_value() == (g_session->rank() == 0));
      if (g_session->rank() != 0) continue;
      BOOST_TEST(distributed->ranks == g_session->size());
      Context local_context;
      local_context.seed = job.run.seed;
      local_context.threads = 2;
      const RunResult local = run_local(job, "job", local_context);
      BOOST_TEST(local.evaluations.size() > 0u);
      BOOST_TEST(local.tuning.present == tuning_config(job).enabled);
      testing::expect_identical(bandit::to_method_result(local), *distributed);
      last_local = local;
    }
  }
  return last_local;
}

JobConfig offline_job(const std::string& estimator) {
  JobConfig job = bandit_job();
  job.data.source = SourceKind::Simulate;
  job.data.dgp = Dgp::Friedman1;
  job.data.n = 120;
  job.data.p = 24;
  job.estimator.name = *enum_from_name<EstimatorName>(estimator);
  bandit_config(job).iterations = 5;
  bandit_config(job).policy = PolicyKind::Ttts;
  job.run.seed = 11;
  return job;
}

/// [TVS]'s TVS with BART rewards read from the model (5 trees, 20 sweeps), on friedman1 with n = 60, p = 30.
JobConfig tvs_bart_job(RewardRule rule) {
  JobConfig job = offline_job("bart");
  job.data.n = 60;
  job.data.p = 30;
  job.estimator.bart.n_estimators = 5;
  job.estimator.bart.sweeps = 20;
  bandit_config(job).policy = PolicyKind::Tvs;
  bandit_config(job).iterations = 8;
  reward_config(job).rule = rule;
  return job;
}

/// The job is one the CLI accepts (the schema's cross-key checks), and its rewards are not all equal.
void check_tvs_bart_job(const JobConfig& job) {
  BOOST_REQUIRE_NO_THROW(parse_job(methods::catalog(), dump_job(job), "job.toml"));
  const std::optional<RunResult> local = check_job(job);
  if (!local) return;
  std::int64_t ones = 0, played = 0;
  for (const EvaluationRecord& evaluation : local->evaluations) {
    ones += evaluation.rewards;
    played += evaluation.arm_size;
  }
  BOOST_TEST(ones > 0);
  BOOST_TEST(ones < played);
}

}  // namespace

BOOST_AUTO_TEST_CASE(random_forest_offline_with_noise_features) {
  JobConfig job = offline_job("random_forest");
  job.estimator.random_forest.n_estimators = 15;
  job.estimator.random_forest.max_depth = 5;
  job.data.noise_features = 6;
  check_job(job);
}

BOOST_AUTO_TEST_CASE(gbm_online_over_periods_relative_reward) {
  JobConfig job = offline_job("gbm");
  job.data.periods = 3;
  bandit_config(job).mode = Mode::Online;
  bandit_config(job).iterations_per_period = 2;
  bandit_config(job).time_series = true;
  job.estimator.gbm.n_estimators = 20;
  reward_config(job).rule = RewardRule::Relative;
  reward_config(job).threshold = 0.02;
  check_job(job);
}

// hgb fits select their rows and columns from the period's bins, prepared on the prefetch thread of the process
// that fits: online over periods with noise columns, and offline on bootstrap resamples (repeated rows).
BOOST_AUTO_TEST_CASE(hgb_on_prepared_period_bins_online_and_bootstrap) {
  JobConfig online = offline_job("hgb");
  online.data.periods = 3;
  online.data.noise_features = 5;
  bandit_config(online).mode = Mode::Online;
  bandit_config(online).iterations_per_period = 2;
  online.estimator.hgb.n_estimators = 15;
  online.estimator.hgb.min_samples_leaf = 5;
  online.estimator.hgb.colsample = 0.7;
  check_job(online);
  JobConfig bootstrap = offline_job("hgb");
  bandit_config(bootstrap).bootstrap = true;
  bootstrap.estimator.hgb.n_estimators = 15;
  bootstrap.estimator.hgb.min_samples_leaf = 5;
  check_job(bootstrap);
}

BOOST_AUTO_TEST_CASE(lasso_with_grouped_features_and_bernoulli_reward) {
  JobConfig job = offline_job("lasso");
  reward_config(job).rule = RewardRule::Bernoulli;
  reward_config(job).groups = {{"x1", "x2"}, {"x6", "x7", "x8"}};
  check_job(job);
}

BOOST_AUTO_TEST_CASE(mlp_and_lasso_nonzero) {
  JobConfig mlp = offline_job("mlp");
  mlp.estimator.mlp.max_epochs = 15;
  bandit_config(mlp).iterations = 3;
  check_job(mlp);
  JobConfig nonzero = offline_job("lasso");
  reward_config(nonzero).rule = RewardRule::LassoNonzero;
  bandit_config(nonzero).policy = PolicyKind::Tvs;
  check_job(nonzero);
}

BOOST_AUTO_TEST_CASE(gbm_tuned_on_the_first_period_by_rank_0) {
  JobConfig job = offline_job("gbm");
  job.data.periods = 2;
  bandit_config(job).mode = Mode::Online;
  bandit_config(job).iterations_per_period = 2;
  job.estimator.gbm.n_estimators = 10;
  tuning_config(job).enabled = true;
  tuning_config(job).folds = 2;
  tuning_config(job).learning_rate = {0.05, 0.3};
  tuning_config(job).n_estimators = {};
  tuning_config(job).max_leaves = {};
  tuning_config(job).max_depth = {2, 4};
  tuning_config(job).min_child_weight = {};
  tuning_config(job).lambda = {};
  check_job(job);
}

// A binary bandit job (Bernoulli labels of friedman1, AUC drops) gives the same result at every rank
// count, for the forest (Gini leaves, double summation) and XGBoost's logistic ensemble (float32 sigmoid).
BOOST_AUTO_TEST_CASE(binary_targets_with_auc_and_log_loss) {
  JobConfig forest = offline_job("random_forest");
  forest.data.task = Task::Binary;
  forest.estimator.random_forest.n_estimators = 15;
  forest.estimator.random_forest.max_depth = 5;
  check_job(forest);
  JobConfig boosted = offline_job("gbm");
  boosted.data.task = Task::Binary;
  reward_config(boosted).metric = Metric::LogLoss;
  boosted.estimator.gbm.n_estimators = 20;
  check_job(boosted);
}

// Both calibrated nulls give the same result at every rank count. With G = 1 every rank beyond the
// coordinator is in one group, so the arm's importance blocks are split across members and each member scores the
// shadows beside its block; online mode exercises a period's shadows.
BOOST_AUTO_TEST_CASE(shadow_and_paired_nulls_offline_and_online) {
  JobConfig shadow = offline_job("random_forest");
  shadow.estimator.random_forest.n_estimators = 15;
  shadow.estimator.random_forest.max_depth = 5;
  reward_config(shadow).null = RewardNull::Shadow;
  reward_config(shadow).shadow_quantile = 0.8;
  check_job(shadow);
  JobConfig paired = offline_job("gbm");
  paired.estimator.gbm.n_estimators = 20;
  paired.data.periods = 2;
  bandit_config(paired).mode = Mode::Online;
  bandit_config(paired).iterations_per_period = 2;
  reward_config(paired).rule = RewardRule::Relative;
  reward_config(paired).null = RewardNull::Paired;
  reward_config(paired).alpha = 0.1;
  check_job(paired);
  JobConfig online_shadow = paired;
  reward_config(online_shadow).null = RewardNull::Shadow;
  reward_config(online_shadow).alpha = 0.05;
  reward_config(online_shadow).shadows = 3;
  check_job(online_shadow);
}

// [TVS]: TVS with BART rewards gives the same result at every rank count — eq. 9 (the last sweep's forest splits
// on the feature) offline, eq. 10 (mean split count ≥ reward.min_splits) online over three periods. Each evaluation's
// sampler draws from its own stream, so neither the rank nor the thread count can change a chain.
BOOST_AUTO_TEST_CASE(tvs_bart_last_draw_offline) {
  check_tvs_bart_job(tvs_bart_job(RewardRule::BartLastDraw));
}

BOOST_AUTO_TEST_CASE(tvs_bart_mean_splits_online_over_periods) {
  JobConfig job = tvs_bart_job(RewardRule::BartMeanSplits);
  job.data.periods = 3;
  bandit_config(job).mode = Mode::Online;
  bandit_config(job).iterations_per_period = 3;
  bandit_config(job).iterations = 9;
  reward_config(job).min_splits = 0.5;
  check_tvs_bart_job(job);
}
