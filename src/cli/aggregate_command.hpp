#pragma once
// `banditfs aggregate DIR... --out DIR`: the summary of separate runs of one job that differ only in their seed
// (api::aggregate; docs/design.md §4 "Aggregates"), written as a run's outputs are: result.h5, summary.csv and
// run.json as one set into a locked directory.
#include <CLI/CLI.hpp>
#include <functional>

namespace bfs::cli {

/// Registers `aggregate` on `app`; `run` is set to the function that executes it (returns the exit code).
CLI::App* add_aggregate_command(CLI::App& app, std::function<int()>& run);

}  // namespace bfs::cli
