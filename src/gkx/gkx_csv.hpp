#pragma once
// Streaming CSV reading for prepare-gkx: a line reader over a large file (several GB) with 1-based line numbers,
// field splitting, the missing-value tokens, number and date parsing, and the readers of the small side files
// (returns, risk-free rate, Welch–Goyal macro predictors). Every error is an InputError naming the file, the line,
// the column, the value and what is wrong.
#include <array>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/csv_lines.hpp"

namespace bfs::gkx {

/// Splits at commas outside double quotes (split_csv_line); surrounding blanks and quotes are removed (fields keep
/// no "" escapes). False on an unterminated quote.
[[nodiscard]] bool split_fields(std::string_view line, std::vector<std::string_view>& fields);
/// As split_fields; InputError "path:line: unterminated quote" on an unterminated quote.
void split_fields_at(std::string_view line, std::vector<std::string_view>& fields, const std::string& path,
                     std::int64_t line_number);

/// The missing-value tokens: an empty field, NA, NaN, nan, N/A, NULL, "." (case-insensitive).
bool is_missing(std::string_view field);

/// A header's column positions, found by case-insensitive name.
class Header {
 public:
  Header(std::string path, std::string_view line);
  /// Position of the first of `aliases` present, if any.
  std::optional<std::size_t> find(std::initializer_list<std::string_view> aliases) const;
  /// As find; InputError naming the file and the accepted names when none is present.
  std::size_t require(std::initializer_list<std::string_view> aliases, std::string_view what) const;
  std::size_t size() const { return names_.size(); }
  const std::string& name(std::size_t k) const { return names_[k]; }

 private:
  std::string path_;
  std::vector<std::string> names_;
};

/// Where a value came from, for error messages: "file:line: column 'name'".
struct CellRef {
  const std::string& path;
  std::int64_t line;
  std::string_view column;
};

/// A finite number (leading '+' accepted); nullopt when the field is a missing token; InputError otherwise.
std::optional<double> parse_number(std::string_view field, const CellRef& where);
/// An integer-valued number (e.g. "10001" or "10001.0") in [lo, hi]; missing tokens are errors unless allow_missing.
std::optional<std::int64_t> parse_integer(std::string_view field, const CellRef& where, std::int64_t lo,
                                          std::int64_t hi, bool allow_missing);
/// A yyyymmdd date (8 digits, month 1-12, day 1-31) → yyyymm. InputError otherwise.
std::int32_t parse_yyyymmdd_month(std::string_view field, const CellRef& where);
/// A month written as yyyymm, yyyymmdd, yyyy-mm or yyyy-mm-dd (an optional ".0" suffix is tolerated) → yyyymm.
std::int32_t parse_any_month(std::string_view field, const CellRef& where);

/// yyyymm arithmetic.
std::int32_t add_months(std::int32_t yyyymm, int months);
/// Months from `from` to `to` inclusive (0 when to < from).
int months_between(std::int32_t from, std::int32_t to);
/// yyyymm written as "yyyy-mm", for messages and reports.
std::string month_text(std::int32_t yyyymm);

/// One return, keyed by (permno, yyyymm), with the line it came from.
struct ReturnEntry {
  std::int64_t key;  // permno << 32 | yyyymm
  double ret;        // NaN = missing in the file (or below −1: see below_minus_one)
  std::int64_t line;
  bool below_minus_one = false;  // the file's value was below −1 (not a CRSP code): unusable
};
inline std::int64_t return_key(std::int64_t permno, std::int32_t yyyymm) {
  return (permno << 32) | static_cast<std::int64_t>(static_cast<std::uint32_t>(yyyymm));
}

/// What read_returns set aside.
struct ReturnStats {
  std::int64_t crsp_codes = 0;        ///< CRSP missing-return codes: −66, −77, −88, −99 or a single letter
  std::int64_t below_minus_one = 0;   ///< other returns below −1 (a total return cannot lose more than 100 %)
  std::int64_t first_below_line = 0;  ///< the line of the first of those (0 = none)
  std::string first_below_value;
};
/// CRSP's numeric missing-return codes (crsp.msf RET): −66 (no valid price), −77 (not trading on an exchange),
/// −88 (out of range: before the first or after the last price), −99 (no valid previous price).
bool is_crsp_missing_return(double value);

/// Reads returns with months in [first, last]: columns permno; yyyymm | date | month; ret | return (aliases
/// case-insensitive). `date_is_yyyymmdd` requires 8-digit dates (the characteristics file's DATE). A return that is
/// a missing token, a single letter (CRSP's letter codes, e.g. "C") or a numeric CRSP code (−66, −77, −88, −99) is
/// kept as NaN; another return below −1 is kept as NaN with `below_minus_one` set and counted in `stats`.
/// Duplicated (permno, month) → InputError naming both lines. Returns entries sorted by key.
std::vector<ReturnEntry> read_returns(const std::string& path, std::int32_t first, std::int32_t last,
                                      bool date_is_yyyymmdd, ReturnStats* stats = nullptr);
/// Looks up a return; nullptr when absent.
const ReturnEntry* find_return(const std::vector<ReturnEntry>& sorted, std::int64_t permno, std::int32_t yyyymm);

/// Reads the risk-free rate per month: month column yyyymm | date | month | (an unnamed first column), rate column
/// rf | riskfree | risk_free | rfree. `percent` divides by 100 (Ken French's files are in percent).
std::map<std::int32_t, double> read_riskfree(const std::string& path, bool percent);

/// The eight Welch–Goyal predictors used by Gu, Kelly & Xiu (2020), in the panel's column order.
inline constexpr std::array<std::string_view, 8> kMacroNames = {"dp", "ep", "bm", "ntis", "tbl", "tms", "dfy", "svar"};
/// Reads them per month from a CSV with a yyyymm column. Each predictor is taken from a column of its own name when
/// present, else derived from Welch–Goyal's raw columns: dp = log(D12) − log(Index), ep = log(E12) − log(Index),
/// bm = b/m, tms = lty − tbl, dfy = BAA − AAA. Months where a needed input is missing are left out.
std::map<std::int32_t, std::array<double, 8>> read_macro(const std::string& path);

}  // namespace bfs::gkx
