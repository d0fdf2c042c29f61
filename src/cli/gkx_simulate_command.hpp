#pragma once
// `banditfs simulate gkx-like --out DIR [--seed S] [--months 120] [--stocks 5000] [--from 2010-01]`:
// the options that only the gkx-like stand-in takes, registered on the existing `simulate` subcommand.
#include <CLI/CLI.hpp>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "config/job_config.hpp"  // Dgp

namespace bfs::cli {

/// The generators of `banditfs simulate NAME` that are not data.dgp values (Dgp's table names the others).
enum class Generator { GkxLike, MadelonLike };
constexpr std::array<std::pair<Generator, std::string_view>, 2> enum_table(Generator) {
  return {{{Generator::GkxLike, "gkx-like"}, {Generator::MadelonLike, "madelon-like"}}};
}
/// What `simulate NAME` writes: a data.dgp design (cmab-hte: a contextual-bandit log) or one of the generators.
using SimulateKind = std::variant<Dgp, Generator>;
/// NAME parsed once, through Generator's table and then Dgp's; an unknown name is simulate/dgp.hpp dgp_from_name's
/// ConfigError.
SimulateKind parse_simulate_kind(const std::string& name);

struct GkxLikeOptions {
  // Read as doubles so that every bad value (0, 1.5, nan, 1e11) reaches our checks and their messages.
  double months = 120;
  double stocks = 5000;
  std::string from = "2010-01";
  double signal_scale = 0.0;  ///< 0 = the calibrated default
};

/// `value` as a whole number for `option`: ConfigError "OPTION must be a whole number, not V" when it is not finite
/// or not integral, "OPTION must be at least LO, not V" below `lo`.
std::int64_t whole_number_option(double value, const char* option, std::int64_t lo);

/// Adds --months, --stocks, --from, --signal-scale to `simulate`.
void add_gkx_like_options(CLI::App& simulate, GkxLikeOptions& options);
/// After parsing: ConfigError for an option given that does not apply to `kind` (gkx-like's options with
/// another DGP, --n/--p/--periods with gkx-like); InputError for --rho with a DGP that takes none (all but ishigami,
/// heavy-tailed, friedman-mod).
void check_simulate_options(const CLI::App& simulate, const SimulateKind& kind);
/// Writes the gkx-like CSVs and truth.json into the directory `out`; prints a summary; returns the exit code.
int simulate_gkx_like_command(const GkxLikeOptions& options, std::uint64_t seed, const std::string& out);

}  // namespace bfs::cli
