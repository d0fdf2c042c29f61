// A CSV contextual-bandit log, read in two streaming passes: the first finds which feature
// columns are numeric (a column is categorical when a non-missing cell is not a number, or when data.categorical
// names it), the second parses the values into a column-major X with every error naming the file, line and column.
// Categorical codes follow the sorted labels (detail::sort_labels), so they do not depend on the row order.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "data/csv_lines.hpp"
#include "data/logged_data.hpp"
#include "data/logged_data_detail.hpp"

namespace bfs {

namespace {

/// Codes (in first-seen order while reading, then remapped to the sorted order) are stored in X as float: exact
/// up to 2^24.
constexpr std::size_t kMostLabels = std::size_t{1} << 24;

/// Removes surrounding quotes and un-escapes "" inside them.
std::string unquote(std::string_view cell) {
  if (cell.size() < 2 || cell.front() != '"' || cell.back() != '"') return std::string(cell);
  std::string out;
  cell = trim_blanks(cell.substr(1, cell.size() - 2));
  for (std::size_t i = 0; i < cell.size(); ++i) {
    out.push_back(cell[i]);
    if (cell[i] == '"' && i + 1 < cell.size() && cell[i + 1] == '"') ++i;
  }
  return out;
}

/// An empty cell or NaN (any case): a missing value.
bool is_missing(std::string_view s) {
  return s.empty() || (s.size() == 3 && (s[0] == 'n' || s[0] == 'N') && (s[1] == 'a' || s[1] == 'A') &&
                       (s[2] == 'n' || s[2] == 'N'));
}

/// The number in `s` (a leading '+' allowed), Inf included; nullopt when `s` is not a number. `range` is set when it
/// is one but outside double's range.
std::optional<double> parse_number(std::string_view s, bool* range = nullptr) {
  if (s.size() > 1 && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (end != s.data() + s.size() || (ec != std::errc() && ec != std::errc::result_out_of_range)) return std::nullopt;
  if (range != nullptr) *range = ec == std::errc::result_out_of_range;
  return v;
}

/// Rows of a CSV file: blank lines skipped, each split into cells, ragged rows and open quotes refused.
class CsvRows {
 public:
  explicit CsvRows(const std::string& path) : path_(path), lines_(path) {}
  /// The header's cells (unquoted).
  std::vector<std::string> header() {
    std::string_view line;
    while (lines_.next(line)) {
      if (lines_.line_number() == 1) line = strip_byte_order_mark(line);
      if (!trim_blanks(line).empty()) {
        split(line);
        width_ = cells_.size();
        std::vector<std::string> names;
        for (auto cell : cells_) names.push_back(unquote(cell));
        return names;
      }
    }
    throw InputError(detail::concat(path_, ": the file is empty (no header row)"));
  }
  bool next() {
    std::string_view line;
    while (lines_.next(line)) {
      if (trim_blanks(line).empty()) continue;
      split(line);
      if (cells_.size() != width_) {
        throw InputError(detail::concat(path_, ": line ", lines_.line_number(), " has ", cells_.size(),
                                        " cells but the header has ", width_));
      }
      return true;
    }
    return false;
  }
  /// Cell c of the current row without its quotes (escapes kept: for numbers).
  std::string_view cell(std::size_t c) const { return strip_quotes(cells_[c]); }
  /// Cell c of the current row as text (quotes removed, "" un-escaped): for labels.
  std::string text(std::size_t c) const { return unquote(cells_[c]); }
  std::int64_t line() const { return lines_.line_number(); }

 private:
  void split(std::string_view line) {
    if (!split_csv_line(line, cells_))
      throw InputError(detail::concat(path_, ": line ", lines_.line_number(), ": unterminated quote"));
  }
  std::string path_;
  LineReader lines_;
  std::vector<std::string_view> cells_;
  std::size_t width_ = 0;
};

/// Which header column plays which role, and how each feature is parsed.
struct Layout {
  std::vector<std::string> header;
  std::size_t arm = 0, reward = 0;
  std::vector<std::size_t> features;                  // header columns, in feature order
  std::vector<std::uint8_t> named_categorical, text;  // per feature: in data.categorical; has a non-number
  Index rows = 0;
};

Layout find_columns(const std::string& path, std::vector<std::string> header, const LoggedCsvSpec& spec) {
  Layout layout;
  layout.header = std::move(header);
  std::unordered_map<std::string, std::size_t> column_of;
  for (std::size_t c = 0; c < layout.header.size(); ++c) {
    if (!layout.header[c].empty() && !column_of.emplace(layout.header[c], c).second)
      throw InputError(detail::concat(path, ": duplicate column '", printable(layout.header[c]), "' in the header"));
  }
  auto find = [&](const std::string& name, const char* key) {
    if (name.empty()) throw InputError(detail::concat(path, ": ", key, " is empty; it must name a column"));
    const auto it = column_of.find(name);
    if (it == column_of.end())
      throw InputError(detail::concat(path, ": no column '", printable(name), "' in the header (", key, ")"));
    return it->second;
  };
  layout.arm = find(spec.arm, "data.arm");
  layout.reward = find(spec.reward, "data.reward");
  if (layout.arm == layout.reward)
    throw InputError(detail::concat(path, ": data.arm and data.reward both name column '", spec.arm, "'"));
  if (spec.features.empty()) {
    for (std::size_t c = 0; c < layout.header.size(); ++c) {
      if (c == layout.arm || c == layout.reward) continue;
      if (layout.header[c].empty())
        throw InputError(detail::concat(path, ": column ", c + 1, " has an empty name in the header"));
      layout.features.push_back(c);
    }
  } else {
    std::unordered_set<std::string> seen;
    for (const auto& name : spec.features) {
      if (!seen.insert(name).second)
        throw InputError(detail::concat(path, ": data.features lists '", printable(name), "' twice"));
      const std::size_t c = find(name, "data.features");
      if (c == layout.arm || c == layout.reward)
        throw InputError(detail::concat(path, ": data.features lists the ", c == layout.arm ? "arm" : "reward",
                                        " column '", printable(name), "'"));
      layout.features.push_back(c);
    }
  }
  if (layout.features.empty())
    throw InputError(detail::concat(path, ": p = 0 (no feature columns besides the arm and the reward)"));
  for (const std::size_t c : layout.features) {
    if (has_control_byte(layout.header[c]))
      throw InputError(detail::concat(path, ": the name of column ", c + 1, " ('", printable(layout.header[c]),
                                      "') holds a control character"));
  }
  layout.named_categorical.assign(layout.features.size(), 0);
  layout.text.assign(layout.features.size(), 0);
  for (const auto& name : spec.categorical) {
    const auto it = std::find_if(layout.features.begin(), layout.features.end(),
                                 [&](std::size_t c) { return layout.header[c] == name; });
    if (it == layout.features.end())
      throw InputError(detail::concat(path, ": data.categorical names '", printable(name), "', not a feature column"));
    layout.named_categorical[static_cast<std::size_t>(it - layout.features.begin())] = 1;
  }
  return layout;
}

/// Pass 1: the header's roles, which features hold text, and the row count.
Layout first_pass(const std::string& path, const LoggedCsvSpec& spec) {
  CsvRows rows(path);
  Layout layout = find_columns(path, rows.header(), spec);
  while (rows.next()) {
    ++layout.rows;
    for (std::size_t f = 0; f < layout.features.size(); ++f) {
      if (layout.text[f] != 0) continue;
      const std::string_view s = rows.cell(layout.features[f]);
      if (!is_missing(s) && !parse_number(s)) layout.text[f] = 1;
    }
  }
  if (layout.rows < 2) {
    throw InputError(detail::concat(path, ": n = ", layout.rows, " data row", layout.rows == 1 ? "" : "s",
                                    "; a log needs at least 2"));
  }
  return layout;
}

/// Labels met in first-seen order; codes remapped to the sorted order at the end.
class Interner {
 public:
  std::int32_t code(const std::string& label) {
    const auto [it, added] = code_of_.emplace(label, static_cast<std::int32_t>(labels_.size()));
    if (added) labels_.push_back(label);
    return it->second;
  }
  std::size_t size() const { return labels_.size(); }
  /// The sorted labels, and for each first-seen code its sorted code.
  std::vector<std::string> sorted(std::vector<std::int32_t>& remap) const {
    std::vector<std::string> labels = labels_;
    detail::sort_labels(labels);
    remap.assign(labels.size(), 0);
    for (std::size_t s = 0; s < labels.size(); ++s)
      remap[static_cast<std::size_t>(code_of_.at(labels[s]))] = static_cast<std::int32_t>(s);
    return labels;
  }

 private:
  std::unordered_map<std::string, std::int32_t> code_of_;
  std::vector<std::string> labels_;
};

/// What pass 2 builds besides X.
struct Parsed {
  std::vector<float> x;                     // column-major
  std::vector<std::vector<double>> values;  // per feature: the numbers of a numeric categorical column
  std::vector<Interner> texts;              // per feature: the labels of a text column
  Interner arms;
  std::vector<std::int32_t> arm;
  std::vector<std::uint8_t> reward;
  std::vector<std::array<std::int64_t, 2>> line_anchors;
};

float parse_feature(const CsvRows& rows, const Layout& layout, std::size_t f, const std::string& path) {
  const std::size_t c = layout.features[f];
  const std::string_view s = rows.cell(c);
  if (is_missing(s)) return std::numeric_limits<float>::quiet_NaN();
  bool out_of_range = false;
  const double v = *parse_number(s, &out_of_range);  // pass 1 found only numbers in this column
  const auto where = [&] {
    return detail::concat(path, ": line ", rows.line(), ", column '", printable(layout.header[c]), "': '", printable(s),
                          "' ");
  };
  if (std::isinf(v)) throw InputError(where() + "is Inf, not allowed (a missing value is an empty cell or NaN)");
  if (out_of_range || std::abs(v) > static_cast<double>(std::numeric_limits<float>::max()))
    throw InputError(where() + "is outside the float range of X");
  return static_cast<float>(v);
}

std::uint8_t parse_reward(const CsvRows& rows, const Layout& layout, const std::string& path) {
  const std::string_view s = rows.cell(layout.reward);
  const auto where = [&] {
    return detail::concat(path, ": line ", rows.line(), ", column '", printable(layout.header[layout.reward]), "': ");
  };
  if (is_missing(s)) throw InputError(where() + "the reward is missing ('" + printable(s) + "'); it must be 0 or 1");
  const auto v = parse_number(s);
  if (!v || (*v != 0.0 && *v != 1.0)) throw InputError(where() + "reward '" + printable(s) + "' is not 0 or 1");
  return *v == 1.0 ? 1 : 0;
}

std::int32_t parse_arm(const CsvRows& rows, const Layout& layout, const std::vector<std::string>& declared,
                       Interner& arms, const std::string& path) {
  const std::string label = rows.text(layout.arm);
  const auto where = [&] {
    return detail::concat(path, ": line ", rows.line(), ", column '", printable(layout.header[layout.arm]), "': ");
  };
  if (label.empty()) throw InputError(where() + "the arm is missing");
  if (!declared.empty() && std::find(declared.begin(), declared.end(), label) == declared.end()) {
    throw InputError(where() + "arm '" + printable(label) + "' is not in data.arms (" + detail::join_labels(declared) +
                     ")");
  }
  return arms.code(label);
}

/// Pass 2: every value, checked.
Parsed second_pass(const std::string& path, const Layout& layout, const LoggedCsvSpec& spec) {
  CsvRows rows(path);
  rows.header();
  const std::size_t p = layout.features.size(), n = static_cast<std::size_t>(layout.rows);
  Parsed out;
  out.x.resize(n * p);
  out.values.resize(p);
  out.texts.resize(p);
  out.arm.reserve(n);
  out.reward.reserve(n);
  for (const auto& label : spec.arms) out.arms.code(label);  // declared arms keep their codes (and order)
  std::size_t i = 0;
  std::int64_t previous_line = 0;
  while (rows.next()) {
    if (i == n) throw InputError(detail::concat(path, ": the file changed while it was read (more rows)"));
    if (i == 0 || rows.line() != previous_line + 1)
      out.line_anchors.push_back({static_cast<std::int64_t>(i), rows.line()});
    previous_line = rows.line();
    for (std::size_t f = 0; f < p; ++f) {
      float& cell = out.x[f * n + i];
      if (layout.text[f] == 0) {
        cell = parse_feature(rows, layout, f, path);
        if (layout.named_categorical[f] != 0 && !std::isnan(cell)) {
          out.values[f].push_back(*parse_number(rows.cell(layout.features[f])));  // coded after the pass
        }
        continue;
      }
      const std::string label = rows.text(layout.features[f]);
      if (is_missing(label)) {
        cell = std::numeric_limits<float>::quiet_NaN();
        continue;
      }
      const std::int32_t code = out.texts[f].code(label);
      if (out.texts[f].size() > kMostLabels)
        throw InputError(detail::concat(path, ": column '", printable(layout.header[layout.features[f]]),
                                        "' has more than ", kMostLabels, " distinct labels"));
      cell = static_cast<float>(code);
    }
    out.arm.push_back(parse_arm(rows, layout, spec.arms, out.arms, path));
    out.reward.push_back(parse_reward(rows, layout, path));
    ++i;
  }
  if (i != n) throw InputError(detail::concat(path, ": the file changed while it was read (fewer rows)"));
  return out;
}

/// A numeric column named in data.categorical: its distinct values, ascending, become codes 0..L-1.
std::vector<std::string> code_numbers(float* column, std::size_t n, std::vector<double>& values,
                                      const std::string& where) {
  std::vector<double> distinct = values;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (distinct.size() > kMostLabels)
    throw InputError(detail::concat(where, " has more than ", kMostLabels, " distinct values (data.categorical)"));
  std::vector<std::string> labels;
  for (const double v : distinct) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    labels.emplace_back(buf, r.ptr);
  }
  std::size_t next = 0;  // values[] holds the non-missing cells in row order
  for (std::size_t i = 0; i < n; ++i) {
    if (std::isnan(column[i])) continue;
    const auto at = std::lower_bound(distinct.begin(), distinct.end(), values[next++]);
    column[i] = static_cast<float>(at - distinct.begin());
  }
  values = {};
  return labels;
}

std::vector<std::string> recode(float* column, std::size_t n, const Interner& interner) {
  std::vector<std::int32_t> remap;
  std::vector<std::string> labels = interner.sorted(remap);
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isnan(column[i])) column[i] = static_cast<float>(remap[static_cast<std::size_t>(column[i])]);
  }
  return labels;
}

/// The arms: data.arms in its order (each with rows, else an error), or those seen, sorted.
void finish_arms(LoggedHeader& h, Parsed& parsed, const Layout& layout, const LoggedCsvSpec& spec,
                 const std::string& path) {
  const std::string column = printable(layout.header[layout.arm]);
  if (!spec.arms.empty()) {
    std::vector<std::int64_t> count(spec.arms.size(), 0);
    for (const std::int32_t a : parsed.arm) ++count[static_cast<std::size_t>(a)];
    for (std::size_t a = 0; a < spec.arms.size(); ++a) {
      if (count[a] == 0)
        throw InputError(detail::concat(path, ": arm '", printable(spec.arms[a]),
                                        "' is declared in data.arms but has no rows in column '", column, "'"));
    }
    h.arm_labels = spec.arms;
    h.arm = std::move(parsed.arm);
    return;
  }
  std::vector<std::int32_t> remap;
  h.arm_labels = parsed.arms.sorted(remap);
  if (h.arm_labels.size() < 2) {
    throw InputError(detail::concat(path, ": column '", column, "' holds one arm (", detail::join_labels(h.arm_labels),
                                    "); a log needs at least 2 arms to compare"));
  }
  h.arm = std::move(parsed.arm);
  for (auto& a : h.arm) a = remap[static_cast<std::size_t>(a)];
}

void check_declared_arms(const std::string& path, const LoggedCsvSpec& spec) {
  if (spec.arms.empty()) return;
  std::unordered_set<std::string> seen;
  for (const auto& label : spec.arms) {
    if (!seen.insert(label).second)
      throw InputError(detail::concat(path, ": data.arms lists '", printable(label), "' twice"));
  }
  if (spec.arms.size() < 2) {
    throw InputError(detail::concat(path, ": data.arms lists one arm (", detail::join_labels(spec.arms),
                                    "); a log needs at least 2 arms to compare"));
  }
}

}  // namespace

std::unique_ptr<LoggedSource> open_logged_csv(const std::string& path, const LoggedCsvSpec& spec) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError(detail::concat("cannot open CSV file '", path, "': no such file"));
  check_declared_arms(path, spec);
  const Layout layout = first_pass(path, spec);
  Parsed parsed = second_pass(path, layout, spec);
  const std::size_t p = layout.features.size(), n = static_cast<std::size_t>(layout.rows);

  LoggedHeader h;
  h.origin = path;
  h.rows = layout.rows;
  h.cols = static_cast<Index>(p);
  h.categorical.assign(p, 0);
  h.category_labels.resize(p);
  for (std::size_t f = 0; f < p; ++f) {
    h.feature_names.push_back(layout.header[layout.features[f]]);
    float* column = parsed.x.data() + f * n;
    if (layout.text[f] != 0) {
      h.categorical[f] = 1;
      h.category_labels[f] = recode(column, n, parsed.texts[f]);
    } else if (layout.named_categorical[f] != 0) {
      h.categorical[f] = 1;
      h.category_labels[f] = code_numbers(column, n, parsed.values[f],
                                          detail::concat(path, ": column '", printable(h.feature_names[f]), "'"));
    }
  }
  finish_arms(h, parsed, layout, spec, path);
  h.reward = std::move(parsed.reward);
  h.line_anchors = std::move(parsed.line_anchors);
  return make_logged_memory(std::move(h), std::move(parsed.x));
}

}  // namespace bfs
