// FIRST (paper 002) as a method: reads the [data] rows once, standardises the columns, runs Algorithm 3 (or S1)
// with NANNE-BE through the Executor, and returns ψ̂ as the importance. Its own datasets (group /first):
// forward_feature and forward_explained (the forward path), backward_pass (per forward feature: the NANNE-BE pass
// that dropped it, 0 = kept) and forward_step (per feature: the step that added it, 0 = never; a summary.csv
// column); facts var_y, noise_var, N_I, N_O, forward, standardize.
#include <chrono>
#include <cmath>
#include <set>

#include "core/error.hpp"
#include "core/stopwatch.hpp"
#include "engine/coordinator_state.hpp"  // truth_metrics
#include "engine/data_sources.hpp"
#include "engine/local_runner.hpp"  // job_hash
#include "engine/round_driver.hpp"  // describe_source
#include "methods/first/first.hpp"
#include "methods/first/first_checkpoint.hpp"
#include "methods/first/first_params.hpp"
#include "methods/method.hpp"

namespace bfs {
namespace {

using Clock = std::chrono::steady_clock;

/// Column-major copy of X, standardised (detail::standardise) when `standardize`. Returns the number of constant
/// columns (0 when not standardising).
std::size_t standardised_columns(const Dataset& data, bool standardize, first::detail::Columns& out) {
  const auto n = static_cast<std::size_t>(data.rows());
  const auto p = static_cast<std::size_t>(data.cols());
  out.rows = n;
  out.cols = p;
  out.values.resize(n * p);
  for (std::size_t j = 0; j < p; ++j) {
    double* column = out.values.data() + j * n;
    for (std::size_t r = 0; r < n; ++r)
      column[r] = static_cast<double>(data.X(static_cast<Index>(r), static_cast<Index>(j)));
  }
  return standardize ? first::detail::standardise(out) : 0;
}

/// N_I: the key, or 3 when y has two values and 2 otherwise (§3.3, §6); checked against N.
std::size_t inner_samples(const first::FirstParams& params, const std::vector<double>& y, const std::string& origin) {
  const std::set<double> values(y.begin(), y.end());
  if (values.size() < 2) throw InputError(origin + ": y is constant: FIRST has no variance to explain");
  const std::size_t n = y.size();
  const std::size_t inner =
      params.inner_samples > 0 ? static_cast<std::size_t>(params.inner_samples) : (values.size() == 2 ? 3 : 2);
  if (inner >= n)
    throw InputError("method.inner_samples: N_I = " + std::to_string(inner) + " needs more rows than " + origin +
                     " has (N = " + std::to_string(n) + ")");
  if (params.outer_samples > static_cast<std::int64_t>(n))
    throw InputError("method.outer_samples = " + std::to_string(params.outer_samples) + " is more than the " +
                     std::to_string(n) + " rows of " + origin);
  return inner;
}

MethodResult make_result(const MethodRun& run, const Dataset& data, const first::FirstOutcome& outcome,
                         const first::TotalIndex& t, std::size_t n_outer) {
  const auto& params = *run.job.method.params.as<first::FirstParams>();
  MethodResult r;
  r.method = "first";
  r.task = std::string(name_of(run.job.data.task));
  r.data_origin = data.origin;
  r.job_text = run.job_text;
  r.seed = run.context.seed;
  r.ranks = run.comm.size();
  r.threads = run.executor.threads();
  r.iterations = static_cast<std::int32_t>(outcome.forward.size());
  r.stop_reason = outcome.forward.size() == t.cols() ? "every feature added" : "no candidate explains more";
  r.importance_meaning = "psi";
  r.feature_names = data.feature_names;
  r.importance = outcome.psi;
  for (std::size_t k = 0; k < outcome.psi.size(); ++k)
    if (outcome.psi[k] > 0.0) r.selected.push_back(static_cast<FeatureId>(k));
  rank_by_importance(r);
  if (data.has_truth) {
    r.truth = data.truth;
    r.metrics = truth_metrics(r.selected, r.truth);
  }
  std::vector<std::int32_t> forward_feature, forward_step(t.cols(), 0);
  for (std::size_t s = 0; s < outcome.forward.size(); ++s) {
    forward_feature.push_back(static_cast<std::int32_t>(outcome.forward[s]));
    forward_step[outcome.forward[s]] = static_cast<std::int32_t>(s + 1);
  }
  r.datasets.push_back({"forward_feature", forward_feature, {}});
  r.datasets.push_back({"forward_explained", outcome.forward_explained, {}});
  r.datasets.push_back({"backward_pass", outcome.backward.dropped_in, {}});
  r.datasets.push_back({"forward_step", forward_step, {}});
  r.feature_columns = {"forward_step"};
  r.facts.push_back({"var_y", t.var_y()});
  r.facts.push_back({"noise_var", outcome.backward.noise_var});
  r.facts.push_back({"N_I", static_cast<std::int64_t>(t.inner())});
  r.facts.push_back({"N_O", static_cast<std::int64_t>(n_outer == 0 ? t.rows() : n_outer)});
  r.facts.push_back({"forward", params.forward});
  r.facts.push_back({"standardize", std::string(params.standardize ? "true" : "false")});
  r.facts.push_back({"backward_passes", std::int64_t{outcome.backward.passes}});
  return r;
}

/// Progress, checkpoints and stop requests around the forward steps (issue 13). Rank 0 writes OUT/checkpoint.h5
/// every run.checkpoint_every steps and when a stop is requested; the stop decision is rank 0's, broadcast so that
/// every rank leaves the loop at the same step. On --resume rank 0 reads and checks the checkpoint and broadcasts
/// its state.
class Checkpointing {
 public:
  Checkpointing(const MethodRun& run, std::string fingerprint, std::size_t total_steps)
      : run_(run),
        hash_(job_hash(run.job)),
        fingerprint_(std::move(fingerprint)),
        total_(static_cast<std::int32_t>(total_steps)) {}

  /// The state to start from: empty, or the checkpoint's on --resume (the same on every rank).
  first::ForwardState start() const {
    if (!run_.control.resume) return {};
    std::string bytes;
    if (run_.comm.rank() == 0) {
      const std::string& path = run_.control.checkpoint_path;
      const first::FirstCheckpoint checkpoint = first::read_first_checkpoint(path);
      methods::check_resumable(checkpoint.key, path, {run_.job_text, hash_, fingerprint_});
      if (run_.context.log)
        run_.context.log->info("resuming from {} after forward step {}", path, checkpoint.state.step);
      bytes = first::serialize(checkpoint.state);
    }
    return first::deserialize_forward_state(run_.comm.broadcast(bytes, 0));
  }

  first::StepHook hook() const {
    return [this](const first::ForwardState& state) { return after_step(state); };
  }

 private:
  bool after_step(const first::ForwardState& state) const {
    if (run_.comm.rank() == 0) report_progress(state);
    return methods::stop_after_round(run_, state.step, [&] {
      first::write_first_checkpoint(run_.control.checkpoint_path, {{run_.job_text, hash_, fingerprint_}, state});
    });
  }
  void report_progress(const first::ForwardState& state) const {
    if (!run_.on_round) return;
    RoundReport report;
    report.round = state.step;
    report.total_rounds = total_;
    report.metric = "explained";  // V̂_A, the explained variance of the forward set (eq. 15)
    report.test_score = state.explained.back();
    report.selected = state.forward.size();
    report.arm_size = state.forward.size();
    run_.on_round(report);
  }

  const MethodRun& run_;
  std::string hash_;
  std::string fingerprint_;
  std::int32_t total_;
};

class FirstMethod final : public Method {
 public:
  MethodDescription describe() const override {
    MethodDescription description;
    description.name = "first";
    description.make_params = [] { return std::make_unique<first::FirstParams>(); };
    description.uses_estimator = false;
    return description;
  }

  void validate(const JobConfig& job) const override {
    if (job.method.params.as<first::FirstParams>() == nullptr)
      throw ConfigError("method.name = \"first\" without its parameters (parse the job with methods::catalog())");
    if (job.data.periods != 1)
      throw ConfigError("data.periods = " + std::to_string(job.data.periods) + ": FIRST reads one data set");
  }

  std::optional<MethodResult> run(const MethodRun& run) const override {
    const auto start = Clock::now();
    const auto& params = *run.job.method.params.as<first::FirstParams>();
    auto source = make_data_source(run.job.data, run.context.seed, /*online=*/false, run.data);
    const Dataset data = source->load_period(0);
    std::vector<double> y(data.y.begin(), data.y.end());
    const std::size_t inner = inner_samples(params, y, source->describe());
    first::detail::Columns columns;
    const std::size_t constant = standardised_columns(data, params.standardize, columns);
    if (constant > 0 && run.context.log && run.comm.rank() == 0)
      run.context.log->info("{} constant column(s) of {} become 0 after standardising", constant, source->describe());
    const double data_seconds = seconds_since(start);

    const first::TotalIndex t(std::move(columns), std::move(y), inner);
    first::FirstSettings settings;
    settings.n_outer = static_cast<std::size_t>(params.outer_samples);
    settings.fast = params.forward == "fast";
    settings.max_selected = static_cast<std::size_t>(params.max_selected);
    settings.seed = run.context.seed;
    const Checkpointing checkpointing(run, describe_source(*source, /*online=*/false).fingerprint,
                                      settings.max_selected ? std::min(settings.max_selected, t.cols()) : t.cols());
    const first::FirstOutcome outcome =
        first::run_first(t, settings, run.executor, checkpointing.hook(), checkpointing.start());
    if (run.comm.rank() != 0) return std::nullopt;
    if (outcome.interrupted) {
      MethodResult stopped;
      stopped.method = "first";
      stopped.stop_reason =
          "interrupted after forward step " + std::to_string(outcome.steps) +
          (run.control.checkpoint_path.empty() ? "" : " (checkpoint " + run.control.checkpoint_path + ")");
      return stopped;
    }
    MethodResult result = make_result(run, data, outcome, t, settings.n_outer);
    result.timings = {{"wall_seconds", seconds_since(start)}, {"data_seconds", data_seconds}};
    return result;
  }
};

}  // namespace

std::unique_ptr<Method> make_first_method() {
  return std::make_unique<FirstMethod>();
}

}  // namespace bfs
