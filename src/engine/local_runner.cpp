#include "engine/local_runner.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "output/result_io.hpp"
#include "engine/arm_evaluation.hpp"
#include "engine/coordinator_state.hpp"
#include "engine/data_sources.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

namespace {

using Clock = std::chrono::steady_clock;

std::string fnv1a_hex(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(h));
  return buffer;
}

/// Rejects a period whose rows cannot be evaluated: too few rows, or a constant target (R² is undefined).
void check_period(const Dataset& data, const BanditConfig& bandit, const std::string& what, bool needs_split) {
  if (needs_split) check_splittable(data.rows(), bandit.test_fraction, what);
  if (data.rows() > 0 && (data.y.array() == data.y[0]).all())
    throw InputError(what + ": the target y is constant (" + std::to_string(data.y[0]) +
                     "), so R² and permutation importance are undefined");
}

/// Source description, shape and a hash of the feature names: enough to refuse a checkpoint of other data.
std::string data_fingerprint(const DataSource& source) {
  std::string text = source.describe() + "|p=" + std::to_string(source.num_features()) +
                     "|periods=" + std::to_string(source.num_periods());
  for (const auto& name : source.feature_names()) text += "|" + name;
  return fnv1a_hex(text);
}

void check_resumable(const RunResult& checkpoint, const std::string& path, const std::string& hash,
                     const std::string& fingerprint) {
  if (!checkpoint.resume.present)
    throw InputError(path + " is not a checkpoint (no resume state); cannot --resume from it");
  if (checkpoint.resume.job_hash != hash)
    throw InputError(path + " was written by a different job (its algorithmic keys differ from this job's); "
                            "refusing to resume. Run without --resume to start afresh.");
  if (checkpoint.resume.data_fingerprint != fingerprint)
    throw InputError(path + " was written for different data (source, shape or feature names differ); "
                            "refusing to resume.");
}

}  // namespace

std::string job_hash(const JobConfig& job) {
  JobConfig canonical = job;
  const RunConfig defaults;
  canonical.run.out = defaults.out;
  canonical.run.threads = defaults.threads;
  canonical.run.progress_seconds = defaults.progress_seconds;
  canonical.run.checkpoint_every = defaults.checkpoint_every;
  return fnv1a_hex(dump_job(canonical));
}

RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context,
                    const RoundCallback& on_round) {
  return run_local(job, job_text, context, RunControl{}, on_round);
}

RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context, const RunControl& control,
                    const RoundCallback& on_round) {
  const auto start = Clock::now();
  auto source = make_data_source(job.data, context.seed, job.bandit.mode == "online");
  RunResult result = run_local(job, job_text, context, *source, on_round, control);
  result.timings.data_seconds += std::chrono::duration<double>(Clock::now() - start).count() - result.timings.wall_seconds;
  result.timings.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

RunResult run_local(const JobConfig& job, const std::string& job_text, Context& context, DataSource& source,
                    const RoundCallback& on_round, const RunControl& control) {
  const auto wall_start = Clock::now();
  const bool online = job.bandit.mode == "online";
  RunResult result;
  result.policy = job.bandit.policy;
  result.estimator = job.estimator.name;
  result.job_text = job_text;
  result.seed = context.seed;
  result.threads = context.threads;

  result.data_origin = source.describe();
  result.feature_names = source.feature_names();
  const Index p = source.num_features();
  if (p == 0) throw InputError(source.describe() + ": p = 0 (no feature columns)");

  const auto estimator = make_estimator(job.estimator);
  const EvaluationSettings settings = make_evaluation_settings(job, result.feature_names, context.threads);
  const bool needs_split = job.reward.rule != "lasso-nonzero";
  CoordinatorState state(p, job.bandit, context.seed, source.truth(), source.has_truth());
  const std::string hash = job_hash(job);
  const std::string fingerprint = data_fingerprint(source);
  std::int32_t resume_after = 0;
  if (control.resume) {
    const RunResult checkpoint = read_result_h5(control.checkpoint_path);
    check_resumable(checkpoint, control.checkpoint_path, hash, fingerprint);
    state.restore(checkpoint);
    resume_after = checkpoint.iterations;
    result.timings = checkpoint.timings;
    if (context.log) context.log->info("resuming from {} after round {}", control.checkpoint_path, resume_after);
  }
  auto write_checkpoint = [&](std::int32_t rounds) {
    RunResult snapshot = result;
    state.fill_result(snapshot);
    snapshot.iterations = rounds;
    snapshot.stop_reason = "checkpoint after round " + std::to_string(rounds);
    snapshot.resume.present = true;
    snapshot.resume.job_hash = hash;
    snapshot.resume.data_fingerprint = fingerprint;
    snapshot.timings.wall_seconds += std::chrono::duration<double>(Clock::now() - wall_start).count();
    write_result_h5(snapshot, control.checkpoint_path);
  };

  const int periods = online ? source.num_periods() : 1;
  const int passes = online ? job.bandit.passes : 1;
  const int per_period = online ? job.bandit.iterations_per_period : job.bandit.iterations;
  const std::int32_t total_rounds = passes * periods * per_period;

  std::int32_t round = 0;
  bool stop = false;
  bool interrupted_now = false;
  for (int pass = 0; pass < passes && !stop; ++pass) {
    for (int period = 0; period < periods && !stop; ++period) {
      // Rounds of this period already done before a resume are skipped without loading the period.
      if (round + per_period <= resume_after) {
        round += per_period;
        continue;
      }
      const auto data_start = Clock::now();
      const Dataset data = source.load_period(period);
      result.timings.data_seconds += std::chrono::duration<double>(Clock::now() - data_start).count();
      const std::string what = online ? "period " + std::to_string(period) + " of " + source.describe()
                                      : source.describe();
      check_period(data, job.bandit, what, needs_split);

      for (int it = 0; it < per_period && !stop; ++it) {
        ++round;
        if (round <= resume_after) continue;
        auto policy_start = Clock::now();
        const auto draws = state.draw_round(round);
        result.timings.policy_seconds += std::chrono::duration<double>(Clock::now() - policy_start).count();
        RoundReport report{round, total_rounds, period, 0, 0.0, 0};
        for (std::size_t slot = 0; slot < draws.size(); ++slot) {
          const ArmOutcome outcome =
              evaluate_arm(data, draws[slot].arm, *estimator, settings, context.seed, static_cast<std::uint64_t>(round),
                           static_cast<std::uint64_t>(slot));
          result.timings.fit_seconds += outcome.fit_seconds;
          result.timings.importance_seconds += outcome.importance_seconds;
          result.timings.split_seconds += outcome.split_seconds;
          EvaluationRecord record;
          record.iteration = round;
          record.slot = static_cast<std::int32_t>(slot);
          record.period = period;
          record.arm_size = static_cast<std::int32_t>(outcome.arm.size());
          record.r2_test = outcome.r2_test;
          for (auto r : outcome.rewards) record.rewards += r;
          record.updated = updates_posterior(outcome, job.reward) ? 1 : 0;
          policy_start = Clock::now();
          if (record.updated) state.apply(outcome.arm, outcome.rewards, record);
          else state.record(record);  // empty arm or no skill: recorded, but no arm is updated
          result.timings.policy_seconds += std::chrono::duration<double>(Clock::now() - policy_start).count();
          report.r2_test = outcome.r2_test;
          report.arm_size = outcome.arm.size();
        }
        stop = state.end_round(round, period);
        if (on_round) {
          report.selected = selected_set(state.posterior().means()).size();
          on_round(report);
        }
        if (!control.checkpoint_path.empty() && !stop) {
          const bool due = control.checkpoint_every > 0 && round % control.checkpoint_every == 0;
          interrupted_now = round < total_rounds && control.stop_requested && control.stop_requested();
          if (due || interrupted_now) write_checkpoint(round);
          if (interrupted_now) stop = true;
        }
      }
    }
  }

  state.fill_result(result);
  result.stop_reason = interrupted_now ? "interrupted after round " + std::to_string(round) + " (checkpointed)"
                       : stop          ? state.stopping().reason()
                                       : "schedule complete (" + std::to_string(round) + " rounds)";
  result.timings.wall_seconds = std::chrono::duration<double>(Clock::now() - wall_start).count();
  return result;
}

}  // namespace bfs
