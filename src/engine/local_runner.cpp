#include "engine/local_runner.hpp"

#include <chrono>

#include "engine/arm_evaluation.hpp"
#include "engine/data_sources.hpp"
#include "engine/round_driver.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

namespace {

using Clock = std::chrono::steady_clock;

/// Evaluates every super-arm of a round in this process, slot by slot; a period's rows are loaded when its first
/// round is evaluated (so no row of a later period is seen early, and a resumed run skips earlier periods unread).
class LocalEvaluator final : public RoundEvaluator {
 public:
  LocalEvaluator(const JobConfig& job, const Context& context, DataSource& source)
      : job_(job),
        context_(context),
        source_(source),
        estimator_(make_estimator(job.estimator, job.data.task)),
        settings_(make_evaluation_settings(job, source.feature_names(), context.threads)) {}

  std::vector<ArmOutcome> evaluate(std::int32_t round, int period, const std::vector<ArmDraw>& draws,
                                   Timings& timings) override {
    if (period != loaded_period_) {
      const auto start = Clock::now();
      data_ = source_.load_period(period);
      loaded_period_ = period;
      timings.data_seconds += std::chrono::duration<double>(Clock::now() - start).count();
      const bool online = job_.bandit.mode == Mode::Online;
      check_period(data_, job_,
                   online ? "period " + std::to_string(period) + " of " + source_.describe() : source_.describe());
    }
    std::vector<ArmOutcome> outcomes;
    outcomes.reserve(draws.size());
    for (std::size_t slot = 0; slot < draws.size(); ++slot)
      outcomes.push_back(evaluate_arm(data_, draws[slot].arm, *estimator_, settings_, context_.seed,
                                      static_cast<std::uint64_t>(round), static_cast<std::uint64_t>(slot)));
    return outcomes;
  }

 private:
  const JobConfig& job_;
  const Context& context_;
  DataSource& source_;
  std::unique_ptr<Estimator> estimator_;
  EvaluationSettings settings_;
  Dataset data_;
  int loaded_period_ = -1;
};

RunResult run_on_source(const JobConfig& job, const std::string& job_text, Context& context, DataSource& source,
                        const RoundCallback& on_round, const RunControl& control, Clock::time_point start) {
  const SourceInfo info = describe_source(source, job.bandit.mode == Mode::Online);
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
