// Fuzz harness: prepare-gkx's CSV reading (gkx/gkx_csv.hpp, gkx/prepare.hpp), docs/fuzzing.md.
// Input: a first line naming the reader and its options, then the files, separated by lines "%%":
//   returns [yyyymmdd] [from=M] [to=M]   read_returns(file 1)
//   riskfree [percent]                    read_riskfree(file 1)
//   macro                                 read_macro(file 1)
//   prepare [next-month] [strict] [percent] [budget=BYTES] [from=M] [to=M]
//                                         prepare_gkx: file 1 = characteristics; file 2 = returns (empty: the RET
//                                         column of file 1); file 3 = risk-free rate (empty: 0.001 for 1990-01 ..
//                                         2010-12); file 4 = macro (optional); file 5 = truth.json (optional)
// M goes through parse_month_option as --from/--to do (defaults 2000-01 .. 2003-12). What a reader returns is
// checked: returns sorted and unique, macro rows finite; a prepared panel must be readable by read_hdf5 with the
// reported rows and feature names (prepare-gkx's output is banditfs's input).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "data/hdf5_io.hpp"
#include "fuzz_common.hpp"
#include "gkx/gkx_csv.hpp"
#include "gkx/prepare.hpp"

namespace {

using namespace bfs;
namespace fz = bfs::fuzz;

struct Options {
  std::string reader;
  bool yyyymmdd = false, percent = false, next_month = false, strict = false;
  std::size_t budget = std::size_t{1} << 20;
  std::string from = "2000-01", to = "2003-12";
};

Options parse_options(std::string_view line) {
  Options o;
  std::istringstream words{std::string(line)};
  std::string word;
  words >> o.reader;
  while (words >> word) {
    if (word == "yyyymmdd")
      o.yyyymmdd = true;
    else if (word == "percent")
      o.percent = true;
    else if (word == "next-month")
      o.next_month = true;
    else if (word == "strict")
      o.strict = true;
    else if (word.rfind("from=", 0) == 0)
      o.from = word.substr(5);
    else if (word.rfind("to=", 0) == 0)
      o.to = word.substr(3);
    else if (word.rfind("budget=", 0) == 0) {
      std::size_t bytes = 0;
      for (char c : word.substr(7)) {
        if (c < '0' || c > '9' || bytes > (std::size_t{1} << 20)) break;
        bytes = bytes * 10 + static_cast<std::size_t>(c - '0');
      }
      o.budget = std::min(bytes, std::size_t{1} << 20);
    }
  }
  return o;
}

const std::string& default_riskfree() {
  static const std::string path = [] {
    std::string text = "yyyymm,rf\n";
    for (int year = 1990; year <= 2010; ++year)
      for (int month = 1; month <= 12; ++month) text += std::to_string(year * 100 + month) + ",0.001\n";
    return fz::write_scratch("default_rf.csv", text);
  }();
  return path;
}

void check_returns(const std::vector<gkx::ReturnEntry>& entries) {
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (k > 0 && !(entries[k - 1].key < entries[k].key)) fz::finding("read_returns", "entries not sorted and unique");
    const auto permno = entries[k].key >> 32;
    const auto month = static_cast<std::int32_t>(entries[k].key & 0xffffffff);
    if (gkx::find_return(entries, permno, month) != &entries[k]) fz::finding("read_returns", "find_return misses");
  }
}

void run_prepare(const Options& o, const std::vector<std::string>& files) {
  gkx::PrepareOptions opt;
  opt.characteristics = fz::write_scratch("characteristics.csv", files.size() > 0 ? files[0] : "");
  opt.returns = files.size() > 1 && !files[1].empty() ? fz::write_scratch("returns.csv", files[1]) : "";
  opt.riskfree = files.size() > 2 && !files[2].empty() ? fz::write_scratch("rf.csv", files[2]) : default_riskfree();
  opt.macro = files.size() > 3 && !files[3].empty() ? fz::write_scratch("macro.csv", files[3]) : "";
  opt.truth_json = files.size() > 4 && !files[4].empty() ? fz::write_scratch("truth.json", files[4]) : "";
  opt.out = fz::scratch_path("panel.h5");
  opt.spill_dir = fz::scratch_dir();
  opt.from = gkx::parse_month_option(o.from, "--from");
  opt.to = gkx::parse_month_option(o.to, "--to");
  opt.align = o.next_month ? gkx::Alignment::NextMonth : gkx::Alignment::SameMonth;
  opt.rf_percent = o.percent;
  opt.strict = o.strict;
  opt.memory_budget_bytes = o.budget;
  std::string warnings;
  opt.on_warning = [&](const std::string& text) { warnings += text + "\n"; };
  fz::remove_scratch("panel.h5");
  const gkx::PrepareReport report = gkx::prepare_gkx(opt);
  std::ostringstream printed;
  gkx::print_report(opt, report, printed);
  Dataset panel;
  try {
    panel = read_hdf5(opt.out);
  } catch (const Error& e) {
    fz::finding("read_hdf5 refuses the panel prepare_gkx wrote", e.what());
  }
  if (panel.rows() != report.rows_written || panel.feature_names != report.feature_names ||
      static_cast<std::size_t>(panel.num_periods()) != report.months.size()) {
    fz::finding("prepare_gkx", "the panel written does not match its report (rows, features or periods)");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const Options o = parse_options(input.substr(0, newline));
  const std::vector<std::string> files =
      newline == std::string_view::npos ? std::vector<std::string>{} : fz::split_parts(input.substr(newline + 1), "%%");
  fz::run_one([&] {
    const std::string first = fz::write_scratch("input.csv", files.empty() ? "" : files[0]);
    if (o.reader == "returns") {
      gkx::ReturnStats stats;
      const auto entries = gkx::read_returns(first, gkx::parse_month_option(o.from, "--from"),
                                             gkx::parse_month_option(o.to, "--to"), o.yyyymmdd, &stats);
      check_returns(entries);
    } else if (o.reader == "riskfree") {
      for (const auto& [month, rate] : gkx::read_riskfree(first, o.percent)) {
        if (!std::isfinite(rate)) fz::finding("read_riskfree", "a rate that is not finite");
      }
    } else if (o.reader == "macro") {
      for (const auto& [month, row] : gkx::read_macro(first)) {
        for (double v : row) {
          if (!std::isfinite(v)) fz::finding("read_macro", "a predictor that is not finite");
        }
      }
    } else if (o.reader == "prepare") {
      run_prepare(o, files);
    }
  });
  return 0;
}
