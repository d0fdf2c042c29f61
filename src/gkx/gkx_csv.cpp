#include "gkx/gkx_csv.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "core/error.hpp"
#include "gkx/detail/columns.hpp"

namespace bfs::gkx {

namespace {

using columns::iequals;

[[noreturn]] void bad_cell(const CellRef& at, std::string_view value, std::string_view what) {
  throw InputError(detail::concat(at.path, ":", at.line, ": column '", at.column, "': value '", value, "' ", what));
}

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int to_int(std::string_view digits) {
  int v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  return v;
}

}  // namespace

bool split_fields(std::string_view line, std::vector<std::string_view>& fields) {
  if (!split_csv_line(line, fields)) return false;
  for (auto& f : fields) f = strip_quotes(f);
  return true;
}

void split_fields_at(std::string_view line, std::vector<std::string_view>& fields, const std::string& path,
                     std::int64_t line_number) {
  if (!split_fields(line, fields)) throw InputError(detail::concat(path, ":", line_number, ": unterminated quote"));
}

bool is_missing(std::string_view f) {
  return f.empty() || f == "." || iequals(f, "na") || iequals(f, "nan") || iequals(f, "n/a") || iequals(f, "null");
}

Header::Header(std::string path, std::string_view line) : path_(std::move(path)) {
  std::vector<std::string_view> fields;
  split_fields_at(strip_byte_order_mark(line), fields, path_, 1);  // a BOM would stick to the first name
  for (auto f : fields) names_.emplace_back(f);
}

std::optional<std::size_t> Header::find(std::initializer_list<std::string_view> aliases) const {
  for (std::string_view alias : aliases) {
    for (std::size_t k = 0; k < names_.size(); ++k) {
      if (iequals(names_[k], alias)) return k;
    }
  }
  return std::nullopt;
}

std::size_t Header::require(std::initializer_list<std::string_view> aliases, std::string_view what) const {
  if (auto k = find(aliases)) return *k;
  std::string accepted;
  for (std::string_view a : aliases) accepted += (accepted.empty() ? "'" : ", '") + std::string(a) + "'";
  throw InputError(detail::concat(path_, ": required column ", what, " is missing from the header (line 1; accepted ",
                                  aliases.size() > 1 ? "names: " : "name: ", accepted, ")"));
}

std::optional<double> parse_number(std::string_view field, const CellRef& at) {
  if (is_missing(field)) return std::nullopt;
  std::string_view s = field;
  if (s.size() > 1 && s.front() == '+') s.remove_prefix(1);
  double v = 0.0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range) bad_cell(at, field, "is out of the range of a double");
  if (ec != std::errc() || ptr != s.data() + s.size()) bad_cell(at, field, "is not a number (nor a missing value)");
  if (!std::isfinite(v)) bad_cell(at, field, "is not finite");
  return v;
}

std::optional<std::int64_t> parse_integer(std::string_view field, const CellRef& at, std::int64_t lo, std::int64_t hi,
                                          bool allow_missing) {
  if (is_missing(field)) {
    if (allow_missing) return std::nullopt;
    bad_cell(at, field, "is missing (an integer is required)");
  }
  const double v = *parse_number(field, at);
  if (v != std::floor(v)) bad_cell(at, field, "is not an integer");
  if (v < static_cast<double>(lo) || v > static_cast<double>(hi)) {
    bad_cell(at, field, detail::concat("is outside [", lo, ", ", hi, "]"));
  }
  return static_cast<std::int64_t>(v);
}

std::int32_t parse_yyyymmdd_month(std::string_view field, const CellRef& at) {
  if (field.size() != 8 || !all_digits(field)) bad_cell(at, field, "is not a date yyyymmdd");
  const int month = to_int(field.substr(4, 2)), day = to_int(field.substr(6, 2));
  if (month < 1 || month > 12) bad_cell(at, field, detail::concat("has month ", month, " (not 1-12)"));
  if (day < 1 || day > 31) bad_cell(at, field, detail::concat("has day ", day, " (not 1-31)"));
  return to_int(field.substr(0, 6));
}

std::int32_t parse_any_month(std::string_view field, const CellRef& at) {
  std::string_view s = field;
  if (s.size() > 2 && s.substr(s.size() - 2) == ".0") s.remove_suffix(2);
  int year = 0, month = 0;
  if ((s.size() == 6 || s.size() == 8) && all_digits(s)) {
    year = to_int(s.substr(0, 4));
    month = to_int(s.substr(4, 2));
    if (s.size() == 8 && (to_int(s.substr(6, 2)) < 1 || to_int(s.substr(6, 2)) > 31)) {
      bad_cell(at, field, "has a day outside 1-31");
    }
  } else if ((s.size() == 7 || s.size() == 10) && s[4] == '-' && all_digits(s.substr(0, 4)) &&
             all_digits(s.substr(5, 2)) && (s.size() == 7 || (s[7] == '-' && all_digits(s.substr(8, 2))))) {
    year = to_int(s.substr(0, 4));
    month = to_int(s.substr(5, 2));
  } else {
    bad_cell(at, field, "is not a month (yyyymm, yyyymmdd, yyyy-mm or yyyy-mm-dd)");
  }
  if (month < 1 || month > 12) bad_cell(at, field, detail::concat("has month ", month, " (not 1-12)"));
  return year * 100 + month;
}

std::int32_t add_months(std::int32_t yyyymm, int months) {
  const int index = (yyyymm / 100) * 12 + (yyyymm % 100 - 1) + months;
  return (index / 12) * 100 + index % 12 + 1;
}

int months_between(std::int32_t from, std::int32_t to) {
  const int a = (from / 100) * 12 + from % 100, b = (to / 100) * 12 + to % 100;
  return std::max(0, b - a + 1);
}

std::string month_text(std::int32_t yyyymm) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02d", yyyymm / 100, yyyymm % 100);
  return buf;
}

bool is_crsp_missing_return(double v) {
  return v == -66.0 || v == -77.0 || v == -88.0 || v == -99.0;
}

std::vector<ReturnEntry> read_returns(const std::string& path, std::int32_t first, std::int32_t last,
                                      bool date_is_yyyymmdd, ReturnStats* stats) {
  ReturnStats local;
  ReturnStats& st = stats != nullptr ? *stats : local;
  LineReader reader(path);
  std::string_view line;
  if (!reader.next(line)) throw InputError(detail::concat(path, ": empty file (a header is required)"));
  const Header header(path, line);
  const std::size_t c_permno = header.require({"permno"}, "permno");
  const std::size_t c_month = header.require({"yyyymm", "date", "month"}, "month");
  const std::size_t c_ret = header.require({"ret", "return"}, "return");
  const std::size_t needed = std::max({c_permno, c_month, c_ret}) + 1;
  std::vector<ReturnEntry> out;
  std::vector<std::string_view> f;
  while (reader.next(line)) {
    if (trim_blanks(line).empty()) continue;
    split_fields_at(line, f, path, reader.line_number());
    const std::int64_t ln = reader.line_number();
    if (f.size() < needed) {
      throw InputError(detail::concat(path, ":", ln, ": ", f.size(), " fields but the header has ", header.size()));
    }
    const CellRef mref{path, ln, header.name(c_month)};
    const std::int32_t month =
        date_is_yyyymmdd ? parse_yyyymmdd_month(f[c_month], mref) : parse_any_month(f[c_month], mref);
    if (month < first || month > last) continue;
    const auto permno = *parse_integer(f[c_permno], {path, ln, header.name(c_permno)}, 1, 0x7fffffff, false);
    double ret = std::numeric_limits<double>::quiet_NaN();
    const std::string_view r = f[c_ret];
    const bool letter_code = r.size() == 1 && std::isalpha(static_cast<unsigned char>(r[0]));
    bool below = false;
    if (letter_code) {
      ++st.crsp_codes;
    } else if (auto v = parse_number(r, {path, ln, header.name(c_ret)})) {
      if (is_crsp_missing_return(*v)) {
        ++st.crsp_codes;
      } else if (*v < -1.0) {
        below = true;
        if (st.below_minus_one++ == 0) {
          st.first_below_line = ln;
          st.first_below_value = std::string(r);
        }
      } else {
        ret = *v;
      }
    }
    out.push_back({return_key(permno, month), ret, ln, below});
  }
  std::sort(out.begin(), out.end(), [](const ReturnEntry& a, const ReturnEntry& b) {
    return a.key < b.key || (a.key == b.key && a.line < b.line);
  });
  for (std::size_t k = 1; k < out.size(); ++k) {
    if (out[k].key == out[k - 1].key) {
      throw InputError(detail::concat(path, ": duplicated (permno, month) = (", out[k].key >> 32, ", ",
                                      out[k].key & 0xffffffff, ") on lines ", out[k - 1].line, " and ", out[k].line));
    }
  }
  return out;
}

const ReturnEntry* find_return(const std::vector<ReturnEntry>& sorted, std::int64_t permno, std::int32_t yyyymm) {
  const std::int64_t key = return_key(permno, yyyymm);
  auto it = std::lower_bound(sorted.begin(), sorted.end(), key,
                             [](const ReturnEntry& e, std::int64_t k) { return e.key < k; });
  return it != sorted.end() && it->key == key ? &*it : nullptr;
}

std::map<std::int32_t, double> read_riskfree(const std::string& path, bool percent) {
  LineReader reader(path);
  std::string_view line;
  if (!reader.next(line)) throw InputError(detail::concat(path, ": empty file (a header is required)"));
  const Header header(path, line);
  std::size_t c_month = 0;
  if (auto k = header.find({"yyyymm", "date", "month"})) {
    c_month = *k;
  } else if (header.size() == 0 || !header.name(0).empty()) {
    header.require({"yyyymm", "date", "month"}, "month");  // throws
  }
  const std::size_t c_rf = header.require({"rf", "riskfree", "risk_free", "rfree"}, "risk-free rate");
  std::map<std::int32_t, std::int64_t> lines;
  std::map<std::int32_t, double> out;
  std::vector<std::string_view> f;
  while (reader.next(line)) {
    if (trim_blanks(line).empty()) continue;
    split_fields_at(line, f, path, reader.line_number());
    const std::int64_t ln = reader.line_number();
    if (f.size() <= std::max(c_month, c_rf)) {
      throw InputError(detail::concat(path, ":", ln, ": ", f.size(), " fields but the header has ", header.size()));
    }
    const std::int32_t month = parse_any_month(f[c_month], {path, ln, header.name(c_month)});
    auto v = parse_number(f[c_rf], {path, ln, header.name(c_rf)});
    if (!v) continue;  // a missing rate: the month is simply absent (an error only if it is needed)
    if (auto [it, fresh] = lines.emplace(month, ln); !fresh) {
      throw InputError(detail::concat(path, ": month ", month, " appears twice, on lines ", it->second, " and ", ln));
    }
    out[month] = percent ? *v / 100.0 : *v;
  }
  return out;
}

std::map<std::int32_t, std::array<double, 8>> read_macro(const std::string& path) {
  LineReader reader(path);
  std::string_view line;
  if (!reader.next(line)) throw InputError(detail::concat(path, ": empty file (a header is required)"));
  const Header header(path, line);
  const std::size_t c_month = header.require({"yyyymm", "date", "month"}, "month");
  // For each predictor: its own column, or the raw Welch–Goyal columns it is derived from.
  struct Source {
    std::optional<std::size_t> direct, a, b;
  };
  std::array<Source, 8> src;
  const auto index = header.find({"index"}), d12 = header.find({"d12"}), e12 = header.find({"e12"});
  for (std::size_t k = 0; k < kMacroNames.size(); ++k) src[k].direct = header.find({kMacroNames[k]});
  if (!src[0].direct) src[0] = {std::nullopt, d12, index};
  if (!src[1].direct) src[1] = {std::nullopt, e12, index};
  if (!src[2].direct) src[2].direct = header.find({"b/m"});
  if (!src[5].direct) src[5] = {std::nullopt, header.find({"lty"}), header.find({"tbl"})};
  if (!src[6].direct) src[6] = {std::nullopt, header.find({"baa"}), header.find({"aaa"})};
  for (std::size_t k = 0; k < kMacroNames.size(); ++k) {
    if (!src[k].direct && !(src[k].a && src[k].b)) {
      static const char* raw[8] = {"D12 and Index", "E12 and Index", "b/m", "", "", "lty and tbl", "BAA and AAA", ""};
      throw InputError(detail::concat(path, ": macro predictor '", kMacroNames[k], "' has no column '", kMacroNames[k],
                                      "'", raw[k][0] != '\0' ? " and none of its raw inputs (" : "", raw[k],
                                      raw[k][0] != '\0' ? ")" : "", " in the header"));
    }
  }
  std::map<std::int32_t, std::array<double, 8>> out;
  std::map<std::int32_t, std::int64_t> lines;
  std::vector<std::string_view> f;
  while (reader.next(line)) {
    if (trim_blanks(line).empty()) continue;
    split_fields_at(line, f, path, reader.line_number());
    const std::int64_t ln = reader.line_number();
    if (f.size() < header.size()) {
      throw InputError(detail::concat(path, ":", ln, ": ", f.size(), " fields but the header has ", header.size()));
    }
    const std::int32_t month = parse_any_month(f[c_month], {path, ln, header.name(c_month)});
    if (auto [it, fresh] = lines.emplace(month, ln); !fresh) {
      throw InputError(detail::concat(path, ": month ", month, " appears twice, on lines ", it->second, " and ", ln));
    }
    auto num = [&](std::size_t c) {
      auto v = parse_number(f[c], {path, ln, header.name(c)});
      return v ? *v : std::numeric_limits<double>::quiet_NaN();
    };
    std::array<double, 8> row{};
    bool complete = true;
    for (std::size_t k = 0; k < kMacroNames.size(); ++k) {
      if (src[k].direct) {
        row[k] = num(*src[k].direct);
      } else {
        const double a = num(*src[k].a), b = num(*src[k].b);
        row[k] = k < 2 ? std::log(a) - std::log(b) : a - b;  // dp, ep: log ratios; tms, dfy: spreads
      }
      complete = complete && std::isfinite(row[k]);
    }
    if (complete) out[month] = row;
  }
  return out;
}

}  // namespace bfs::gkx
