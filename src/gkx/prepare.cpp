// Two stages. Stage 1 streams the characteristics CSV once: rows outside the month range are skipped after their
// DATE is checked; in-range rows are paired with their excess return (rows without one are dropped and counted)
// and buffered per month as fixed-size records, in memory up to the budget and spilled to one temp file per month
// beyond it. Stage 2 takes the months in order: sort by permno (a duplicate is an error), rank-transform each
// characteristic, add the macro and one-hot columns, append the period to the HDF5 panel.
#include "gkx/prepare.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>

#include "core/error.hpp"
#include "data/hdf5_panel_writer.hpp"
#include "gkx/characteristics.hpp"
#include "gkx/detail/columns.hpp"
#include "gkx/gkx_csv.hpp"
#include "gkx/rank_transform.hpp"

namespace bfs::gkx {

namespace fs = std::filesystem;
using columns::GkxColumns;
using columns::iequals;
using columns::join;
using columns::locate_columns;

namespace {

constexpr std::size_t kStandard = kCharacteristics.size();

/// The fixed head of one in-range row as buffered between the stages; the row's characteristics follow it as
/// float32 (NaN = missing). A record is kRecordHead + 4·K bytes, rounded up to 8.
struct RowHead {
  std::int64_t line;
  double y;
  std::int32_t permno;
  std::int32_t sic2;
};
constexpr std::size_t kRecordHead = sizeof(RowHead);
std::size_t record_size(std::size_t characteristics) {
  return (kRecordHead + characteristics * sizeof(float) + 7) / 8 * 8;
}
RowHead head_of(const unsigned char* record) {
  RowHead h;
  std::memcpy(&h, record, sizeof h);
  return h;
}
float value_of(const unsigned char* record, std::size_t k) {
  float v;
  std::memcpy(&v, record + kRecordHead + k * sizeof(float), sizeof v);
  return v;
}

/// Per-month buffers of fixed-size records with a memory budget; beyond it every buffer is appended to its month's
/// temp file.
class MonthStore {
 public:
  MonthStore(std::int32_t from, int months, std::size_t record, std::size_t budget, fs::path spill_parent)
      : from_(from),
        record_(record),
        buffers_(static_cast<std::size_t>(months)),
        spilled_(buffers_.size(), false),
        budget_(budget),
        parent_(std::move(spill_parent)) {}
  ~MonthStore() {
    if (!dir_.empty()) {
      std::error_code ec;
      fs::remove_all(dir_, ec);
    }
  }
  MonthStore(const MonthStore&) = delete;
  MonthStore& operator=(const MonthStore&) = delete;

  void add(int month_index, const unsigned char* record) {
    auto& buf = buffers_[static_cast<std::size_t>(month_index)];
    buf.insert(buf.end(), record, record + record_);
    bytes_ += record_;
    if (bytes_ > budget_) spill_all();
  }
  /// Every record of the month (spilled part first, so line order is kept), removing it from the store.
  std::vector<unsigned char> take(int month_index) {
    auto& buf = buffers_[static_cast<std::size_t>(month_index)];
    std::vector<unsigned char> rows;
    if (spilled_[static_cast<std::size_t>(month_index)]) {
      const fs::path file = file_of(month_index);
      const auto size = fs::file_size(file);
      rows.resize(static_cast<std::size_t>(size));
      std::FILE* f = std::fopen(file.c_str(), "rb");
      const bool ok = f != nullptr && std::fread(rows.data(), 1, rows.size(), f) == rows.size();
      if (f != nullptr) std::fclose(f);
      if (!ok || rows.size() % record_ != 0)
        throw InputError(detail::concat("cannot read the spill file ", file.string()));
      std::error_code ec;
      fs::remove(file, ec);
    }
    rows.insert(rows.end(), buf.begin(), buf.end());
    bytes_ -= buf.size();
    std::vector<unsigned char>().swap(buf);
    return rows;
  }
  std::int64_t spilled_bytes() const { return spilled_bytes_; }

 private:
  fs::path file_of(int month_index) const { return dir_ / (std::to_string(add_months(from_, month_index)) + ".bin"); }

  void spill_all() {
    if (dir_.empty()) {
      dir_ = parent_ / detail::concat(".banditfs-prepare-gkx-spill.", ::getpid());
      std::error_code ec;
      fs::remove_all(dir_, ec);
      fs::create_directories(dir_, ec);
      if (ec) throw InputError(detail::concat("cannot create the spill directory ", dir_.string(), ": ", ec.message()));
    }
    for (std::size_t k = 0; k < buffers_.size(); ++k) {
      auto& buf = buffers_[k];
      if (buf.empty()) continue;
      const fs::path file = file_of(static_cast<int>(k));
      std::FILE* f = std::fopen(file.c_str(), "ab");
      const bool ok = f != nullptr && std::fwrite(buf.data(), 1, buf.size(), f) == buf.size();
      if (f != nullptr && std::fclose(f) != 0) throw InputError("cannot write the spill file " + file.string());
      if (!ok)
        throw InputError(detail::concat("cannot write the spill file ", file.string(), ": ", std::strerror(errno)));
      spilled_[k] = true;
      spilled_bytes_ += static_cast<std::int64_t>(buf.size());
      std::vector<unsigned char>().swap(buf);
    }
    bytes_ = 0;
  }

  std::int32_t from_;
  std::size_t record_;
  std::vector<std::vector<unsigned char>> buffers_;
  std::vector<bool> spilled_;
  std::size_t budget_;
  std::size_t bytes_ = 0;
  fs::path parent_, dir_;
  std::int64_t spilled_bytes_ = 0;
};

std::string month_text(std::int32_t yyyymm) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d", yyyymm / 100, yyyymm % 100);
  return buf;
}

}  // namespace

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
  const int shift = opt.align == Alignment::NextMonth ? 1 : 0;
  const int months = months_between(opt.from, opt.to);
  PrepareReport report;
  const auto warn = [&](const std::string& text) {
    if (opt.on_warning) opt.on_warning(text);
  };

  // Side inputs first: only the months the range needs are kept.
  const std::string returns_path = opt.returns.empty() ? opt.characteristics : opt.returns;
  ReturnStats return_stats;
  const auto returns = read_returns(returns_path, add_months(opt.from, shift), add_months(opt.to, shift),
                                    opt.returns.empty(), &return_stats);
  report.returns_crsp_codes = return_stats.crsp_codes;
  report.returns_below_minus_one = return_stats.below_minus_one;
  if (return_stats.below_minus_one > 0) {
    warn(detail::concat(returns_path, ": ", return_stats.below_minus_one, " return(s) below -1 (a loss of more than ",
                        "100%, not a CRSP missing code -66/-77/-88/-99) treated as missing, their rows dropped; the ",
                        "first on line ", return_stats.first_below_line, ": '", return_stats.first_below_value, "'"));
  }
  const auto riskfree = read_riskfree(opt.riskfree, opt.rf_percent);
  std::map<std::int32_t, std::array<double, 8>> macro;
  if (!opt.macro.empty()) macro = read_macro(opt.macro);

  // Stage 1: stream the characteristics.
  const std::string& path = opt.characteristics;
  LineReader reader(path);
  std::string_view line;
  if (!reader.next(line)) throw InputError(detail::concat(path, ": empty file (a header is required)"));
  const Header header(path, line);
  const GkxColumns col = locate_columns(header, path, opt.strict);
  const std::size_t n_chars = col.chars.size();
  report.characteristics = n_chars;
  report.missing_standard = col.missing_standard;
  report.extra_columns = col.extra;
  report.ignored_columns = col.ignored;
  if (!col.missing_standard.empty() || !col.extra.empty()) {
    warn(detail::concat(path, ": not the 94 standard GKX characteristics: ", col.missing_standard.size(), " missing (",
                        col.missing_standard.empty() ? "none" : join(col.missing_standard), "), ", col.extra.size(),
                        " other numeric column(s) used as characteristics (",
                        col.extra.empty() ? "none" : join(col.extra), "); the panel has ", n_chars,
                        " characteristics (--strict refuses such a file)"));
  }
  if (!col.ignored.empty()) warn(detail::concat(path, ": columns not used: ", join(col.ignored)));

  const std::size_t record = record_size(n_chars);
  const fs::path out_path = fs::absolute(opt.out);
  MonthStore store(opt.from, months, record, opt.memory_budget_bytes,
                   opt.spill_dir.empty() ? out_path.parent_path() : fs::path(opt.spill_dir));
  std::set<std::int32_t> sic2_codes;
  {
    std::vector<std::string_view> f;
    std::vector<unsigned char> rec(record, 0);
    while (reader.next(line)) {
      if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      const std::int64_t ln = reader.line_number();
      ++report.lines_read;
      split_fields_at(line, f, path, ln);
      if (f.size() != col.count) {
        throw InputError(detail::concat(path, ":", ln, ": ", f.size(), " fields but the header has ", col.count));
      }
      const std::int32_t month = parse_yyyymmdd_month(f[col.date], {path, ln, header.name(col.date)});
      if (month < opt.from || month > opt.to) {
        ++report.rows_outside_range;
        continue;
      }
      ++report.rows_in_range;
      const auto permno = *parse_integer(f[col.permno], {path, ln, header.name(col.permno)}, 1, 0x7fffffff, false);
      const std::int32_t ret_month = add_months(month, shift);
      const ReturnEntry* ret = find_return(returns, permno, ret_month);
      if (ret != nullptr && ret->below_minus_one) {
        ++report.dropped_bad_return;
        continue;
      }
      if (ret == nullptr || std::isnan(ret->ret)) {
        ++report.dropped_no_return;
        continue;
      }
      const auto rf = riskfree.find(ret_month);
      if (rf == riskfree.end()) {
        throw InputError(detail::concat(opt.riskfree, ": no risk-free rate for ", ret_month, " (needed by ", path, ":",
                                        ln, ", DATE ", f[col.date], ", align ", to_string(opt.align), ")"));
      }
      if (!macro.empty() && !macro.contains(add_months(ret_month, -1))) {
        throw InputError(detail::concat(opt.macro, ": no complete macro predictors for ", add_months(ret_month, -1),
                                        " (needed by ", path, ":", ln, ", DATE ", f[col.date], ")"));
      }
      RowHead head{};
      head.line = ln;
      head.permno = static_cast<std::int32_t>(permno);
      head.y = ret->ret - rf->second;
      const auto sic = parse_integer(f[col.sic2], {path, ln, header.name(col.sic2)}, 0, 9999, true);
      head.sic2 = sic ? static_cast<std::int32_t>(*sic) : kMissingCode;
      if (sic) sic2_codes.insert(head.sic2);
      std::memcpy(rec.data(), &head, sizeof head);
      for (std::size_t k = 0; k < n_chars; ++k) {
        const std::size_t c = col.chars[k];
        const auto v = parse_number(f[c], {path, ln, header.name(c)});
        if (v && std::abs(*v) > std::numeric_limits<float>::max()) {
          throw InputError(detail::concat(path, ":", ln, ": column '", header.name(c), "': value '", f[c],
                                          "' is outside the float32 range"));
        }
        const float x = v ? static_cast<float>(*v) : std::numeric_limits<float>::quiet_NaN();
        std::memcpy(rec.data() + kRecordHead + k * sizeof(float), &x, sizeof x);
      }
      store.add(months_between(opt.from, month) - 1, rec.data());
    }
  }
  report.sic2_codes.assign(sic2_codes.begin(), sic2_codes.end());

  // Feature order: characteristics, macro_*, sic2_<code> ascending.
  std::vector<std::string> names = col.names;
  const std::size_t n_macro = macro.empty() ? 0 : kMacroNames.size();
  for (std::size_t k = 0; k < n_macro; ++k) names.push_back("macro_" + std::string(kMacroNames[k]));
  for (std::int32_t code : report.sic2_codes) names.push_back("sic2_" + std::to_string(code));
  for (std::size_t a = n_chars; a < names.size(); ++a) {
    for (std::size_t b = 0; b < n_chars; ++b) {
      if (names[a] == names[b]) {
        throw InputError(detail::concat(path, ": column '", names[b], "' clashes with the panel's generated column of ",
                                        "the same name"));
      }
    }
  }
  report.feature_names = names;
  const std::size_t p = names.size();

  // Stage 2: one period per month.
  const std::int64_t usable = report.rows_in_range - report.dropped_no_return - report.dropped_bad_return;
  if (usable == 0) {
    throw InputError(detail::concat(opt.characteristics, ": no row with a return between ", month_text(opt.from),
                                    " and ", month_text(opt.to), " (", report.rows_in_range, " rows in range, ",
                                    report.dropped_no_return, " without a return, ", report.dropped_bad_return,
                                    " with a return below -1)"));
  }
  Hdf5PanelWriter writer(opt.out, names);
  std::vector<std::int64_t> missing(n_chars, 0);
  std::vector<float> X, column, ranked;
  std::vector<double> y;
  std::vector<std::int32_t> codes;
  std::vector<std::size_t> order;
  std::vector<RowHead> heads;
  for (int m = 0; m < months; ++m) {
    const std::vector<unsigned char> rows = store.take(m);
    if (rows.empty()) continue;
    const std::int32_t yyyymm = add_months(opt.from, m);
    const std::size_t n = rows.size() / record;
    heads.resize(n);
    order.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      heads[i] = head_of(rows.data() + i * record);
      order[i] = i;
    }
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return heads[a].permno < heads[b].permno || (heads[a].permno == heads[b].permno && heads[a].line < heads[b].line);
    });
    for (std::size_t i = 1; i < n; ++i) {
      const RowHead &prev = heads[order[i - 1]], &cur = heads[order[i]];
      if (cur.permno == prev.permno) {
        throw InputError(detail::concat(opt.characteristics, ": duplicated (permno, month) = (", cur.permno, ", ",
                                        yyyymm, ") on lines ", prev.line, " and ", cur.line));
      }
    }
    X.assign(n * p, 0.0f);
    y.resize(n);
    column.resize(n);
    ranked.resize(n);
    codes.resize(n);
    std::int64_t month_missing = 0;
    for (std::size_t k = 0; k < n_chars; ++k) {
      for (std::size_t i = 0; i < n; ++i) column[i] = value_of(rows.data() + order[i] * record, k);
      const auto miss = static_cast<std::int64_t>(n - rank_to_unit_interval(column, ranked));
      missing[k] += miss;
      month_missing += miss;
      for (std::size_t i = 0; i < n; ++i) X[i * p + k] = ranked[i];
    }
    if (n_macro > 0) {
      const auto& values = macro.at(add_months(yyyymm, shift - 1));
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t k = 0; k < n_macro; ++k) X[i * p + n_chars + k] = static_cast<float>(values[k]);
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      codes[i] = heads[order[i]].sic2;
      y[i] = heads[order[i]].y;
      if (codes[i] == kMissingCode) ++report.sic2_missing;
    }
    one_hot(codes, report.sic2_codes, X.data() + n_chars + n_macro, p);
    writer.append_period(yyyymm, X.data(), y.data(), static_cast<Index>(n));
    report.months.push_back(
        {yyyymm, static_cast<std::int64_t>(n), static_cast<double>(month_missing) / static_cast<double>(n * n_chars)});
    report.rows_written += static_cast<std::int64_t>(n);
  }
  for (std::size_t k = 0; k < n_chars; ++k) {
    report.missing_share.push_back(static_cast<double>(missing[k]) / static_cast<double>(report.rows_written));
  }
  report.spilled_bytes = store.spilled_bytes();

  writer.set_attribute("prepare.command", std::string("banditfs prepare-gkx"));
  writer.set_attribute("prepare.characteristics", opt.characteristics);
  writer.set_attribute("prepare.returns", opt.returns.empty() ? opt.characteristics + " (column RET)" : opt.returns);
  writer.set_attribute("prepare.riskfree", opt.riskfree);
  writer.set_attribute("prepare.macro", opt.macro);
  writer.set_attribute("prepare.from", static_cast<std::int64_t>(opt.from));
  writer.set_attribute("prepare.to", static_cast<std::int64_t>(opt.to));
  writer.set_attribute("prepare.align", std::string(to_string(opt.align)));
  writer.set_attribute("prepare.return_month_offset", static_cast<std::int64_t>(shift));
  writer.set_attribute("prepare.rf_percent", static_cast<std::int64_t>(opt.rf_percent ? 1 : 0));
  writer.set_attribute("prepare.y", std::string("ret - rf, both of the month DATE + return_month_offset"));
  writer.set_attribute("prepare.rank_formula",
                       std::string("2*r/(N+1)-1, r = average 1-based rank among the N non-missing values of the "
                                   "month; missing -> 0; N < 2 -> 0"));
  writer.set_attribute("prepare.period_label", std::string("yyyymm of DATE"));
  writer.set_attribute("prepare.strict", static_cast<std::int64_t>(opt.strict ? 1 : 0));
  writer.set_attribute("prepare.characteristic_count", static_cast<std::int64_t>(n_chars));
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
  if (!opt.truth_json.empty()) writer.set_truth(read_planted_truth(opt.truth_json, report.feature_names));
  writer.finish();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report;
}

void print_report(const PrepareOptions& opt, const PrepareReport& r, std::ostream& out) {
  const auto pct = [](double share) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << 100.0 * share << "%";
    return s.str();
  };
  const std::size_t n_chars = r.characteristics;
  out << "prepare-gkx: " << opt.characteristics << " -> " << opt.out << " (" << std::fixed << std::setprecision(1)
      << r.seconds << " s)\n";
  out << "  months        " << month_text(opt.from) << " .. " << month_text(opt.to) << ", align "
      << to_string(opt.align) << ": y = ret - rf of the month "
      << (opt.align == Alignment::SameMonth ? "of DATE" : "after DATE") << "\n";
  out << "  rows          " << r.lines_read << " read, " << r.rows_outside_range << " outside the range, "
      << r.rows_in_range << " in range, " << r.dropped_no_return << " dropped (no return), ";
  if (r.dropped_bad_return > 0) out << r.dropped_bad_return << " dropped (return below -1), ";
  out << r.rows_written << " written\n";
  out << "  returns       " << r.returns_crsp_codes << " CRSP missing codes (-66/-77/-88/-99, letters) and "
      << r.returns_below_minus_one << " values below -1 treated as missing\n";
  std::vector<std::int64_t> stocks;
  for (const auto& m : r.months) stocks.push_back(m.stocks);
  std::sort(stocks.begin(), stocks.end());
  out << "  periods       " << r.months.size() << " months with rows; stocks per month min " << stocks.front()
      << ", median " << stocks[stocks.size() / 2] << ", max " << stocks.back() << "\n";
  const std::size_t n_macro = r.feature_names.size() - n_chars - r.sic2_codes.size();
  out << "  features      " << r.feature_names.size() << " = " << n_chars << " characteristics + " << n_macro
      << " macro + " << r.sic2_codes.size() << " sic2 dummies (" << r.sic2_missing << " rows without sic2)\n";
  if (!r.missing_standard.empty() || !r.extra_columns.empty()) {
    out << "  vintage       " << r.missing_standard.size() << " of the " << kStandard << " standard characteristics "
        << "missing (" << (r.missing_standard.empty() ? "none" : join(r.missing_standard)) << "); "
        << r.extra_columns.size() << " other numeric columns used ("
        << (r.extra_columns.empty() ? "none" : join(r.extra_columns)) << ")\n";
  }
  if (!r.ignored_columns.empty()) out << "  not used      " << join(r.ignored_columns) << "\n";
  double total = 0.0;
  for (double s : r.missing_share) total += s;
  out << "  missing       " << pct(total / static_cast<double>(n_chars))
      << " of all characteristic values (set to 0); per characteristic, highest first:\n";
  std::vector<std::size_t> order(n_chars);
  for (std::size_t k = 0; k < n_chars; ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return r.missing_share[a] > r.missing_share[b]; });
  for (std::size_t i = 0; i < n_chars; ++i) {
    out << (i % 5 == 0 ? "    " : "  ") << std::left << std::setw(16) << r.feature_names[order[i]] << std::right
        << std::setw(6) << pct(r.missing_share[order[i]]) << (i % 5 == 4 || i + 1 == n_chars ? "\n" : "");
  }
  out << "  per month     month stocks missing\n";
  for (std::size_t i = 0; i < r.months.size(); ++i) {
    const auto& m = r.months[i];
    out << (i % 4 == 0 ? "    " : "   ") << month_text(m.yyyymm) << std::setw(7) << m.stocks << std::setw(7)
        << pct(m.missing_share) << (i % 4 == 3 || i + 1 == r.months.size() ? "\n" : "");
  }
  if (r.spilled_bytes > 0) {
    out << "  memory        " << r.spilled_bytes / (1 << 20) << " MiB of rows spilled to temp files (budget "
        << opt.memory_budget_bytes / (1 << 20) << " MiB)\n";
  }
}

}  // namespace bfs::gkx
