#pragma once
// A method (docs/design.md §3 "Method"): the bandit of [Wu], FIRST, FUSE, ... Each lives in its own folder
// under src/methods/ behind this interface and is listed once in methods/registry.cpp. The CLI finds a method by
// name and calls run() on every rank; dist/ supplies the Comm and the Executor and never names a method.
#include <memory>
#include <optional>
#include <string>

#include "config/job_config.hpp"
#include "config/method_params.hpp"
#include "core/context.hpp"
#include "data/dataset.hpp"
#include "data/logged_data.hpp"
#include "methods/comm.hpp"
#include "methods/executor.hpp"
#include "methods/result.hpp"
#include "run/progress.hpp"
#include "run/run_control.hpp"

namespace bfs {

/// Everything a method's run gets. `comm` is the whole job (a SoloComm without MPI); `executor` maps independent
/// tasks over its ranks and threads. `control` (checkpoints, resume, stop requests) and `on_round` (progress) are
/// used on rank 0. Only rank 0 writes files; the CLI writes the outputs from the returned result.
struct MethodRun {
  const JobConfig& job;
  const std::string& job_text;
  Context& context;
  const Comm& comm;
  Executor& executor;
  const RunControl& control;
  const RoundCallback& on_round;
  /// In-memory data that replaces the data set [data] names (the library API, one process); null: open [data].
  /// Every method that reads (X, y) builds its source from it through make_data_source.
  std::shared_ptr<const Dataset> data = nullptr;
  /// The same for a method that reads contextual-bandit logs (cmab-scores): a log held in memory replaces [data]'s.
  std::shared_ptr<const LoggedSource> logged = nullptr;
};

class Method {
 public:
  virtual ~Method() = default;
  /// The schema's view: name, owned sections, parameter factory (config/method_params.hpp).
  virtual MethodDescription describe() const = 0;
  std::string name() const { return describe().name; }
  /// The method's own cross-key checks, after the schema's; ConfigError naming the key.
  virtual void validate(const JobConfig& job) const = 0;
  /// Runs the job on every rank of run.comm; the result on rank 0, nullopt on the others. A result whose
  /// stop_reason starts with "interrupted" means a stop request ended the run and a checkpoint holds its state.
  virtual std::optional<MethodResult> run(const MethodRun& run) const = 0;
};

/// A method's last progress record of a finished run (rank 0, once its result is made): `report` with the result's
/// selected count, marked last.
inline void report_final(const MethodRun& run, RoundReport report, const MethodResult& result) {
  if (!run.on_round || run.comm.rank() != 0) return;
  report.selected = result.selected.size();
  report.last = true;
  run.on_round(report);
}

/// A new result with the facts every method's result has: the method, and the job, seed, ranks and threads of `run`.
inline MethodResult result_of(const MethodRun& run, std::string method) {
  MethodResult r;
  r.method = std::move(method);
  r.job_text = run.job_text;
  r.seed = run.context.seed;
  r.ranks = run.comm.size();
  r.threads = run.executor.threads();
  return r;
}

/// The same for a method that ran on (X, y): also the task and the data set's origin and missing-value counts.
inline MethodResult result_of(const MethodRun& run, std::string method, const Dataset& data) {
  MethodResult r = result_of(run, std::move(method));
  r.task = std::string(name_of(run.job.data.task));
  r.data_origin = data.origin;
  r.missing = data.missing;
  r.rows_without_target = data.rows_without_target;
  return r;
}

/// True for a result returned early because control.stop_requested() fired.
inline bool interrupted(const MethodResult& result) {
  return result.stop_reason.rfind("interrupted", 0) == 0;
}

}  // namespace bfs
