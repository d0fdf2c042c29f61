#pragma once
// The GKX subcommands of the banditfs CLI: prepare-gkx builds the monthly stock panel.
#include <CLI/CLI.hpp>
#include <functional>

namespace bfs::cli {

/// Registers `prepare-gkx` on `app`; returns the subcommand (test `*sub` after parsing) and, through `run`, the
/// function that executes it (prints the report to stdout, returns the exit code).
CLI::App* add_prepare_gkx_command(CLI::App& app, std::function<int()>& run);

}  // namespace bfs::cli
