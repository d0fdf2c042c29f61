#include "methods/bandit/round_driver.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/stopwatch.hpp"
#include "methods/bandit/bandit_checkpoint.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/coordinator_state.hpp"
#include "methods/bandit/reward.hpp"
#include "methods/bandit/tuning.hpp"
#include "run/job_identity.hpp"

namespace bfs {

namespace {

using Clock = std::chrono::steady_clock;
/// The tuning fits use the data's own columns, without the N(0,1) columns data.noise_features appends (always
/// last). Those are the experiment's control, not data: with the study's 5 000 of them beside 168 characteristics
/// every grid point scores a CV R² below 0 (measured: −0.2% on the gkx-like stand-in), so the choice would be made
/// by noise; and each fit took 27 s instead of ~1 s, with a 7 GB peak for two concurrent fits (XGBoost's histograms
/// grow with the column count).
void drop_noise_columns(Dataset& data, std::int64_t noise) {
  if (noise <= 0) return;
  // The noise features are numeric, one column each, appended after every feature of the data.
  const Index keep = data.features() - static_cast<Index>(noise);
  if (keep < 1 || data.feature_names[static_cast<std::size_t>(keep)] != noise_feature_name(1))
    throw InternalError(data.origin + ": the noise columns are not the last data.noise_features columns");
  const Index keep_columns = data.layout.column_begin(static_cast<FeatureId>(keep));
  Matrix kept = data.X.leftCols(keep_columns);
  data.X = std::move(kept);
  data.feature_names.resize(static_cast<std::size_t>(keep));
  if (!data.layout.one_column_each()) {
    data.layout.offsets.resize(static_cast<std::size_t>(keep) + 1);
    data.layout.levels.resize(static_cast<std::size_t>(keep));
  }
  if (data.missing.size() > static_cast<std::size_t>(keep)) data.missing.resize(static_cast<std::size_t>(keep));
}

}  // namespace

void check_period(const Dataset& data, const JobConfig& job, const std::string& what) {
  if (needs_importance(reward_config(job).rule)) check_splittable(data.rows(), bandit_config(job).test_fraction, what);
  check_target_scale(data.y, what);  // the readers' rule, for a source that is no reader (data made in memory)
  if (data.rows() > 0 && (data.y.array() == data.y[0]).all())
    throw InputError(what + (job.data.task == Task::Binary
                                 ? ": every row is of one class (" + std::to_string(data.y[0]) +
                                       "), so no binary metric or permutation importance is defined"
                                 : ": the target y is constant (" + std::to_string(data.y[0]) +
                                       "), so R² and permutation importance are undefined"));
}

TuningReport tune_job(JobConfig& job, DataSource& source, const RunControl& control, const Context& context) {
  if (!tuning_config(job).enabled) return {};
  if (control.resume) {
    // A checkpoint of a tuning job always holds its choice; without one it is another job's (drive_rounds would
    // refuse it by its hash), so it is refused here, before minutes of tuning.
    const RunResult checkpoint = read_bandit_checkpoint(control.checkpoint_path).state;
    if (!checkpoint.tuning.present)
      throw InputError(control.checkpoint_path +
                       " was written by a different job (it holds no [tuning] choice and "
                       "this job tunes); refusing to resume. Start over with --force, which "
                       "deletes the checkpoint.");
    job.estimator = apply_tuning_report(job.estimator, checkpoint.tuning);
    if (context.log) context.log->info("tuning: the checkpoint's choice is kept (not tuned again)");
    return checkpoint.tuning;
  }
  check_tuning_period(tuning_config(job), source.num_periods());
  Dataset data = source.load_period(tuning_config(job).period);
  drop_noise_columns(data, job.data.noise_features);
  if (context.log)
    context.log->info("tuning {} on period {} ({} rows x {} features, {}-fold CV)", name_of(job.estimator.name),
                      tuning_config(job).period, data.rows(), data.features(), tuning_config(job).folds);
  // A log line at every tenth of the fits: the default grid is 240 fits, minutes on a large first period.
  std::size_t logged_tenths = 0;
  const TuningProgress progress = [&](std::size_t done, std::size_t total) {
    const std::size_t tenths = 10 * done / total;
    if (!context.log || tenths <= logged_tenths || done == total) return;
    logged_tenths = tenths;
    context.log->info("tuning: {} of {} fits", done, total);
  };
  TuningResult tuned = tune_estimator(job.estimator, tuning_config(job), data, context.seed, context.threads, progress);
  job.estimator = tuned.best;
  if (context.log) {
    const TuningReport& r = tuned.report;
    const auto c = static_cast<std::size_t>(r.chosen);
    std::ostringstream chosen;
    for (std::size_t k = 0; k < r.parameters.size(); ++k)
      chosen << (k ? ", " : "") << r.parameters[k] << " = " << r.values[c * r.parameters.size() + k];
    context.log->info("tuning chose {} (mean CV R2 {:.4f} over {} folds; {} points in {:.0f} s)", chosen.str(),
                      r.mean_r2[c], r.folds, r.points(), r.seconds);
  }
  return tuned.report;
}

int driver_passes(const JobConfig& job) {
  if (bandit_config(job).mode != Mode::Online) return 1;
  // Re-batched passes are periods of the source already (methods/bandit/bandit_source.hpp).
  return bandit_config(job).rebatch == Rebatch::None ? bandit_config(job).passes : 1;
}

std::int32_t scheduled_rounds(const JobConfig& job, int periods) {
  if (bandit_config(job).mode != Mode::Online) return bandit_config(job).iterations;
  return driver_passes(job) * periods * bandit_config(job).iterations_per_period;
}

void check_online_iterations(const JobConfig& job, int periods) {
  if (bandit_config(job).mode != Mode::Online || !bandit_config(job).iterations_given) return;
  const std::int32_t rounds = scheduled_rounds(job, periods);
  if (bandit_config(job).iterations == rounds) return;
  throw ConfigError(detail::concat(
      "bandit.iterations = ", bandit_config(job).iterations, ", but this online run's schedule is ", driver_passes(job),
      " pass(es) × ", periods, " period(s) × bandit.iterations_per_period ", bandit_config(job).iterations_per_period,
      " = ", rounds, " rounds: leave bandit.iterations out, or set it to ", rounds));
}

int next_period_after(const JobConfig& job, int periods, std::int32_t round) {
  if (bandit_config(job).mode != Mode::Online || periods < 1 || round < 1 ||
      bandit_config(job).iterations_per_period < 1)
    return -1;
  // The schedule is passes × periods blocks of iterations_per_period rounds, round 1 first (drive_rounds).
  const std::int32_t block = (round - 1) / bandit_config(job).iterations_per_period;
  const std::int32_t next = block + 1;
  if (next >= scheduled_rounds(job, periods) / bandit_config(job).iterations_per_period) return -1;
  return static_cast<int>(next % periods);
}

namespace {

/// The run's facts that do not change over its rounds.
RunResult result_header(const JobConfig& job, const std::string& job_text, const Context& context,
                        const SourceInfo& source, const TuningReport& tuning) {
  RunResult result;
  result.policy = std::string(name_of(bandit_config(job).policy));
  result.estimator = std::string(name_of(job.estimator.name));
  result.job_text = job_text;
  result.seed = context.seed;
  result.threads = context.threads;
  result.task = std::string(name_of(job.data.task));
  result.metric = std::string(name_of(job_metric(job.data, reward_config(job))));
  result.data_origin = source.description;
  result.missing = source.missing;
  result.rows_without_target = source.rows_without_target;
  result.tuning = tuning;
  result.feature_names = source.feature_names;
  return result;
}

/// Applies a round's outcomes in slot order (a posterior update, or a record only when the reward rule discards
/// the evaluation) and adds their times; the report gets the last slot's score and arm size.
void apply_outcomes(const JobConfig& job, std::int32_t round, int period, const std::vector<ArmOutcome>& outcomes,
                    CoordinatorState& state, Timings& timings, RoundReport& report) {
  for (std::size_t slot = 0; slot < outcomes.size(); ++slot) {
    const ArmOutcome& outcome = outcomes[slot];
    timings.fit_seconds += outcome.fit_seconds;
    timings.importance_seconds += outcome.importance_seconds;
    timings.split_seconds += outcome.split_seconds;
    EvaluationRecord record;
    record.iteration = round;
    record.slot = static_cast<std::int32_t>(slot);
    record.period = period;
    record.arm_size = static_cast<std::int32_t>(outcome.arm.size());
    record.test_score = outcome.test_score;
    record.updated = updates_posterior(outcome, reward_config(job)) ? 1 : 0;
    if (std::isfinite(outcome.test_score))  // a failed model's rewards count nowhere, not even here
      for (auto r : outcome.rewards) record.rewards += r;
    if (record.updated)
      state.apply(outcome.arm, outcome.rewards, record);
    else
      state.record(record);  // empty arm or no skill: recorded, but no arm is updated
    report.value = outcome.test_score;
    report.set_size = outcome.arm.size();
  }
}

}  // namespace

RunResult drive_rounds(const JobConfig& job, const std::string& job_text, const Context& context,
                       const SourceInfo& source, RoundEvaluator& evaluator, const RoundCallback& on_round,
                       const RunControl& control, const TuningReport& tuning, Clock::time_point started) {
  const auto wall_start = started;
  const double setup_seconds = seconds_since(started);  // opening the data and tuning, counted as data time
  RunResult result = result_header(job, job_text, context, source, tuning);
  const Index p = static_cast<Index>(source.feature_names.size());
  if (p == 0) throw InputError(source.description + ": p = 0 (no feature columns)");

  CoordinatorState state(p, bandit_config(job), context.seed, source.truth, source.has_truth);
  const methods::ResumeKey key{job_text, job_hash(job), source.fingerprint};
  std::int32_t resume_after = 0;
  if (control.resume) {
    const BanditCheckpoint checkpoint = read_bandit_checkpoint(control.checkpoint_path);
    methods::check_resumable(checkpoint.key, control.checkpoint_path, key);
    state.restore(checkpoint.state);
    resume_after = checkpoint.state.iterations;
    result.timings = checkpoint.state.timings;  // every timing adds up over the starts of a resumed run
    if (context.log) context.log->info("resuming from {} after round {}", control.checkpoint_path, resume_after);
  }
  result.timings.data_seconds += setup_seconds;  // after the restore, so that checkpoints carry it too
  auto write_checkpoint = [&](std::int32_t rounds) {
    const auto start = Clock::now();
    RunResult snapshot = result;
    state.fill_result(snapshot);
    snapshot.iterations = rounds;
    snapshot.stop_reason = "checkpoint after round " + std::to_string(rounds);
    snapshot.resume.present = true;
    snapshot.resume.job_hash = key.job_hash;
    snapshot.resume.data_fingerprint = key.data_fingerprint;
    snapshot.timings.wall_seconds += seconds_since(wall_start);
    write_bandit_checkpoint(control.checkpoint_path, key, snapshot);
    result.timings.checkpoint_seconds += seconds_since(start);
  };

  const int periods = source.periods;
  const int passes = driver_passes(job);
  const int per_period = bandit_config(job).mode == Mode::Online ? bandit_config(job).iterations_per_period
                                                                 : bandit_config(job).iterations;
  const std::int32_t total_rounds = scheduled_rounds(job, periods);

  std::int32_t round = 0;
  bool stop = false;
  bool interrupted_now = false;
  for (int pass = 0; pass < passes && !stop; ++pass) {
    for (int period = 0; period < periods && !stop; ++period) {
      for (int it = 0; it < per_period && !stop; ++it) {
        ++round;
        if (round <= resume_after) continue;  // done before the resume; the period is never loaded for it
        auto start = Clock::now();
        const auto draws = state.draw_round(round);
        result.timings.policy_seconds += seconds_since(start);
        const std::vector<ArmOutcome> outcomes = evaluator.evaluate(round, period, draws, result.timings);
        BFS_CHECK(outcomes.size() == draws.size());
        start = Clock::now();
        RoundReport report;  // field by field: GCC 12 warns on designated initializers that leave members defaulted
        report.round = round;
        report.total_rounds = total_rounds;
        report.label = result.metric;
        report.period = period;
        apply_outcomes(job, round, period, outcomes, state, result.timings, report);
        stop = state.end_round(round, period);
        result.timings.update_seconds += seconds_since(start);
        if (on_round) {
          report.selected = selected_set(state.posterior().means(), state.selection()).size();
          report.last = stop || round == total_rounds;
          on_round(report);
        }
        if (!stop && round < total_rounds)
          stop = interrupted_now = methods::stop_after_round(control, round, [&] { write_checkpoint(round); });
      }
    }
  }
  evaluator.finish();

  state.fill_result(result);
  if (!interrupted_now) require_a_finite_evaluation(result.evaluations, result.metric);
  result.stop_reason = interrupted_now ? "interrupted after round " + std::to_string(round) +
                                             (control.checkpoint_path.empty() ? "" : " (checkpointed)")
                       : stop ? state.stopping().reason()
                              : "schedule complete (" + std::to_string(round) + " rounds)";
  // Like every other timing, the wall time adds up over the starts of a resumed run (the checkpoint carries it).
  result.timings.wall_seconds += seconds_since(wall_start);
  return result;
}

}  // namespace bfs
