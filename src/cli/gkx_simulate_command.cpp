#include "cli/gkx_simulate_command.hpp"

#include <cmath>
#include <iostream>

#include "core/error.hpp"
#include "gkx/gkx_csv.hpp"
#include "gkx/prepare.hpp"
#include "gkx/simulate_gkx.hpp"
#include "simulate/dgp.hpp"

namespace bfs::cli {

void add_gkx_like_options(CLI::App& simulate, GkxLikeOptions& options) {
  // No CLI11 range checks: their messages print the double's maximum in 309 digits; simulate_gkx_like_command
  // checks every value and names the option.
  simulate.add_option("--months", options.months, "gkx-like: months of data (default 120)");
  simulate.add_option("--stocks", options.stocks, "gkx-like: average stocks per month, at least 10 (default 5000)");
  simulate.add_option("--from", options.from, "gkx-like: first month, yyyy-mm or yyyymm (default 2010-01)");
  simulate.add_option("--signal-scale", options.signal_scale,
                      "gkx-like: scale s of the planted signal (default: the calibrated value)");
}

SimulateKind parse_simulate_kind(const std::string& name) {
  if (const auto generator = enum_from_name<Generator>(name)) return *generator;
  return dgp_from_name(name);
}

void check_simulate_options(const CLI::App& simulate, const SimulateKind& kind) {
  const std::string dgp(std::visit([](auto value) { return name_of(value); }, kind));
  const auto* design = std::get_if<Dgp>(&kind);
  // gkx-like writes CSVs of months × stocks into a directory; the other DGPs write n × p (× periods) into one HDF5
  // file. An option of the other kind would be silently ignored, so it is refused.
  const bool gkx_like = kind == SimulateKind{Generator::GkxLike};
  for (const char* name : {"--months", "--stocks", "--from", "--signal-scale"})
    if (!gkx_like && simulate.count(name) > 0)
      throw ConfigError(std::string("simulate ") + dgp + ": " + name + " applies to 'simulate gkx-like' only");
  for (const char* name : {"--n", "--p", "--periods", "--binary"})
    if (gkx_like && simulate.count(name) > 0)
      throw ConfigError(std::string("simulate gkx-like: ") + name + " does not apply (use --stocks and --months)");
  // cmab-hte writes one log (one "period"), its reward is 0/1 by design.
  for (const char* name : {"--periods", "--binary"})
    if (kind == SimulateKind{Dgp::CmabHte} && simulate.count(name) > 0)
      throw ConfigError(std::string("simulate cmab-hte: ") + name + " does not apply (a log of --n rows, 0/1 rewards)");
  // madelon-like's own options apply to it alone; it writes one period with a 0/1 label by design.
  const bool madelon = kind == SimulateKind{Generator::MadelonLike};
  for (const char* name : {"--informative", "--redundant", "--class-sep", "--flip-y"})
    if (!madelon && simulate.count(name) > 0)
      throw ConfigError(std::string("simulate ") + dgp + ": " + name + " applies to 'simulate madelon-like' only");
  for (const char* name : {"--periods", "--binary", "--rho"})
    if (madelon && simulate.count(name) > 0)
      throw ConfigError(std::string("simulate madelon-like: ") + name +
                        " does not apply (one data set of --n rows, y in {0, 1})");
  // Only [FIRST]'s Gaussian-copula designs take a correlation; elsewhere --rho would be silently ignored.
  if (simulate.count("--rho") > 0 && (design == nullptr || !dgp_uses_rho(*design))) {
    throw InputError(detail::concat("simulate ", dgp, ": --rho ", simulate.get_option("--rho")->results().front(),
                                    " does not apply (only ishigami, heavy-tailed and friedman-mod take --rho)"));
  }
}

std::int64_t whole_number_option(double value, const char* option, std::int64_t lo) {
  // Below 2^63 (about 4.6e18 < 9.2e18), so the cast below is defined; far beyond every meaningful count.
  if (!std::isfinite(value) || value != std::floor(value) || std::abs(value) > 4.6e18)
    throw ConfigError(detail::concat(option, " must be a whole number, not ", value));
  const auto n = static_cast<std::int64_t>(value);
  if (n < lo) throw ConfigError(detail::concat(option, " must be at least ", lo, ", not ", n));
  return n;
}

int simulate_gkx_like_command(const GkxLikeOptions& options, std::uint64_t seed, const std::string& out) {
  const std::int64_t months = whole_number_option(options.months, "simulate gkx-like: --months", 1);
  const std::int64_t stocks = whole_number_option(options.stocks, "simulate gkx-like: --stocks", 10);
  const std::int32_t first_month = gkx::parse_month_option(options.from, "--from");
  // Sizes, the month range and --signal-scale, against this machine's memory, before anything is written.
  gkx::validate_gkx_like(months, stocks, first_month, options.signal_scale);
  gkx::GkxLikeSpec spec;
  spec.seed = seed;
  spec.months = static_cast<int>(months);
  spec.stocks = static_cast<int>(stocks);
  spec.first_month = first_month;
  spec.signal_scale = options.signal_scale;
  const gkx::GkxLikeReport r = gkx::simulate_gkx_like(spec, out);
  std::cout << "wrote " << out << "/{characteristics,returns,riskfree}.csv and truth.json: " << r.rows
            << " stock-months over " << spec.months << " months (" << r.min_stocks << ".." << r.max_stocks
            << " stocks a month), " << r.returns << " returns, " << (r.bytes >> 20) << " MiB in " << r.seconds
            << " s; seed " << seed << ", planted signal share of the cross-sectional variance " << r.signal_share
            << "\nplanted strong:";
  for (const auto& name : gkx::planted_features(true)) std::cout << ' ' << name;
  std::cout << "\nnext: banditfs prepare-gkx --characteristics " << out << "/characteristics.csv --returns " << out
            << "/returns.csv --riskfree " << out << "/riskfree.csv --from " << spec.first_month << " --to "
            << gkx::add_months(spec.first_month, spec.months - 1) << " --out PANEL.h5\n";
  return 0;
}

}  // namespace bfs::cli
