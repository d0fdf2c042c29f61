#include "cli/gkx_commands.hpp"

#include <iostream>
#include <memory>

#include "gkx/prepare.hpp"

namespace bfs::cli {

CLI::App* add_prepare_gkx_command(CLI::App& app, std::function<int()>& run) {
  struct Args {
    gkx::PrepareOptions options;
    std::string from = "2010-01", to = "2019-12", align = "same-month";
    double memory_mb = 256;  // a double, so that 0, nan and 1e300 reach memory_budget_bytes's messages
  };
  auto args = std::make_shared<Args>();
  auto* sub = app.add_subcommand("prepare-gkx",
                                 "build the monthly HDF5 stock panel from the Gu-Kelly-Xiu characteristics CSV, CRSP "
                                 "returns and a risk-free rate");
  auto& o = args->options;
  sub->add_option("--characteristics", o.characteristics,
                  "GKX CSV (datashare.csv / GKX_20201231.csv): permno, DATE yyyymmdd, the characteristics, sic2")
      ->required();
  sub->add_option("--returns", o.returns,
                  "returns CSV: permno, yyyymm|date|month, ret|return (default: the RET column of --characteristics)");
  sub->add_option("--riskfree", o.riskfree, "risk-free CSV: yyyymm|date|month, rf|riskfree|rfree (decimal per month)")
      ->required();
  sub->add_flag("--rf-percent", o.rf_percent, "the risk-free rate is in percent (Ken French's files): divide by 100");
  sub->add_option("--from", args->from, "first DATE month, yyyy-mm (default 2010-01)");
  sub->add_option("--to", args->to, "last DATE month, yyyy-mm (default 2019-12)");
  sub->add_option("--align", args->align,
                  "same-month: y = return of DATE's month (the file is already lagged; default) | next-month: "
                  "return of the month after DATE");
  sub->add_option("--macro", o.macro, "Welch-Goyal CSV: yyyymm + dp ep bm ntis tbl tms dfy svar (or raw columns)");
  sub->add_option("--memory-mb", args->memory_mb,
                  "in-memory budget for buffered rows before spilling (MiB, at least 1; default 256)");
  sub->add_flag("--strict", o.strict,
                "refuse a characteristics file without all 94 standard GKX characteristics (and use only those)");
  sub->add_option("--tmp-dir", o.spill_dir, "where spill files go (default: the output's directory)");
  sub->add_option("--truth", o.truth_json, "truth.json of simulate gkx-like: its planted features become /truth");
  sub->add_option("--out", o.out, "output HDF5 panel")->required();
  run = [args] {
    gkx::PrepareOptions options = args->options;
    options.from = gkx::parse_month_option(args->from, "--from");
    options.to = gkx::parse_month_option(args->to, "--to");
    options.align = gkx::parse_alignment(args->align);
    options.memory_budget_bytes = gkx::memory_budget_bytes(args->memory_mb, "prepare-gkx: --memory-mb");
    options.on_warning = [](const std::string& text) {
      std::cerr << "banditfs: warning: prepare-gkx: " << text << '\n';
    };
    const gkx::PrepareReport report = gkx::prepare_gkx(options);
    gkx::print_report(options, report, std::cout);
    return 0;
  };
  return sub;
}

}  // namespace bfs::cli
