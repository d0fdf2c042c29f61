// Two stages. Stage 1 streams the characteristics CSV once: rows outside the month range are skipped after their
// DATE is checked; in-range rows are paired with their excess return (rows without one are dropped and counted)
// and buffered per month as fixed-size records, in memory up to the budget and spilled to one temp file per month
// beyond it. Stage 2 takes the months in order: sort by permno (a duplicate is an error), rank-transform each
// characteristic, add the macro and one-hot columns, append the period to the HDF5 panel.
// The summary printed after a run is in prepare_report.cpp.
#include "gkx/prepare.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/error.hpp"
#include "data/detail/atomic_write.hpp"
#include "data/hdf5_panel_writer.hpp"
#include "gkx/characteristics.hpp"
#include "gkx/detail/columns.hpp"
#include "gkx/detail/month_store.hpp"
#include "gkx/gkx_csv.hpp"
#include "gkx/rank_transform.hpp"

namespace bfs::gkx {

namespace fs = std::filesystem;
using columns::GkxColumns;
using columns::iequals;
using columns::join;
using columns::locate_columns;
using staging::head_of;
using staging::kRecordHead;
using staging::MonthStore;
using staging::record_size;
using staging::RowHead;
using staging::value_of;

std::string_view to_string(Alignment align) {
  return align == Alignment::SameMonth ? "same-month" : "next-month";
}

Alignment parse_alignment(std::string_view text) {
  if (text == "same-month") return Alignment::SameMonth;
  if (text == "next-month") return Alignment::NextMonth;
  throw InputError(detail::concat("--align: '", text, "' is not one of same-month, next-month"));
}

std::int32_t parse_month_option(std::string_view text, std::string_view option) {
  const std::string name(option);
  try {
    if (text.size() != 6 && text.size() != 7) throw InputError("");
    return parse_any_month(text, {name, 0, name});
  } catch (const InputError&) {
    throw InputError(detail::concat(option, ": '", text, "' is not a month (yyyy-mm or yyyymm)"));
  }
}

namespace {
/// The "planted" names of a simulate gkx-like truth.json as feature indices of the panel (sorted).
std::vector<std::int32_t> read_planted_truth(const std::string& path, const std::vector<std::string>& names) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot open the truth file (--truth)");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    throw InputError(path + ": not valid JSON: " + e.what());
  }
  if (!json.contains("planted") || !json["planted"].is_array())
    throw InputError(path + ": no \"planted\" list of feature names");
  std::vector<std::int32_t> truth;
  for (const auto& item : json["planted"]) {
    if (!item.is_string()) throw InputError(path + ": \"planted\" holds a non-string entry");
    const auto it = std::find(names.begin(), names.end(), item.get<std::string>());
    if (it == names.end())
      throw InputError(path + ": planted feature '" + item.get<std::string>() + "' is not a column of the panel");
    truth.push_back(static_cast<std::int32_t>(it - names.begin()));
  }
  std::sort(truth.begin(), truth.end());
  return truth;
}

/// One preparation's options with what follows from them: the return-month shift and the number of months.
struct Run {
  const PrepareOptions& opt;
  int shift = 0;
  int months = 0;
  void warn(const std::string& text) const {
    if (opt.on_warning) opt.on_warning(text);
  }
};

/// The inputs beside the characteristics; only the months the range needs are kept.
struct SideInputs {
  std::string returns_path;
  std::vector<ReturnEntry> returns;
  std::map<std::int32_t, double> riskfree;
  std::map<std::int32_t, std::array<double, 8>> macro;
};

SideInputs read_side_inputs(const Run& run, PrepareReport& report) {
  const PrepareOptions& opt = run.opt;
  SideInputs side;
  side.returns_path = opt.returns.empty() ? opt.characteristics : opt.returns;
  ReturnStats stats;
  side.returns = read_returns(side.returns_path, add_months(opt.from, run.shift), add_months(opt.to, run.shift),
                              opt.returns.empty(), &stats);
  report.returns_crsp_codes = stats.crsp_codes;
  report.returns_below_minus_one = stats.below_minus_one;
  if (stats.below_minus_one > 0) {
    run.warn(detail::concat(side.returns_path, ": ", stats.below_minus_one, " return(s) below -1 (a loss of more ",
                            "than 100%, not a CRSP missing code -66/-77/-88/-99) treated as missing, their rows ",
                            "dropped; the first on line ", stats.first_below_line, ": '", stats.first_below_value,
                            "'"));
  }
  side.riskfree = read_riskfree(opt.riskfree, opt.rf_percent);
  if (!opt.macro.empty()) side.macro = read_macro(opt.macro);
  return side;
}

/// The characteristics found in the header, into the report; a vintage other than the standard one is warned of.
void report_columns(const Run& run, const GkxColumns& col, PrepareReport& report) {
  const std::string& path = run.opt.characteristics;
  report.characteristics = col.chars.size();
  report.missing_standard = col.missing_standard;
  report.extra_columns = col.extra;
  report.ignored_columns = col.ignored;
  if (!col.missing_standard.empty() || !col.extra.empty()) {
    run.warn(detail::concat(path, ": not the 94 standard GKX characteristics: ", col.missing_standard.size(),
                            " missing (", col.missing_standard.empty() ? "none" : join(col.missing_standard), "), ",
                            col.extra.size(), " other numeric column(s) used as characteristics (",
                            col.extra.empty() ? "none" : join(col.extra), "); the panel has ", col.chars.size(),
                            " characteristics (--strict refuses such a file)"));
  }
  if (!col.ignored.empty()) run.warn(detail::concat(path, ": columns not used: ", join(col.ignored)));
}

/// Stage 1 for one line: its record (head, then the characteristics as float32, NaN = missing).
class RowParser {
 public:
  RowParser(const Run& run, const Header& header, const GkxColumns& col, const SideInputs& side)
      : run_(run), header_(header), col_(col), side_(side), record_(record_size(col.chars.size()), 0) {}

  /// The line's month index with its record in record(), or -1 for a row skipped (counted in `report`).
  int parse(std::string_view line, std::int64_t ln, PrepareReport& report) {
    const PrepareOptions& opt = run_.opt;
    const std::string& path = opt.characteristics;
    split_fields_at(line, fields_, path, ln);
    if (fields_.size() != col_.count)
      throw InputError(detail::concat(path, ":", ln, ": ", fields_.size(), " fields but the header has ", col_.count));
    const std::int32_t month = parse_yyyymmdd_month(fields_[col_.date], where(ln, col_.date));
    if (month < opt.from || month > opt.to) {
      ++report.rows_outside_range;
      return -1;
    }
    ++report.rows_in_range;
    const auto permno = *parse_integer(fields_[col_.permno], where(ln, col_.permno), 1, 0x7fffffff, false);
    const std::int32_t ret_month = add_months(month, run_.shift);
    const ReturnEntry* ret = find_return(side_.returns, permno, ret_month);
    if (ret != nullptr && ret->below_minus_one) {
      ++report.dropped_bad_return;
      return -1;
    }
    if (ret == nullptr || std::isnan(ret->ret)) {
      ++report.dropped_no_return;
      return -1;
    }
    const auto rf = side_.riskfree.find(ret_month);
    if (rf == side_.riskfree.end()) {
      throw InputError(detail::concat(opt.riskfree, ": no risk-free rate for ", ret_month, " (needed by ", path, ":",
                                      ln, ", DATE ", fields_[col_.date], ", align ", to_string(opt.align), ")"));
    }
    if (!side_.macro.empty() && !side_.macro.contains(add_months(ret_month, -1))) {
      throw InputError(detail::concat(opt.macro, ": no complete macro predictors for ", add_months(ret_month, -1),
                                      " (needed by ", path, ":", ln, ", DATE ", fields_[col_.date], ")"));
    }
    RowHead head{};
    head.line = ln;
    head.permno = static_cast<std::int32_t>(permno);
    head.y = ret->ret - rf->second;
    const auto sic = parse_integer(fields_[col_.sic2], where(ln, col_.sic2), 0, 9999, true);
    head.sic2 = sic ? static_cast<std::int32_t>(*sic) : kMissingCode;
    if (sic) sic2_codes.insert(head.sic2);
    std::memcpy(record_.data(), &head, sizeof head);
    write_values(ln);
    return months_between(opt.from, month) - 1;
  }
  const unsigned char* record() const { return record_.data(); }

  std::set<std::int32_t> sic2_codes;  // every SIC2 code seen in range

 private:
  CellRef where(std::int64_t ln, std::size_t column) const {
    return {run_.opt.characteristics, ln, header_.name(column)};
  }
  void write_values(std::int64_t ln) {
    for (std::size_t k = 0; k < col_.chars.size(); ++k) {
      const std::size_t c = col_.chars[k];
      const auto v = parse_number(fields_[c], where(ln, c));
      if (v && std::abs(*v) > std::numeric_limits<float>::max()) {
        throw InputError(detail::concat(run_.opt.characteristics, ":", ln, ": column '", header_.name(c), "': value '",
                                        fields_[c], "' is outside the float32 range"));
      }
      const float x = v ? static_cast<float>(*v) : std::numeric_limits<float>::quiet_NaN();
      std::memcpy(record_.data() + kRecordHead + k * sizeof(float), &x, sizeof x);
    }
  }

  const Run& run_;
  const Header& header_;
  const GkxColumns& col_;
  const SideInputs& side_;
  std::vector<std::string_view> fields_;
  std::vector<unsigned char> record_;
};

/// Stage 1: streams the characteristics' data lines into `store`. Returns the SIC2 codes seen.
std::set<std::int32_t> store_rows(const Run& run, LineReader& reader, const Header& header, const GkxColumns& col,
                                  const SideInputs& side, MonthStore& store, PrepareReport& report) {
  RowParser parser(run, header, col, side);
  std::string_view line;
  while (reader.next(line)) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    ++report.lines_read;
    const int month_index = parser.parse(line, reader.line_number(), report);
    if (month_index >= 0) store.add(month_index, parser.record());
  }
  return std::move(parser.sic2_codes);
}

/// The panel's feature order: characteristics, macro_*, sic2_<code> ascending; a generated name that a
/// characteristic already has is an error.
std::vector<std::string> panel_feature_names(const std::string& path, const GkxColumns& col, std::size_t n_macro,
                                             const std::vector<std::int32_t>& sic2_codes) {
  std::vector<std::string> names = col.names;
  const std::size_t n_chars = names.size();
  for (std::size_t k = 0; k < n_macro; ++k) names.push_back("macro_" + std::string(kMacroNames[k]));
  for (std::int32_t code : sic2_codes) names.push_back("sic2_" + std::to_string(code));
  for (std::size_t a = n_chars; a < names.size(); ++a) {
    for (std::size_t b = 0; b < n_chars; ++b) {
      if (names[a] == names[b]) {
        throw InputError(detail::concat(path, ": column '", names[b], "' clashes with the panel's generated column of ",
                                        "the same name"));
      }
    }
  }
  return names;
}

/// Stage 2: one month's records in, one period of the panel out.
class MonthWriter {
 public:
  MonthWriter(const Run& run, const SideInputs& side, std::size_t n_chars, std::size_t n_macro, Hdf5PanelWriter& writer,
              PrepareReport& report)
      : run_(run),
        side_(side),
        n_chars_(n_chars),
        n_macro_(n_macro),
        p_(report.feature_names.size()),
        record_(record_size(n_chars)),
        writer_(writer),
        report_(report),
        missing_(n_chars, 0) {}

  void write(int month_index, const std::vector<unsigned char>& rows) {
    const std::int32_t yyyymm = add_months(run_.opt.from, month_index);
    const std::size_t n = rows.size() / record_;
    sort_by_permno(rows, n, yyyymm);
    X_.assign(n * p_, 0.0f);
    y_.resize(n);
    column_.resize(n);
    ranked_.resize(n);
    codes_.resize(n);
    std::int64_t month_missing = 0;
    for (std::size_t k = 0; k < n_chars_; ++k) {
      for (std::size_t i = 0; i < n; ++i) column_[i] = value_of(rows.data() + order_[i] * record_, k);
      const auto miss = static_cast<std::int64_t>(n - rank_to_unit_interval(column_, ranked_));
      missing_[k] += miss;
      month_missing += miss;
      for (std::size_t i = 0; i < n; ++i) X_[i * p_ + k] = ranked_[i];
    }
    if (n_macro_ > 0) {
      const auto& values = side_.macro.at(add_months(yyyymm, run_.shift - 1));
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < n_macro_; ++k) X_[i * p_ + n_chars_ + k] = static_cast<float>(values[k]);
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      codes_[i] = heads_[order_[i]].sic2;
      y_[i] = heads_[order_[i]].y;
      if (codes_[i] == kMissingCode) ++report_.sic2_missing;
    }
    one_hot(codes_, report_.sic2_codes, X_.data() + n_chars_ + n_macro_, p_);
    writer_.append_period(yyyymm, X_.data(), y_.data(), static_cast<Index>(n));
    report_.months.push_back(
        {yyyymm, static_cast<std::int64_t>(n), static_cast<double>(month_missing) / static_cast<double>(n * n_chars_)});
    report_.rows_written += static_cast<std::int64_t>(n);
  }
  /// Per characteristic: the share of the rows written where it was missing.
  std::vector<double> missing_share() const {
    std::vector<double> share;
    for (std::int64_t count : missing_)
      share.push_back(static_cast<double>(count) / static_cast<double>(report_.rows_written));
    return share;
  }

 private:
  /// order_: the rows by permno (then line); a permno twice in one month is an error.
  void sort_by_permno(const std::vector<unsigned char>& rows, std::size_t n, std::int32_t yyyymm) {
    heads_.resize(n);
    order_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      heads_[i] = head_of(rows.data() + i * record_);
      order_[i] = i;
    }
    std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) {
      return heads_[a].permno < heads_[b].permno ||
             (heads_[a].permno == heads_[b].permno && heads_[a].line < heads_[b].line);
    });
    for (std::size_t i = 1; i < n; ++i) {
      const RowHead &prev = heads_[order_[i - 1]], &cur = heads_[order_[i]];
      if (cur.permno == prev.permno) {
        throw InputError(detail::concat(run_.opt.characteristics, ": duplicated (permno, month) = (", cur.permno, ", ",
                                        yyyymm, ") on lines ", prev.line, " and ", cur.line));
      }
    }
  }

  const Run& run_;
  const SideInputs& side_;
  std::size_t n_chars_, n_macro_, p_, record_;
  Hdf5PanelWriter& writer_;
  PrepareReport& report_;
  std::vector<std::int64_t> missing_;
  std::vector<float> X_, column_, ranked_;
  std::vector<double> y_;
  std::vector<std::int32_t> codes_;
  std::vector<std::size_t> order_;
  std::vector<RowHead> heads_;
};

/// The panel's prepare.* attributes: the inputs, options and counts that produced it.
void write_attributes(Hdf5PanelWriter& writer, const Run& run, const GkxColumns& col, const PrepareReport& report) {
  const PrepareOptions& opt = run.opt;
  writer.set_attribute("prepare.command", std::string("banditfs prepare-gkx"));
  writer.set_attribute("prepare.characteristics", opt.characteristics);
  writer.set_attribute("prepare.returns", opt.returns.empty() ? opt.characteristics + " (column RET)" : opt.returns);
  writer.set_attribute("prepare.riskfree", opt.riskfree);
  writer.set_attribute("prepare.macro", opt.macro);
  writer.set_attribute("prepare.from", static_cast<std::int64_t>(opt.from));
  writer.set_attribute("prepare.to", static_cast<std::int64_t>(opt.to));
  writer.set_attribute("prepare.align", std::string(to_string(opt.align)));
  writer.set_attribute("prepare.return_month_offset", static_cast<std::int64_t>(run.shift));
  writer.set_attribute("prepare.rf_percent", static_cast<std::int64_t>(opt.rf_percent ? 1 : 0));
  writer.set_attribute("prepare.y", std::string("ret - rf, both of the month DATE + return_month_offset"));
  writer.set_attribute("prepare.rank_formula",
                       std::string("2*r/(N+1)-1, r = average 1-based rank among the N non-missing values of the "
                                   "month; missing -> 0; N < 2 -> 0"));
  writer.set_attribute("prepare.period_label", std::string("yyyymm of DATE"));
  writer.set_attribute("prepare.strict", static_cast<std::int64_t>(opt.strict ? 1 : 0));
  writer.set_attribute("prepare.characteristic_count", static_cast<std::int64_t>(col.chars.size()));
  writer.set_attribute("prepare.characteristics_missing", join(col.missing_standard));
  writer.set_attribute("prepare.characteristics_extra", join(col.extra));
  writer.set_attribute("prepare.columns_ignored", join(col.ignored));
  writer.set_attribute("prepare.lines_read", report.lines_read);
  writer.set_attribute("prepare.rows_in_range", report.rows_in_range);
  writer.set_attribute("prepare.dropped_no_return", report.dropped_no_return);
  writer.set_attribute("prepare.dropped_return_below_minus_one", report.dropped_bad_return);
  writer.set_attribute("prepare.returns_crsp_missing_codes", report.returns_crsp_codes);
  writer.set_attribute("prepare.returns_below_minus_one", report.returns_below_minus_one);
  writer.set_attribute("prepare.sic2_missing", report.sic2_missing);
  writer.set_attribute("prepare.sic2_levels", static_cast<std::int64_t>(report.sic2_codes.size()));
}
}  // namespace

bool is_reserved_column(std::string_view name) {
  for (std::string_view r : {"permno", "DATE", "sic2", "RET", "prc", "SHROUT", "mve0"})
    if (iequals(name, r)) return true;
  return false;
}

std::size_t memory_budget_bytes(double megabytes, std::string_view option) {
  if (!std::isfinite(megabytes))
    throw ConfigError(detail::concat(option, " must be a finite number of MiB, not ", megabytes));
  if (megabytes < 1.0) throw ConfigError(detail::concat(option, " must be at least 1 (MiB), not ", megabytes));
  if (megabytes > 1073741824.0)
    throw ConfigError(detail::concat(option, " must be at most 1073741824 (MiB, 1 PiB), not ", megabytes));
  return static_cast<std::size_t>(megabytes * 1048576.0);
}

PrepareReport prepare_gkx(const PrepareOptions& opt) {
  const auto t0 = std::chrono::steady_clock::now();
  if (opt.to < opt.from) {
    throw InputError(
        detail::concat("month range: --to ", month_text(opt.to), " is before --from ", month_text(opt.from)));
  }
  if (opt.out.empty()) throw InputError("--out: an output file is required");
  const Run run{opt, opt.align == Alignment::NextMonth ? 1 : 0, months_between(opt.from, opt.to)};
  PrepareReport report;
  const SideInputs side = read_side_inputs(run, report);

  // Stage 1: stream the characteristics.
  const std::string& path = opt.characteristics;
  LineReader reader(path);
  std::string_view line;
  if (!reader.next(line)) throw InputError(detail::concat(path, ": empty file (a header is required)"));
  const Header header(path, line);
  const GkxColumns col = locate_columns(header, path, opt.strict);
  report_columns(run, col, report);
  ::bfs::detail::create_parent_directories(opt.out);  // also where months spill to, by default
  const fs::path out_path = fs::absolute(opt.out);
  MonthStore store(opt.from, run.months, record_size(col.chars.size()), opt.memory_budget_bytes,
                   opt.spill_dir.empty() ? out_path.parent_path() : fs::path(opt.spill_dir));
  const std::set<std::int32_t> sic2_codes = store_rows(run, reader, header, col, side, store, report);
  report.sic2_codes.assign(sic2_codes.begin(), sic2_codes.end());
  const std::size_t n_macro = side.macro.empty() ? 0 : kMacroNames.size();
  report.feature_names = panel_feature_names(path, col, n_macro, report.sic2_codes);

  // Stage 2: one period per month.
  const std::int64_t usable = report.rows_in_range - report.dropped_no_return - report.dropped_bad_return;
  if (usable == 0) {
    throw InputError(detail::concat(opt.characteristics, ": no row with a return between ", month_text(opt.from),
                                    " and ", month_text(opt.to), " (", report.rows_in_range, " rows in range, ",
                                    report.dropped_no_return, " without a return, ", report.dropped_bad_return,
                                    " with a return below -1)"));
  }
  Hdf5PanelWriter writer(opt.out, report.feature_names);
  MonthWriter month_writer(run, side, col.chars.size(), n_macro, writer, report);
  for (int m = 0; m < run.months; ++m) {
    const std::vector<unsigned char> rows = store.take(m);
    if (!rows.empty()) month_writer.write(m, rows);
  }
  report.missing_share = month_writer.missing_share();
  report.spilled_bytes = store.spilled_bytes();
  write_attributes(writer, run, col, report);
  if (!opt.truth_json.empty()) writer.set_truth(read_planted_truth(opt.truth_json, report.feature_names));
  writer.finish();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

}  // namespace bfs::gkx
