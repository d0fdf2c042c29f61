#include "cli/gkx_simulate_command.hpp"

#include <iostream>

#include "core/error.hpp"
#include "gkx/gkx_csv.hpp"
#include "gkx/prepare.hpp"
#include "gkx/simulate_gkx.hpp"

namespace bfs::cli {

void add_gkx_like_options(CLI::App& simulate, GkxLikeOptions& options) {
  simulate.add_option("--months", options.months, "gkx-like: months of data (default 120)")->check(CLI::PositiveNumber);
  simulate.add_option("--stocks", options.stocks, "gkx-like: average stocks per month (default 5000)")
      ->check(CLI::PositiveNumber);
  simulate.add_option("--from", options.from, "gkx-like: first month, yyyy-mm or yyyymm (default 2010-01)");
  simulate.add_option("--signal-scale", options.signal_scale,
                      "gkx-like: scale s of the planted signal (default: the calibrated value)");
}

void check_simulate_options(const CLI::App& simulate, const std::string& dgp) {
  // gkx-like writes CSVs of months × stocks into a directory; the other DGPs write n × p (× periods) into one HDF5
  // file. An option of the other kind would be silently ignored, so it is refused.
  const bool gkx_like = dgp == "gkx-like";
  for (const char* name : {"--months", "--stocks", "--from", "--signal-scale"})
    if (!gkx_like && simulate.count(name) > 0)
      throw ConfigError(std::string("simulate ") + dgp + ": " + name + " applies to 'simulate gkx-like' only");
  for (const char* name : {"--n", "--p", "--periods", "--binary"})
    if (gkx_like && simulate.count(name) > 0)
      throw ConfigError(std::string("simulate gkx-like: ") + name + " does not apply (use --stocks and --months)");
}

int simulate_gkx_like_command(const GkxLikeOptions& options, std::uint64_t seed, const std::string& out) {
  gkx::GkxLikeSpec spec;
  spec.seed = seed;
  spec.months = options.months;
  spec.stocks = options.stocks;
  spec.first_month = gkx::parse_month_option(options.from, "--from");
  spec.signal_scale = options.signal_scale;
  const gkx::GkxLikeReport r = gkx::simulate_gkx_like(spec, out);
  std::cout << "wrote " << out << "/{characteristics,returns,riskfree}.csv and truth.json: " << r.rows
            << " stock-months over " << spec.months << " months (" << r.min_stocks << ".." << r.max_stocks
            << " stocks a month), " << r.returns << " returns, " << (r.bytes >> 20) << " MiB in " << r.seconds
            << " s; seed " << seed << ", planted signal share of the cross-sectional variance "
            << r.signal_share << "\nplanted strong:";
  for (const auto& name : gkx::planted_features(true)) std::cout << ' ' << name;
  std::cout << "\nnext: banditfs prepare-gkx --characteristics " << out << "/characteristics.csv --returns " << out
            << "/returns.csv --riskfree " << out << "/riskfree.csv --from " << spec.first_month << " --to "
            << gkx::add_months(spec.first_month, spec.months - 1) << " --out PANEL.h5\n";
  return 0;
}

}  // namespace bfs::cli
