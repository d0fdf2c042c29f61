#include <boost/test/unit_test.hpp>
#include <limits>
#include <mutex>

#include "core/error.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/coordinator_state.hpp"
#include "methods/bandit/local_runner.hpp"
#include "methods/bandit/round_driver.hpp"
#include "simulate/dgp.hpp"

using namespace bfs;

namespace {
/// A simulated panel that records which periods were loaded, to check the online schedule never looks ahead. Loads
/// come from the prefetch thread too (methods/bandit/period_prefetcher.hpp): the record is guarded.
class SpySource : public DataSource {
 public:
  SpySource(int periods, std::vector<int>& loads) : loads_(loads), periods_(periods) {
    names_ = default_feature_names(8);
    truth_ = {0, 1, 2, 3, 4};
  }
  int num_periods() const override { return periods_; }
  Index num_features() const override { return 8; }
  const std::vector<std::string>& feature_names() const override { return names_; }
  const std::vector<FeatureId>& truth() const override { return truth_; }
  bool has_truth() const override { return true; }
  Dataset load_period(int k) override {
    {
      const std::lock_guard lock(mutex_);
      loads_.push_back(k);
    }
    return simulate(SimulateSpec{Dgp::Friedman1, 60, 8, 5}, k);
  }
  std::vector<int> loads() const {
    const std::lock_guard lock(mutex_);
    return loads_;
  }
  std::string describe() const override { return "spy"; }

 private:
  mutable std::mutex mutex_;
  std::vector<int>& loads_;
  int periods_;
  std::vector<std::string> names_;
  std::vector<FeatureId> truth_;
};

JobConfig small_online_job() {
  JobConfig job = bandit_job();
  job.estimator.name = EstimatorName::Lasso;
  bandit_config(job).mode = Mode::Online;
  bandit_config(job).iterations_per_period = 2;
  bandit_config(job).passes = 2;
  return job;
}
}  // namespace

BOOST_AUTO_TEST_CASE(online_runs_load_each_period_at_most_one_period_ahead) {
  std::vector<int> loads;
  SpySource source(3, loads);
  Context context;
  context.seed = 3;
  std::vector<std::pair<int, int>> rounds;  // (round, period)
  const RunResult result = run_local(small_online_job(), "", context, source, [&](const RoundReport& r) {
    // The period being played was loaded last, or last but one when the next one is being prefetched.
    const std::vector<int> now = source.loads();
    BOOST_TEST_REQUIRE(!now.empty());
    BOOST_TEST((now.back() == r.period || (now.size() >= 2 && now[now.size() - 2] == r.period)));
    rounds.emplace_back(r.round, r.period);
  });
  // Two passes, in order, each period once per pass, nothing prefetched past the schedule's end.
  BOOST_TEST((source.loads() == std::vector<int>{0, 1, 2, 0, 1, 2}));
  BOOST_TEST(result.iterations == 12);
  BOOST_TEST((result.iteration_period == std::vector<std::int32_t>{0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2}));
  BOOST_TEST(result.trajectory.size() == 12u * 8u);
}

BOOST_AUTO_TEST_CASE(an_online_job_that_names_another_length_than_its_schedule_is_refused) {
  // 2 passes × 3 periods × 2 rounds = 12. Named and different: refused before any round, naming both numbers.
  std::vector<int> loads;
  SpySource source(3, loads);
  Context context;
  JobConfig job = small_online_job();
  bandit_config(job).iterations = 5;
  bandit_config(job).iterations_given = true;
  try {
    run_local(job, "", context, source);
    BOOST_FAIL("expected a ConfigError");
  } catch (const ConfigError& e) {
    const std::string message = e.what();
    BOOST_TEST(message.find("bandit.iterations = 5") != std::string::npos);
    BOOST_TEST(message.find("= 12 rounds") != std::string::npos);
  }
  BOOST_TEST(source.loads().empty());
  // Named and equal, or not named (the default 200 is then not a length at all): the schedule runs.
  bandit_config(job).iterations = 12;
  BOOST_TEST(run_local(job, "", context, source).iterations == 12);
  bandit_config(job).iterations = 200;
  bandit_config(job).iterations_given = false;
  BOOST_TEST(run_local(job, "", context, source).iterations == 12);
}

BOOST_AUTO_TEST_CASE(evaluations_without_skill_update_nothing_when_min_r2_is_set) {
  std::vector<int> loads;
  SpySource source(2, loads);
  Context context;
  JobConfig job = small_online_job();
  reward_config(job).min_r2 = 0.999;  // no lasso fit reaches this on noisy friedman1
  const RunResult result = run_local(job, "", context, source);
  for (double a : result.alpha) BOOST_TEST(a == 1.0);
  for (double b : result.beta) BOOST_TEST(b == 1.0);
  BOOST_TEST(result.evaluations.size() == 8u);
  for (const auto& e : result.evaluations) BOOST_TEST(e.updated == 0);
  reward_config(job).min_r2 = -1e9;
  const RunResult updated = run_local(job, "", context, source);
  for (const auto& e : updated.evaluations) BOOST_TEST(e.updated == 1);
  double total = 0;
  for (double a : updated.alpha) total += a;
  for (double b : updated.beta) total += b;
  BOOST_TEST(total > 16.0);
}

BOOST_AUTO_TEST_CASE(a_constant_target_is_rejected) {
  class ConstantSource : public SpySource {
   public:
    using SpySource::SpySource;
    Dataset load_period(int k) override {
      Dataset d = SpySource::load_period(k);
      d.y.setConstant(1.0);
      return d;
    }
  };
  std::vector<int> loads;
  ConstantSource source(1, loads);
  Context context;
  BOOST_CHECK_THROW(run_local(small_online_job(), "", context, source), InputError);
}

BOOST_AUTO_TEST_CASE(a_run_whose_every_evaluation_is_not_finite_fails) {
  // Every fit "fails" (NaN metric, rewards 1 that must count nowhere): the run must say so, not select from an
  // unmoved prior. With one finite evaluation among them the run completes, and only that one updates.
  class FailingEvaluator : public RoundEvaluator {
   public:
    explicit FailingEvaluator(int finite_round) : finite_round_(finite_round) {}
    std::vector<ArmOutcome> evaluate(std::int32_t round, int, const std::vector<ArmDraw>& draws, Timings&) override {
      std::vector<ArmOutcome> out;
      for (const ArmDraw& draw : draws) {
        ArmOutcome o;
        o.arm = draw.arm;
        o.rewards.assign(draw.arm.size(), 1);
        o.scores.assign(draw.arm.size(), std::numeric_limits<double>::infinity());
        o.test_score = round == finite_round_ ? 0.5 : std::numeric_limits<double>::quiet_NaN();
        out.push_back(std::move(o));
      }
      return out;
    }

   private:
    int finite_round_;
  };
  JobConfig job = bandit_job();
  bandit_config(job).iterations = 4;
  SourceInfo source;
  source.description = "memory";
  source.feature_names = default_feature_names(6);
  Context context;
  FailingEvaluator all_nan(-1);
  BOOST_CHECK_EXCEPTION(
      drive_rounds(job, "", context, source, all_nan, {}, RunControl{}), InputError, [](const InputError& e) {
        BOOST_TEST_INFO(e.what());
        return std::string(e.what()).find("evaluations had a non-finite test r2") != std::string::npos;
      });
  FailingEvaluator one_finite(2);
  const RunResult result = drive_rounds(job, "", context, source, one_finite, {}, RunControl{});
  for (const EvaluationRecord& e : result.evaluations) {
    BOOST_TEST(e.updated == (e.iteration == 2 ? 1 : 0));
    if (e.iteration != 2) BOOST_TEST(e.rewards == 0);
  }
}

BOOST_AUTO_TEST_CASE(a_target_outside_the_arithmetic_is_rejected_from_any_source) {
  class TinySource : public SpySource {
   public:
    using SpySource::SpySource;
    Dataset load_period(int k) override {
      Dataset d = SpySource::load_period(k);
      d.y *= 1e-310;
      return d;
    }
  };
  std::vector<int> loads;
  TinySource source(1, loads);
  Context context;
  BOOST_CHECK_EXCEPTION(run_local(small_online_job(), "", context, source), InputError, [](const InputError& e) {
    BOOST_TEST_INFO(e.what());
    return std::string(e.what()).find("y varies too little for the arithmetic") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(several_arms_per_round_are_applied_before_the_round_closes) {
  BanditConfig bandit;
  bandit.arms_per_round = 3;
  CoordinatorState state(10, bandit, 1, {}, false);
  const auto draws = state.draw_round(1);
  BOOST_TEST(draws.size() == 3u);
  BOOST_TEST((draws[0].arm != draws[1].arm || draws[1].arm != draws[2].arm));
  for (const auto& draw : draws) state.apply(draw.arm, std::vector<std::uint8_t>(draw.arm.size(), 1), {});
  state.end_round(1, 0);
  RunResult result;
  state.fill_result(result);
  BOOST_TEST(result.trajectory.size() == 10u);  // one row per round, not per arm
  BOOST_TEST(result.evaluations.size() == 3u);
  double played = 0;
  for (const auto& draw : draws) played += static_cast<double>(draw.arm.size());
  double alpha_gain = 0;
  for (double a : result.alpha) alpha_gain += a - 1.0;
  BOOST_TEST(alpha_gain == played);
}

BOOST_AUTO_TEST_CASE(truth_metrics_count_discoveries) {
  const TruthMetrics m = truth_metrics({0, 1, 7, 9}, {0, 1, 2});
  BOOST_TEST(m.fdp == 0.5);
  BOOST_TEST(std::abs(m.power - 2.0 / 3.0) < 1e-15);
  BOOST_TEST(m.hamming == 3);
  const TruthMetrics none = truth_metrics({}, {0, 1});
  BOOST_TEST(none.fdp == 0.0);
  BOOST_TEST(none.power == 0.0);
  BOOST_TEST(none.hamming == 2);
}

BOOST_AUTO_TEST_CASE(an_offline_run_records_separation_and_is_reproducible) {
  JobConfig job = bandit_job();
  job.data.n = 200;
  job.data.p = 15;
  job.estimator.random_forest.n_estimators = 30;
  bandit_config(job).iterations = 40;
  Context context;
  context.seed = 11;
  context.threads = 2;
  const RunResult a = run_local(job, "", context);
  context.threads = 1;
  const RunResult b = run_local(job, "", context);
  BOOST_TEST(a.trajectory == b.trajectory);
  BOOST_TEST(a.alpha == b.alpha);
  BOOST_TEST(a.metrics.known);
  BOOST_TEST(a.metrics.power == 1.0);
  // separation_iteration is the first trajectory row that separates truth from noise (or −1 if none does).
  const Index p = a.num_features();
  std::int32_t first = -1;
  for (std::int32_t it = 0; it < a.iterations && first < 0; ++it) {
    std::vector<double> means(a.trajectory.begin() + it * p, a.trajectory.begin() + (it + 1) * p);
    for (auto& m : means) m = static_cast<float>(m);
    if (separates(means, a.truth)) first = it + 1;
  }
  BOOST_TEST(a.metrics.separation_iteration == first);
  BOOST_TEST((a.metrics.hamming == 0) ==
             separates(std::vector<double>(a.trajectory.end() - p, a.trajectory.end()), a.truth));
}
