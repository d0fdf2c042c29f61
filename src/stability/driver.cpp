// Stability selection's driver (stability.hpp): the data loaded once, 2B runs of the method on complementary halves
// through the Executor in waves, the checkpoint between waves, and the summary as the result.
// Waves: run/stability_selection.hpp (wave_size) says why a wave is a few seconds of runs per worker. A stop request
// is seen at the end of a wave; results do not depend on the wave sizes, as run i's draws are keyed by i.
#include <algorithm>
#include <chrono>
#include <tuple>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/fnv1a.hpp"
#include "data/row_subset.hpp"
#include "run/data_sources.hpp"
#include "run/source_info.hpp"
#include "run/stability_selection.hpp"
#include "stability/detail/checkpoint.hpp"
#include "stability/stability.hpp"

namespace bfs::stability {
namespace {

using Clock = std::chrono::steady_clock;
using bfs::detail::concat;
using detail::RunFacts;
using detail::StabilityCheckpoint;

/// The data every run halves, held by every rank: (X, y) without the columns [data] appends on the fly (noise,
/// knockoffs: each run appends its own to its half, as it would to a file), or a log with all its columns.
struct Plan {
  std::shared_ptr<const Dataset> data;
  std::shared_ptr<const LoggedSource> log;
  std::vector<float> log_x;  ///< the log's columns, column-major
  Index rows = 0;
  std::vector<std::int64_t> period_offsets;
  std::string origin;
  std::string fingerprint;
  FeatureSet truth;
  bool has_truth = false;
  std::vector<std::int64_t> missing;
  std::int64_t rows_without_target = 0;
};

/// Every period of `source` in one data set; the periods kept as period offsets when there are several.
Dataset load_whole(DataSource& source) {
  const int periods = source.num_periods();
  std::vector<Dataset> parts;
  Index rows = 0;
  for (int k = 0; k < periods; ++k) {
    parts.push_back(source.load_period(k));
    rows += parts.back().rows();
  }
  Dataset out;
  out.X.resize(rows, parts.front().cols());
  out.y.resize(rows);
  Index at = 0;
  if (periods > 1) out.period_offsets.push_back(0);
  for (const Dataset& part : parts) {
    out.X.middleRows(at, part.rows()) = part.X;
    out.y.segment(at, part.rows()) = part.y;
    at += part.rows();
    if (periods > 1) out.period_offsets.push_back(at);
  }
  out.feature_names = source.feature_names();
  out.layout = parts.front().layout;
  out.missing = source.missing();
  out.rows_without_target = source.rows_without_target();
  out.truth = source.truth();
  out.has_truth = source.has_truth();
  out.origin = parts.front().origin;
  return out;
}

std::string log_fingerprint(const LoggedHeader& h) {
  std::string names, arms;
  for (const std::string& name : h.feature_names) names += name + "|";
  for (const std::string& label : h.arm_labels) arms += "|" + label;
  return concat(h.origin, "|rows=", h.rows, "|cols=", h.cols, "|arms", arms, "|names=", fnv1a_hex(names));
}

Plan make_plan(const MethodRun& run) {
  const JobConfig& job = run.job;
  Plan plan;
  if (job.method.logged_data) {
    plan.log =
        run.logged ? run.logged : std::shared_ptr<const LoggedSource>(make_logged_source(job.data, run.context.seed));
    const LoggedHeader& h = plan.log->header();
    plan.log_x = plan.log->columns(0, h.cols);
    plan.rows = h.rows;
    plan.origin = h.origin;
    plan.fingerprint = log_fingerprint(h);
    plan.truth = h.truth;
    plan.has_truth = h.has_truth;
  } else {
    DataConfig plain = job.data;
    plain.noise_features = 0;
    plain.knockoffs = Knockoffs::None;
    const bool online = job.method.params && job.method.params.get()->online();
    const std::unique_ptr<DataSource> source = make_data_source(plain, run.context.seed, online, run.data);
    plan.fingerprint = describe_source(*source, online).fingerprint;
    auto whole = std::make_shared<const Dataset>(load_whole(*source));
    plan.rows = whole->rows();
    plan.period_offsets = whole->period_offsets;
    plan.origin = whole->origin;
    plan.truth = whole->truth;
    plan.has_truth = whole->has_truth;
    plan.missing = whole->missing;
    plan.rows_without_target = whole->rows_without_target;
    plan.data = std::move(whole);
  }
  const std::vector<std::int64_t> offsets =
      plan.period_offsets.empty() ? std::vector<std::int64_t>{0, plan.rows} : plan.period_offsets;
  for (std::size_t k = 0; k + 1 < offsets.size(); ++k)
    if (offsets[k + 1] - offsets[k] < 4)
      throw InputError(concat(plan.origin, ": period ", k, " has ", offsets[k + 1] - offsets[k],
                              " rows; stability selection halves every period's rows and needs at least 4 in each"));
  return plan;
}

/// The job of one run: no stability section, the run's seed, and y as loaded (binary labels are 0/1 already).
JobConfig run_job(const JobConfig& job, std::uint64_t seed) {
  JobConfig out = job;
  out.stability = StabilityConfig{};
  out.run.seed = seed;
  out.data.positive_label.reset();
  return out;
}

/// A run's task result: p, then importance, selected flags and rank (p each), then the RunFacts as bytes (the same
/// for every run; names separated by '\0').
std::vector<double> encode_run(const MethodResult& r) {
  const std::size_t p = r.feature_names.size();
  std::vector<double> out;
  out.push_back(static_cast<double>(p));
  out.insert(out.end(), r.importance.begin(), r.importance.end());
  std::vector<double> flags(p, 0.0);
  for (const FeatureId f : r.selected) flags[static_cast<std::size_t>(f)] = 1.0;
  out.insert(out.end(), flags.begin(), flags.end());
  out.insert(out.end(), r.rank.begin(), r.rank.end());
  std::string facts = r.importance_meaning + '\0' + r.own_group() + '\0' + r.task;
  for (const std::string& name : r.feature_names) facts += '\0' + name;
  for (const char c : facts) out.push_back(static_cast<double>(static_cast<unsigned char>(c)));
  return out;
}

RunOutcome outcome_of(const double* values, std::size_t p) {
  RunOutcome o;
  o.importance.assign(values, values + p);
  for (std::size_t k = 0; k < p; ++k) o.selected.push_back(values[p + k] != 0.0 ? 1 : 0);
  for (std::size_t k = 0; k < p; ++k) o.rank.push_back(static_cast<std::int32_t>(values[2 * p + k]));
  return o;
}

RunFacts facts_of(const std::vector<double>& task, std::size_t p) {
  std::string bytes;
  for (std::size_t i = 1 + 3 * p; i < task.size(); ++i) bytes += static_cast<char>(static_cast<unsigned char>(task[i]));
  std::vector<std::string> parts(1);
  for (const char c : bytes) {
    if (c == '\0')
      parts.emplace_back();
    else
      parts.back().push_back(c);
  }
  BFS_CHECK(parts.size() == 3 + p, "a stability run's facts hold ", parts.size(), " parts for ", p, " features");
  return {std::vector<std::string>(parts.begin() + 3, parts.end()), parts[0], parts[1], parts[2]};
}

/// Run i of the 2B: the method on its half, in this process on one thread.
std::vector<double> run_one(const Method& method, const JobConfig& job, const Plan& plan, std::int64_t i) {
  const HalfPair halves = complementary_halves(plan.period_offsets, plan.rows, job.run.seed, i / 2);
  const std::vector<Index>& rows = i % 2 == 0 ? halves.first : halves.second;
  const JobConfig half_job = run_job(job, stability_run_seed(job.run.seed, i));
  const std::string text = dump_job(half_job);
  Context context;
  context.seed = half_job.run.seed;
  context.threads = 1;
  const SoloComm comm;
  LocalExecutor executor(1);
  const RunControl control;
  const RoundCallback quiet;
  MethodRun sub{half_job, text, context, comm, executor, control, quiet};
  if (plan.log)
    sub.logged = subset_log_rows(plan.log->header(), plan.log_x, rows);
  else
    sub.data = std::make_shared<const Dataset>(subset_rows(*plan.data, rows));
  const std::string where = concat("stability run ", i + 1, " (", rows.size(), " of ", plan.rows, " rows): ");
  std::optional<MethodResult> result;
  try {
    result = method.run(sub);
  } catch (const ConfigError& e) {
    throw ConfigError(where + e.what());
  } catch (const InputError& e) {
    throw InputError(where + e.what());
  }
  BFS_CHECK(result && !interrupted(*result), where, "the method returned no result");
  return encode_run(*result);
}

double threshold_of(const StabilityConfig& config, double q, std::size_t p) {
  if (config.threshold) return *config.threshold;
  if (config.max_false) return threshold_for_max_false(q, static_cast<std::int64_t>(p), *config.max_false);
  return kDefaultStabilityThreshold;
}

/// The finished runs, rank 0's (the others keep only the count).
struct Progress {
  std::int64_t done = 0;
  std::vector<RunOutcome> outcomes;
  RunFacts facts;
};

StabilityCheckpoint checkpoint_of(const methods::ResumeKey& key, const Progress& progress) {
  StabilityCheckpoint c{key, progress.done, {}, progress.facts};
  for (const RunOutcome& o : progress.outcomes) {
    c.outcomes.insert(c.outcomes.end(), o.importance.begin(), o.importance.end());
    for (const std::uint8_t s : o.selected) c.outcomes.push_back(s);
    c.outcomes.insert(c.outcomes.end(), o.rank.begin(), o.rank.end());
  }
  return c;
}

/// On --resume: rank 0 reads the checkpoint into `progress`; every rank learns how many runs are done.
void resume(const MethodRun& run, const methods::Checkpointing& checkpointing, std::int64_t total, Progress& progress) {
  const std::optional<std::string> done = checkpointing.resume(
      [](const std::string& path) { return detail::read_stability_checkpoint(path); },
      [&](const StabilityCheckpoint& c) {
        BFS_CHECK(c.done <= total, "a checkpoint of ", c.done, " runs for a job of ", total);
        const std::size_t p = c.facts.feature_names.size();
        progress.facts = c.facts;
        for (std::int64_t i = 0; i < c.done; ++i)
          progress.outcomes.push_back(outcome_of(c.outcomes.data() + static_cast<std::size_t>(i) * 3 * p, p));
        return std::to_string(c.done);
      });
  if (!done) return;
  progress.done = std::stoll(*done);
  checkpointing.log_resume(concat("stability run ", progress.done, " of ", total));
}

/// What every rank does next, decided by rank 0 after a wave.
struct NextWave {
  bool stop = false;
  std::int64_t runs_per_worker = 1;
};

/// After a wave that took the runs from `before` to progress.done in `seconds`: rank 0 reports each run, checkpoints
/// when a multiple of run.checkpoint_every was passed or a stop was requested, and sizes the next wave; its decision
/// is broadcast.
NextWave after_wave(const MethodRun& run, const methods::Checkpointing& checkpointing, std::int64_t before,
                    std::int64_t total, const Progress& progress, double seconds, std::int64_t runs_per_worker) {
  NextWave next;
  bool& stop = next.stop;
  if (run.comm.rank() == 0) {
    next.runs_per_worker = runs_per_worker_for(seconds, runs_per_worker);
    double selected = 0.0;
    for (std::int64_t i = 0; i < before; ++i)
      for (const std::uint8_t s : progress.outcomes[static_cast<std::size_t>(i)].selected) selected += s;
    for (std::int64_t i = before; i < progress.done && run.on_round; ++i) {
      for (const std::uint8_t s : progress.outcomes[static_cast<std::size_t>(i)].selected) selected += s;
      RoundReport report;
      report.round = static_cast<std::int32_t>(i + 1);
      report.total_rounds = static_cast<std::int32_t>(total);
      report.unit = "stability run";
      report.label = "mean selected";
      report.value = selected / static_cast<double>(i + 1);
      run.on_round(report);
    }
    const RunControl& control = run.control;
    stop = control.stop_requested && control.stop_requested();
    const std::int64_t every = control.checkpoint_every;
    const bool periodic = every > 0 && before / every != progress.done / every;
    if ((stop || periodic) && !control.checkpoint_path.empty())
      detail::write_stability_checkpoint(control.checkpoint_path, run.job.method.name,
                                         checkpoint_of(checkpointing.key(), progress));
  }
  if (run.comm.size() > 1) {
    const std::string decision = run.comm.broadcast(concat(stop ? 1 : 0, " ", next.runs_per_worker), 0);
    next.stop = decision.front() == '1';
    next.runs_per_worker = std::stoll(decision.substr(2));
  }
  return next;
}

MethodResult make_result(const MethodRun& run, const Plan& plan, const Progress& progress) {
  const StabilityConfig& config = run.job.stability;
  const RunFacts& facts = progress.facts;
  const std::size_t p = facts.feature_names.size();
  MethodResult r;
  r.stability = summarize_runs(progress.outcomes);
  StabilitySummary& s = r.stability;
  s.pairs = config.pairs;
  s.mean_selected = mean_selected(progress.outcomes);
  s.threshold = threshold_of(config, s.mean_selected, p);
  s.max_false = config.max_false.value_or(0.0);
  s.bound_mb = bound_meinshausen_buhlmann(s.mean_selected, static_cast<std::int64_t>(p), s.threshold);
  s.bound_ss = bound_shah_samworth_unimodal(s.mean_selected, static_cast<std::int64_t>(p), s.threshold, config.pairs);
  r.method = run.job.method.name;
  r.group = facts.group;
  r.task = facts.task;
  r.data_origin = plan.origin;
  r.job_text = run.job_text;
  r.seed = run.job.run.seed;
  r.ranks = run.comm.size();
  r.threads = run.executor.threads();
  r.iterations = static_cast<std::int32_t>(progress.done);
  r.iteration_unit = "stability runs";
  r.stop_reason = concat("stability selection: ", progress.done, " runs on the halves of ", config.pairs,
                         " complementary pairs; selected: frequency >= ", s.threshold);
  r.importance_meaning = "mean " + facts.importance_meaning;
  r.feature_names = facts.feature_names;
  r.importance = s.importance_mean;
  rank_by_importance(r);
  r.selected = stable_set(s, s.threshold);
  r.interval_level = run.job.run.interval;
  std::tie(r.importance_lo, r.importance_hi) = importance_range(progress.outcomes, r.interval_level);
  if (plan.has_truth) {
    r.truth = plan.truth;
    r.metrics = truth_metrics(r.selected, r.truth);
  }
  if (!plan.missing.empty() && plan.missing.size() <= p) {  // the appended noise and knockoff columns miss nothing
    r.missing = plan.missing;
    r.missing.resize(p, 0);
  }
  r.rows_without_target = plan.rows_without_target;
  return r;
}

void log_result(const MethodRun& run, const MethodResult& r) {
  if (!run.context.log) return;
  const StabilitySummary& s = r.stability;
  run.context.log->info(
      "stability selection: {} features with frequency >= {:.4g} of {}; q = {:.3g} selected per run; E[false "
      "selections] <= {:.3g} (Meinshausen-Buehlmann), {:.3g} (Shah-Samworth, unimodal)",
      r.selected.size(), s.threshold, r.feature_names.size(), s.mean_selected, s.bound_mb, s.bound_ss);
  if (s.max_false > 0.0 && s.bound_mb > s.max_false)
    run.context.log->warn(
        "stability.max_false = {:g} is out of reach: q = {:.3g} of p = {} features gives E[V] <= {:.3g} even at "
        "threshold 1; a method that selects fewer features per run (or more features) lowers it",
        s.max_false, s.mean_selected, r.feature_names.size(), s.bound_mb);
}

}  // namespace

std::optional<MethodResult> run(const Method& method, const MethodRun& run) {
  const auto start = Clock::now();
  const JobConfig& job = run.job;
  const Plan plan = make_plan(run);
  const std::int64_t total = 2 * static_cast<std::int64_t>(job.stability.pairs);
  const methods::Checkpointing checkpointing(run, plan.fingerprint);
  Progress progress;
  resume(run, checkpointing, total, progress);
  if (run.context.log && run.comm.rank() == 0)
    run.context.log->info("stability selection: {} runs of {} on complementary halves of {} rows ({} pairs)", total,
                          method.name(), plan.rows, job.stability.pairs);
  const auto workers = static_cast<std::int64_t>(std::max(1, run.comm.size() * run.executor.threads()));
  std::int64_t runs_per_worker = 1;
  while (progress.done < total) {
    const auto wave_start = Clock::now();
    const std::int64_t before = progress.done;
    const std::int64_t n = wave_size(before, total, workers, runs_per_worker, run.control.checkpoint_every);
    const auto results = run.executor.map(static_cast<std::size_t>(n), [&](std::size_t t) {
      return run_one(method, job, plan, before + static_cast<std::int64_t>(t));
    });
    for (const std::vector<double>& task : results) {
      const auto p = static_cast<std::size_t>(task.front());
      if (progress.facts.feature_names.empty()) progress.facts = facts_of(task, p);
      BFS_CHECK(p == progress.facts.feature_names.size(), "stability runs with ", p, " and ",
                progress.facts.feature_names.size(), " features");
      if (run.comm.rank() == 0) progress.outcomes.push_back(outcome_of(task.data() + 1, p));
    }
    progress.done += n;
    const double seconds = std::chrono::duration<double>(Clock::now() - wave_start).count();
    const std::int64_t per_worker_this_wave = (n + workers - 1) / workers;
    const NextWave next = after_wave(run, checkpointing, before, total, progress, seconds, per_worker_this_wave);
    runs_per_worker = next.runs_per_worker;
    if (next.stop && progress.done < total) {
      if (run.comm.rank() != 0) return std::nullopt;
      MethodResult stopped;
      stopped.method = job.method.name;
      const std::string& path = run.control.checkpoint_path;
      stopped.stop_reason = concat("interrupted after stability run ", progress.done, " of ", total,
                                   path.empty() ? "" : " (checkpoint " + path + ")");
      return stopped;
    }
  }
  if (run.comm.rank() != 0) return std::nullopt;
  MethodResult result = make_result(run, plan, progress);
  result.timings = {{"wall_seconds", std::chrono::duration<double>(Clock::now() - start).count()}};
  log_result(run, result);
  RoundReport last;
  last.round = last.total_rounds = static_cast<std::int32_t>(total);
  last.unit = "stability run";
  last.label = "mean selected";
  last.value = result.stability.mean_selected;
  report_final(run, last, result);
  return result;
}

}  // namespace bfs::stability
