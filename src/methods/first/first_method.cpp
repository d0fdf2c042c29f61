// FIRST [FIRST] as a method: reads the [data] rows once, standardises the columns, runs Algorithm 3 (or S1)
// with NANNE-BE through the Executor, and returns ψ̂ as the importance. Its own datasets (group /first):
// forward_feature and forward_explained (the forward path), backward_pass (per forward feature: the NANNE-BE pass
// that dropped it, 0 = kept) and forward_step (per feature: the step that added it, 0 = never; a summary.csv
// column); facts var_y, noise_var, N_I, N_O, forward, standardize, imputed.
//
// A factor is a feature: a categorical feature's indicator columns enter and leave the forward set together and its
// distances sum over all of them (nanne.hpp). A missing numeric cell is its column's mean over the rows
// (methods/common/column_major.hpp): nearest neighbours need a value in every distance, and the mean of the rows
// FIRST reads is the fill that uses no other row; data.missing = "error" refuses missing cells instead.
#include <chrono>
#include <cmath>
#include <set>

#include "core/error.hpp"
#include "core/stopwatch.hpp"
#include "methods/common/column_major.hpp"
#include "methods/first/first.hpp"
#include "methods/first/first_checkpoint.hpp"
#include "methods/first/first_params.hpp"
#include "methods/method.hpp"
#include "run/data_sources.hpp"
#include "run/job_identity.hpp"
#include "run/source_info.hpp"

namespace bfs {
namespace {

using Clock = std::chrono::steady_clock;

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
  MethodResult r = result_of(run, "first", data);
  r.iterations = static_cast<std::int32_t>(outcome.forward.size());
  r.stop_reason = outcome.forward.size() == t.features() ? "every feature added" : "no candidate explains more";
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
  std::vector<std::int32_t> forward_feature, forward_step(t.features(), 0);
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
  r.facts.push_back({"forward", std::string(name_of(params.forward))});
  r.facts.push_back({"standardize", std::string(params.standardize ? "true" : "false")});
  r.facts.push_back({"backward_passes", std::int64_t{outcome.backward.passes}});
  return r;
}

/// The forward selection's state to start from: empty, or on --resume the checkpoint's (read and checked by rank 0,
/// the same on every rank).
first::ForwardState start_state(const methods::Checkpointing& checkpointing) {
  const auto bytes = checkpointing.resume(first::read_first_checkpoint, [&](const first::FirstCheckpoint& saved) {
    checkpointing.log_resume("forward step " + std::to_string(saved.state.step));
    return first::serialize(saved.state);
  });
  return bytes ? first::deserialize_forward_state(*bytes) : first::ForwardState{};
}

/// After a forward step: V̂_A, the explained variance of the forward set A (eq. 15), and |A|, which the forward
/// selection has selected so far (NANNE-BE may drop some of A at the end).
RoundReport progress(std::int32_t step, std::int32_t total, double explained, std::size_t forward) {
  return {.round = step,
          .total_rounds = total,
          .label = "explained",
          .value = explained,
          .selected = forward,
          .set_size = forward};
}

/// After each forward step: progress, then rank 0 writes OUT/checkpoint.h5 every run.checkpoint_every steps and
/// when a stop is requested; every rank leaves the loop at the same step.
first::StepHook step_hook(const MethodRun& run, const methods::Checkpointing& checkpointing, std::size_t total_steps) {
  return [&run, &checkpointing, total = static_cast<std::int32_t>(total_steps)](const first::ForwardState& state) {
    if (run.comm.rank() == 0 && run.on_round)
      run.on_round(progress(state.step, total, state.explained.back(), state.forward.size()));
    return checkpointing.stop_after(state.step, [&] {
      first::write_first_checkpoint(checkpointing.path(), {checkpointing.key(), state});
    });
  };
}

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
    methods::ColumnMajor columns = methods::column_major(data);
    const std::size_t imputed = columns.imputed;
    if (imputed > 0 && run.context.log && run.comm.rank() == 0)
      run.context.log->info("{} missing cell(s) of {} filled with their column's mean", imputed, source->describe());
    const std::size_t constant = params.standardize ? methods::standardise(columns) : 0;
    if (constant > 0 && run.context.log && run.comm.rank() == 0)
      run.context.log->info("{} constant column(s) of {} become 0 after standardising", constant, source->describe());
    const double data_seconds = seconds_since(start);

    const first::TotalIndex t(std::move(columns), std::move(y), inner, data.layout);
    first::FirstSettings settings;
    settings.n_outer = static_cast<std::size_t>(params.outer_samples);
    settings.fast = params.forward == first::Forward::fast;
    settings.max_selected = static_cast<std::size_t>(params.max_selected);
    settings.seed = run.context.seed;
    const methods::Checkpointing checkpointing(run, describe_source(*source, /*online=*/false).fingerprint);
    const std::size_t total_steps =
        settings.max_selected ? std::min(settings.max_selected, t.features()) : t.features();
    const first::FirstOutcome outcome = first::run_first(
        t, settings, run.executor, step_hook(run, checkpointing, total_steps), start_state(checkpointing));
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
    if (imputed > 0) result.facts.push_back({"imputed", static_cast<std::int64_t>(imputed)});
    result.timings = {{"wall_seconds", seconds_since(start)}, {"data_seconds", data_seconds}};
    const double explained = outcome.forward_explained.empty() ? 0.0 : outcome.forward_explained.back();
    report_final(run,
                 progress(static_cast<std::int32_t>(outcome.steps), static_cast<std::int32_t>(total_steps), explained,
                          outcome.forward.size()),
                 result);
    return result;
  }
};

}  // namespace

std::unique_ptr<Method> make_first_method() {
  return std::make_unique<FirstMethod>();
}

}  // namespace bfs
