#pragma once
// prepare-gkx: turns the Gu–Kelly–Xiu (2020) characteristics CSV, CRSP monthly returns and a risk-free
// rate into the HDF5 panel of docs/design.md §4 — one period per month, rows sorted by permno, y = excess return, X =
// the rank-transformed characteristics [+ 8 Welch–Goyal macro predictors] + sic2 one-hot dummies. The characteristics
// are the numeric columns of the file other than permno, DATE, sic2 and the same-month CRSP columns (RET, prc,
// SHROUT, mve0): the standard 94 of kCharacteristics that are present (in that order), then any other numeric
// columns (in header order); missing standard names and other columns are reported, and `strict`
// refuses a file without all 94. The
// characteristics file is streamed; the in-range rows are held in memory up to a budget and spilled to per-month
// temp files beyond it. See docs/empirical-study.md, "Preparing the panel".
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace bfs::gkx {

/// Which month's return a row's characteristics are paired with.
enum class Alignment {
  /// y = the return of the month of DATE. The published file is already lagged (its readme: "when DATE=19570329 …
  /// you can use the monthly RET at 195703 as the response variable"), so this is the authors' pairing.
  SameMonth,
  /// y = the return of the month after DATE: for characteristics that are NOT already lagged.
  NextMonth,
};
std::string_view to_string(Alignment align);
/// "same-month" | "next-month"; InputError otherwise.
Alignment parse_alignment(std::string_view text);

struct PrepareOptions {
  std::string characteristics;  ///< GKX CSV: permno, DATE (yyyymmdd), the characteristics, sic2 [, RET, ...]
  std::string returns;          ///< permno, yyyymm|date|month, ret|return; empty = the RET column of `characteristics`
  std::string riskfree;         ///< yyyymm|date|month, rf|riskfree|risk_free|rfree (decimal per month)
  std::string macro;            ///< optional Welch–Goyal CSV (yyyymm + dp..svar or their raw inputs)
  std::string out;              ///< output HDF5 panel (written to out.tmp, renamed at the end)
  std::int32_t from = 201001;   ///< first DATE month (yyyymm), inclusive
  std::int32_t to = 201912;     ///< last DATE month (yyyymm), inclusive
  Alignment align = Alignment::SameMonth;
  bool rf_percent = false;  ///< the risk-free file is in percent (Ken French): divide by 100
  /// In-memory budget for the buffered in-range rows (400 bytes each); beyond it they spill to temp files.
  std::size_t memory_budget_bytes = std::size_t{256} << 20;
  std::string spill_dir;  ///< parent of the spill directory; empty = the output's directory
  /// Optional truth.json of `simulate gkx-like`: its "planted" feature names become the panel's /truth.
  std::string truth_json;
  /// Refuse a characteristics file without all 94 standard names (and use only those); otherwise the missing ones
  /// are reported and other numeric columns are used too.
  bool strict = false;
  /// Receives each warning (a vintage's column differences, returns below −100 % dropped) as one line, when set.
  std::function<void(const std::string&)> on_warning;
};

/// The checks of a memory budget option in MiB (finite, at least 1, at most 2^30): ConfigError naming `option`.
std::size_t memory_budget_bytes(double megabytes, std::string_view option);

/// Columns of a characteristics file that are not characteristics: the ids, the date, the industry and the CRSP
/// data of the DATE month (same-month data, a look-ahead if used as a predictor): permno, DATE, sic2, RET, prc,
/// SHROUT, mve0 (case-insensitive).
bool is_reserved_column(std::string_view name);

struct MonthSummary {
  std::int32_t yyyymm = 0;
  std::int64_t stocks = 0;
  double missing_share = 0.0;  ///< missing share over the characteristics in this month
};

struct PrepareReport {
  std::int64_t lines_read = 0;  ///< data lines of the characteristics file
  std::int64_t rows_outside_range = 0;
  std::int64_t rows_in_range = 0;
  std::int64_t dropped_no_return = 0;   ///< in range, but no return (absent or missing) for the aligned month
  std::int64_t dropped_bad_return = 0;  ///< in range, but the return is below −1 (−100 %): dropped
  std::int64_t returns_crsp_codes =
      0;  ///< returns in the range's months that are CRSP missing codes (−66 … −99, letters)
  std::int64_t returns_below_minus_one = 0;  ///< other returns in the range's months below −1 (treated as missing)
  std::int64_t rows_written = 0;
  std::int64_t sic2_missing = 0;  ///< written rows without a sic2 code (all-zero dummies)
  std::vector<std::int32_t> sic2_codes;
  std::vector<std::string> feature_names;
  std::size_t characteristics = 0;            ///< the first `characteristics` features are the characteristics
  std::vector<std::string> missing_standard;  ///< standard names absent from the file
  std::vector<std::string> extra_columns;     ///< numeric columns used that are not standard names (not in strict)
  std::vector<std::string> ignored_columns;   ///< other columns not used (non-numeric, unnamed; in strict: every extra)
  std::vector<MonthSummary> months;
  std::vector<double> missing_share;  ///< per characteristic (feature order), over the written rows
  std::int64_t spilled_bytes = 0;
  double seconds = 0.0;
};

/// Runs the whole preparation; InputError (naming file, line, column, value) on any malformed input.
PrepareReport prepare_gkx(const PrepareOptions& options);
/// The human-readable report printed by `banditfs prepare-gkx`.
void print_report(const PrepareOptions& options, const PrepareReport& report, std::ostream& out);
/// "2010-01" or "201001" → 201001; InputError naming `option` otherwise.
std::int32_t parse_month_option(std::string_view text, std::string_view option);

}  // namespace bfs::gkx
