#pragma once
// Stability selection with complementary pairs around any method ([MeinshausenBuhlmann], [ShahSamworth §2];
// docs/stability.md): the job's [stability] section turns one run of its method into 2B runs, the method on each half
// of B random splits of the rows, and the result into their summary (run/stability_summary.hpp): per feature the
// share of runs that selected it (π̂), the spread of its importance and rank; `selected` = the features with
// π̂ ≥ π_thr; `importance` = the mean importance, `importance_lo/hi` the runs' equal-tailed range at run.interval;
// the bounds on the expected number of false selections in /stability's attributes.
//
// Where it sits: it runs methods (layer 5) and is run by the library API (layer 7); it needs neither dist/ nor output/,
// so it is a module of layer 6 beside them (docs/architecture.md).
//
// How the runs go: each is a task of the run's Executor — in this process, on a one-rank SoloComm and a one-thread
// LocalExecutor, with the half as in-memory data (MethodRun::data, or ::logged for a log) and its own seed
// (run/stability_selection.hpp) — so a task's outcome depends only on its index, and the result is the same at any
// rank and thread count. Under MPI the Executor gives each rank a contiguous block of the runs. The runs go in waves
// of ranks × threads tasks; after each wave rank 0 reports one progress record per finished run ("stability run
// k/2B"), and decides (broadcast) whether to stop and checkpoint: checkpoint.h5 holds the finished runs' outcomes
// (methods/common/checkpointing: the seal, the resume key), run.checkpoint_every counts runs, and a SIGTERM or
// SIGUSR1 ends the job after the wave in progress. A resumed job runs the remaining runs and gives the result of an
// uninterrupted one.
#include <optional>

#include "methods/method.hpp"

namespace bfs::stability {

/// Runs `method` under stability selection for `run` (run.job.stability.enabled): every rank calls it; the result on
/// rank 0, nullopt on the others. Data: run.data / run.logged when given (one process), else [data]'s, loaded whole
/// (every period) on every rank. InputError when a period has fewer than 2 rows, ConfigError / InputError of the
/// method's runs as they come.
std::optional<MethodResult> run(const Method& method, const MethodRun& run);

}  // namespace bfs::stability
