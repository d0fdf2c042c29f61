#include "methods/bandit/local_runner.hpp"

#include <chrono>

#include "estimators/estimator.hpp"
#include "methods/bandit/arm_evaluation.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/bandit_source.hpp"
#include "methods/bandit/period_prefetcher.hpp"
#include "methods/bandit/round_driver.hpp"

namespace bfs {

namespace {

using Clock = std::chrono::steady_clock;

/// Evaluates every super-arm of a round in this process, slot by slot. A period's rows are used from its first
/// round on; the next period of the schedule is loaded in the background meanwhile
/// (methods/bandit/period_prefetcher.hpp), so no round sees a later period's rows, and a resumed run skips the earlier
/// periods unread.
class LocalEvaluator final : public RoundEvaluator {
 public:
  LocalEvaluator(const JobConfig& job, const Context& context, DataSource& source)
      : job_(job),
        context_(context),
        description_(source.describe()),  // the prefetch thread owns the source from now on
        periods_(bandit_config(job).mode == Mode::Online ? source.num_periods() : 1),
        estimator_(make_estimator(job.estimator, job.data.task, job.data.missing)),
        settings_(make_evaluation_settings(job, source.feature_names(), context.threads)),
        prefetcher_(source, estimator_.get(), context.threads) {}

  std::vector<ArmOutcome> evaluate(std::int32_t round, int period, const std::vector<ArmDraw>& draws,
                                   Timings& timings) override {
    if (period != prefetcher_.current_period()) {
      const Dataset& data = prefetcher_.get(period, next_period_after(job_, periods_, round));
      timings.data_seconds += prefetcher_.last_wait_seconds();
      timings.load_seconds += prefetcher_.last_load_seconds();
      const bool online = bandit_config(job_).mode == Mode::Online;
      check_period(data, job_, online ? "period " + std::to_string(period) + " of " + description_ : description_);
    }
    const Dataset& data = prefetcher_.current();
    std::vector<ArmOutcome> outcomes;
    outcomes.reserve(draws.size());
    for (std::size_t slot = 0; slot < draws.size(); ++slot)
      outcomes.push_back(evaluate_arm(data, draws[slot].arm, *estimator_, settings_, context_.seed,
                                      static_cast<std::uint64_t>(round), static_cast<std::uint64_t>(slot),
                                      prefetcher_.current_prepared(), prefetcher_.current_has_missing()));
    return outcomes;
  }

 private:
  const JobConfig& job_;
  const Context& context_;
  std::string description_;
  int periods_;
  std::unique_ptr<Estimator> estimator_;
  EvaluationSettings settings_;
  PeriodPrefetcher prefetcher_;  ///< last member: destroyed (joined) first
};

RunResult run_on_source(const JobConfig& job, const std::string& job_text, Context& context, DataSource& source,
                        const RoundCallback& on_round, const RunControl& control, Clock::time_point start) {
  const SourceInfo info = describe_source(source, bandit_config(job).mode == Mode::Online);
  check_online_iterations(job, info.periods);
  JobConfig tuned = job;
  const TuningReport tuning = tune_job(tuned, source, control, context);
  LocalEvaluator evaluator(tuned, context, source);
  return drive_rounds(tuned, job_text, context, info, evaluator, on_round, control, tuning, start);
}

}  // namespace

RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context,
                    const RoundCallback& on_round) {
  return run_local(job, job_text, context, RunControl{}, on_round);
}

RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context, const RunControl& control,
                    const RoundCallback& on_round) {
  const auto start = Clock::now();
  auto source = make_bandit_source(job, context.seed);
  return run_on_source(job, job_text, context, *source, on_round, control, start);
}

RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context, DataSource& source,
                    const RoundCallback& on_round, const RunControl& control) {
  return run_on_source(job, job_text, context, source, on_round, control, Clock::now());
}

}  // namespace bfs
