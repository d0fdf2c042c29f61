// CSV input (docs/design.md §4): a header row, comma-separated cells, one target column by name, read in two
// streaming passes. The first finds which feature columns hold text (a non-missing cell that is not a number): those
// and the ones data.categorical names are categorical (data/categorical.hpp). The second parses the target and the
// features into a raw row-major block (numbers; a categorical column's label codes; NaN = missing), which the
// categorical codings then expand. A cell is missing when it is one of data.na_values once unquoted (pandas' rule: a
// quoted "NA" is missing too). Only the target and the chosen feature columns are read, so a CSV may carry columns
// that are not used (data.features, data.exclude). Errors name the file, the 1-based line and the column.
#include "data/csv_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "data/csv_lines.hpp"

namespace bfs {

namespace {

/// Removes surrounding quotes and un-escapes "" inside them.
std::string unquote(std::string_view cell) {
  if (cell.size() >= 2 && cell.front() == '"' && cell.back() == '"') {
    std::string out;
    cell = cell.substr(1, cell.size() - 2);
    for (std::size_t i = 0; i < cell.size(); ++i) {
      out.push_back(cell[i]);
      if (cell[i] == '"' && i + 1 < cell.size() && cell[i + 1] == '"') ++i;
    }
    return out;
  }
  return std::string(cell);
}

bool is_blank(std::string_view line) {
  return trim_blanks(line).empty();
}

/// The header's column names and, for the named ones, their positions. An empty name is allowed (it cannot be asked
/// for), a repeated one is not, since a column asked for by name must be unambiguous.
struct CsvHeader {
  std::vector<std::string> names;
  std::unordered_map<std::string, std::size_t> column_of;
};

/// Reads the first non-blank line as the header; blank lines before it are skipped, a byte-order mark on line 1 too.
CsvHeader read_header(LineReader& lines, const std::string& path) {
  std::string_view line;
  bool have_header = false;
  while (lines.next(line)) {
    if (lines.line_number() == 1) line = strip_byte_order_mark(line);
    if (!is_blank(line)) {
      have_header = true;
      break;
    }
  }
  if (!have_header) throw InputError(detail::concat(path, ": the file is empty (no header row)"));
  std::vector<std::string_view> cells;
  if (!split_csv_line(line, cells)) {
    throw InputError(detail::concat(path, ": line ", lines.line_number(), ": unterminated quote in the header"));
  }
  CsvHeader header;
  for (auto cell : cells) {
    header.names.push_back(unquote(cell));
    const std::string& name = header.names.back();
    if (!name.empty() && !header.column_of.emplace(name, header.names.size() - 1).second) {
      throw InputError(detail::concat(path, ": duplicate column '", printable(name), "' in the header"));
    }
  }
  return header;
}

/// The column called `name`; `role` says in the message which setting asked for it.
std::size_t find_column(const CsvHeader& header, const std::string& path, const std::string& name, const char* role) {
  auto it = header.column_of.find(name);
  if (it == header.column_of.end())
    throw InputError(detail::concat(path, ": no column '", printable(name), "' in the header", role));
  return it->second;
}

/// The feature columns, in the order data.features lists them, or (when it is empty) every column but the target in
/// header order; less the data.exclude ones; each then needs a name fit to be written into a result.
std::vector<std::size_t> choose_feature_columns(const CsvHeader& header, const std::string& path,
                                                const std::string& target, std::size_t target_col,
                                                const CsvOptions& options) {
  std::unordered_set<std::size_t> excluded;
  for (const auto& name : options.exclude) {
    const std::size_t c = find_column(header, path, name, " (data.exclude)");
    if (c == target_col) throw InputError(detail::concat(path, ": data.exclude lists the target column '", name, "'"));
    excluded.insert(c);
  }
  std::vector<std::size_t> feature_cols;
  if (options.features.empty()) {
    for (std::size_t c = 0; c < header.names.size(); ++c) {
      if (c == target_col || excluded.count(c) != 0) continue;
      if (header.names[c].empty()) {
        throw InputError(detail::concat(path, ": column ", c + 1, " has an empty name in the header"));
      }
      feature_cols.push_back(c);
    }
  } else {
    std::unordered_set<std::string> seen;
    for (const auto& name : options.features) {
      if (!seen.insert(name).second) throw InputError(detail::concat(path, ": data.features lists '", name, "' twice"));
      if (name == target) {
        throw InputError(detail::concat(path, ": data.features lists the target column '", name, "'"));
      }
      const std::size_t c = find_column(header, path, name, " (data.features)");
      if (excluded.count(c) != 0)
        throw InputError(detail::concat(path, ": data.features and data.exclude both list '", name, "'"));
      feature_cols.push_back(c);
    }
  }
  if (feature_cols.empty()) throw InputError(detail::concat(path, ": p = 0 (no feature columns besides the target)"));
  for (std::size_t c : feature_cols) {
    if (has_control_byte(header.names[c])) {
      throw InputError(detail::concat(path, ": the name of column ", c + 1, " in the header ('",
                                      printable(header.names[c]), "') holds a control character"));
    }
  }
  return feature_cols;
}

/// The number in `s` (a leading '+' allowed; NaN and Inf included); nullopt when `s` is not a number. `range` is set
/// when it is one but outside double's range.
std::optional<double> as_number(std::string_view s, bool* range = nullptr) {
  if (s.size() > 1 && s.front() == '+') s.remove_prefix(1);  // from_chars rejects a leading '+'
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || end != s.data() + s.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
    return std::nullopt;
  if (range != nullptr) *range = ec == std::errc::result_out_of_range;
  return v;
}

/// The columns read and how: the target, the features, and which features are categorical (text, or named).
struct CsvColumns {
  std::size_t target = 0;
  std::vector<std::size_t> features;
  std::vector<std::uint8_t> categorical;  ///< per feature
  std::vector<std::string> why;           ///< per categorical feature: its first text cell and line, for messages
  bool target_text = false;               ///< a non-missing target cell is not a number
  std::string target_example;             ///< the first such cell and its line
};

/// The cells of data.na_values, looked up by the unquoted cell.
class NaTokens {
 public:
  explicit NaTokens(const std::vector<std::string>& values) : tokens_(values.begin(), values.end()) {}
  bool missing(std::string_view cell) const {
    if (cell.find('"') == std::string_view::npos) return tokens_.find(cell) != tokens_.end();
    return tokens_.find(unquote(cell)) != tokens_.end();
  }

 private:
  std::set<std::string, std::less<>> tokens_;
};

/// Reads the data rows of a file whose header was read: blank lines skipped, ragged rows and open quotes refused.
template <class OnRow>
void for_each_row(LineReader& lines, const std::string& path, std::size_t width, OnRow&& on_row) {
  std::string_view line;
  std::vector<std::string_view> cells;
  while (lines.next(line)) {
    if (is_blank(line)) continue;
    const std::int64_t line_number = lines.line_number();
    if (!split_csv_line(line, cells)) {
      throw InputError(detail::concat(path, ": line ", line_number, ": unterminated quote"));
    }
    if (cells.size() != width) {
      throw InputError(
          detail::concat(path, ": line ", line_number, " has ", cells.size(), " cells but the header has ", width));
    }
    on_row(cells, line_number);
  }
}

/// Pass 1: which feature columns and whether the target hold text.
void find_text_columns(const std::string& path, const CsvHeader& header, const NaTokens& na, CsvColumns& columns) {
  LineReader lines(path);
  read_header(lines, path);
  std::size_t rows = 0;
  for_each_row(lines, path, header.names.size(), [&](const std::vector<std::string_view>& cells, std::int64_t line) {
    ++rows;
    auto is_text = [&](std::size_t c) { return !na.missing(cells[c]) && !as_number(strip_quotes(cells[c])); };
    for (std::size_t f = 0; f < columns.features.size(); ++f) {
      if (!columns.why[f].empty() || !is_text(columns.features[f])) continue;
      columns.categorical[f] = 1;
      columns.why[f] = detail::concat("'", printable(unquote(cells[columns.features[f]])), "' at line ", line);
    }
    if (!columns.target_text && is_text(columns.target)) {
      columns.target_text = true;
      columns.target_example = detail::concat("'", printable(unquote(cells[columns.target])), "' at line ", line);
    }
  });
  if (rows == 0) throw InputError(detail::concat(path, ": no data rows after the header"));
}

/// Labels of one categorical column in first-seen order, each with its row count.
struct LabelCounts {
  std::unordered_map<std::string, std::int32_t> code_of;
  std::vector<std::string> labels;
  std::vector<std::int64_t> counts;
  std::int32_t code(std::string label) {
    const auto [it, added] = code_of.emplace(std::move(label), static_cast<std::int32_t>(labels.size()));
    if (added) {
      labels.push_back(it->first);
      counts.push_back(0);
    }
    ++counts[static_cast<std::size_t>(it->second)];
    return it->second;
  }
};

/// The parsed rows: the raw block (row-major, a float per feature), y (numbers) or its text labels, and the file's
/// line of each row, which later messages about a row name.
struct CsvRows {
  std::vector<float> raw;
  std::vector<double> y;
  std::vector<std::string> y_text;
  std::vector<std::int64_t> lines_of_rows;
  std::vector<LabelCounts> labels;  ///< per feature (used by the categorical ones)
  std::int64_t rows_without_target = 0;
};

/// One numeric cell as a finite double (NaN: a missing cell); `line` and `column` only name the cell in messages.
double parse_number(std::string_view cell, const NaTokens& na, const std::string& path, std::int64_t line,
                    const std::string& column) {
  if (na.missing(cell)) return std::numeric_limits<double>::quiet_NaN();
  const std::string_view s = strip_quotes(cell);
  auto where = [&] { return detail::concat(path, ": line ", line, ", column '", printable(column), "': "); };
  bool range = false;
  const std::optional<double> v = as_number(s, &range);
  if (!v) throw InputError(where() + "'" + printable(s) + "' is not a number");
  if (range) throw InputError(where() + "'" + printable(s) + "' is out of range");
  if (std::isnan(*v)) {
    throw InputError(where() + "'" + printable(s) + "' is NaN but not one of data.na_values; add it there to read it " +
                     "as a missing value");
  }
  if (!std::isfinite(*v))
    throw InputError(where() + "'" + printable(s) + "' is not a finite number (Inf is not allowed)");
  return *v;
}

/// A categorical cell's label: the text, or for a column of numbers the number's shortest form (1 and 1.0 are one
/// level).
std::string label_of(std::string_view cell, bool numbers) {
  if (numbers) {
    const std::optional<double> v = as_number(strip_quotes(cell));
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, *v).ptr;
    return std::string(buf, end);
  }
  return unquote(cell);
}

/// Pass 2: the target and the features of every row whose target is not missing.
CsvRows read_rows(const std::string& path, const CsvHeader& header, const CsvColumns& columns, const NaTokens& na) {
  LineReader lines(path);
  read_header(lines, path);
  CsvRows rows;
  const std::size_t p = columns.features.size();
  rows.labels.resize(p);
  for_each_row(lines, path, header.names.size(), [&](const std::vector<std::string_view>& cells, std::int64_t line) {
    const std::string_view target = cells[columns.target];
    if (na.missing(target)) {
      ++rows.rows_without_target;
      return;
    }
    if (columns.target_text)
      rows.y_text.push_back(unquote(target));
    else
      rows.y.push_back(parse_number(target, na, path, line, header.names[columns.target]));
    rows.lines_of_rows.push_back(line);
    for (std::size_t f = 0; f < p; ++f) {
      const std::string_view cell = cells[columns.features[f]];
      const std::string& name = header.names[columns.features[f]];
      if (columns.categorical[f] != 0) {
        rows.raw.push_back(na.missing(cell)
                               ? std::numeric_limits<float>::quiet_NaN()
                               : static_cast<float>(rows.labels[f].code(label_of(cell, columns.why[f].empty()))));
        continue;
      }
      const double v = parse_number(cell, na, path, line, name);
      if (std::abs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
        throw InputError(detail::concat(path, ": line ", line, ", column '", printable(name), "': ", v,
                                        " is outside the float range of X"));
      }
      rows.raw.push_back(static_cast<float>(v));
    }
  });
  if (rows.lines_of_rows.empty()) {
    throw InputError(detail::concat(path, ": no data rows with a target: every one of the ", rows.rows_without_target,
                                    " rows has its target column '", printable(header.names[columns.target]),
                                    "' missing"));
  }
  return rows;
}

/// The columns to read and which are categorical (data.categorical, then pass 1's text columns).
CsvColumns choose_columns(const std::string& path, const CsvHeader& header, const std::string& target,
                          const CsvOptions& options, const NaTokens& na) {
  CsvColumns columns;
  columns.target = find_column(header, path, target, "");
  columns.features = choose_feature_columns(header, path, target, columns.target, options);
  const std::size_t p = columns.features.size();
  columns.categorical.assign(p, 0);
  columns.why.assign(p, "");
  for (const auto& name : options.categorical) {
    const auto it = std::find_if(columns.features.begin(), columns.features.end(),
                                 [&](std::size_t c) { return header.names[c] == name; });
    if (it == columns.features.end())
      throw InputError(detail::concat(path, ": data.categorical names '", printable(name), "', not a feature column"));
    columns.categorical[static_cast<std::size_t>(it - columns.features.begin())] = 1;
  }
  find_text_columns(path, header, na, columns);
  if (columns.target_text && options.labels.task != Task::Binary) {
    throw InputError(detail::concat(path, ": the target column '", printable(target), "' holds text (",
                                    columns.target_example,
                                    "); a regression target must be numbers (text labels need data.task = "
                                    "\"binary\")"));
  }
  return columns;
}

/// y of the kept rows: numbers (a binary one mapped by data/labels.hpp), or text labels mapped to 0/1.
Vector target_of(CsvRows& rows, const std::string& path, const CsvOptions& options) {
  const auto n = static_cast<Index>(rows.lines_of_rows.size());
  Vector y(n);
  if (rows.y_text.empty()) {
    y = Eigen::Map<const Vector>(rows.y.data(), n);
    map_labels(y, options.labels, path);
    return y;
  }
  std::vector<std::string> values(rows.y_text.begin(), rows.y_text.end());
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  const std::string positive = validate_text_labels(values, options.labels.positive_label, path);
  for (Index i = 0; i < n; ++i) y[i] = rows.y_text[static_cast<std::size_t>(i)] == positive ? 1.0 : 0.0;
  return y;
}

/// The coding of each feature: numeric, or a categorical one's levels from its labels' counts.
std::vector<ColumnCoding> codings_of(const CsvRows& rows, const CsvColumns& columns, const CsvHeader& header,
                                     const std::vector<std::int64_t>& missing, const std::string& path,
                                     const TableRules& rules) {
  std::vector<ColumnCoding> codings(columns.features.size());
  for (std::size_t f = 0; f < codings.size(); ++f) {
    if (columns.categorical[f] == 0) continue;
    const std::string& name = header.names[columns.features[f]];
    try {
      codings[f] = code_levels(rows.labels[f].labels, rows.labels[f].counts, missing[f], rules, path, name);
    } catch (const InputError& e) {
      if (columns.why[f].empty()) throw;
      throw InputError(detail::concat(e.what(), " (it is categorical since ", columns.why[f], " is not a number)"));
    }
  }
  return codings;
}

}  // namespace

std::vector<std::string> default_na_values() {
  return {"",     "#N/A", "#N/A N/A", "#NA",  "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
          "<NA>", "N/A",  "NA",       "NULL", "NaN",     "None",     "n/a",  "nan",  "null"};
}

Dataset read_csv(const std::string& path, const std::string& target, const std::vector<std::string>& features) {
  CsvOptions options;
  options.features = features;
  return read_csv(path, target, options);
}

Dataset read_csv(const std::string& path, const std::string& target, const CsvOptions& options) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw InputError(detail::concat("cannot open CSV file '", path, "': no such file"));
  }
  const NaTokens na(options.na_values);
  LineReader header_lines(path);  // streamed: memory holds the parsed cells, not the file's text
  const CsvHeader header = read_header(header_lines, path);
  const CsvColumns columns = choose_columns(path, header, target, options, na);
  CsvRows rows = read_rows(path, header, columns, na);

  Dataset data;
  data.origin = path;
  const auto n = static_cast<Index>(rows.lines_of_rows.size());
  const auto p = static_cast<Index>(columns.features.size());
  for (std::size_t c : columns.features) data.feature_names.push_back(header.names[c]);
  Matrix raw = Eigen::Map<const Matrix>(rows.raw.data(), n, p);
  rows.raw = {};
  data.missing = count_missing(raw);
  data.rows_without_target = rows.rows_without_target;
  if (options.rules.refuse_missing) {
    if (rows.rows_without_target > 0) refuse_missing({rows.rows_without_target}, {target}, path);
    refuse_missing(data.missing, data.feature_names, path);
  }
  for (Index f = 0; f < p; ++f) {
    const std::string& name = data.feature_names[static_cast<std::size_t>(f)];
    refuse_empty_column(data.missing[static_cast<std::size_t>(f)], n, name, path,
                        "leave it out with data.exclude = [\"" + printable(name) + "\"]");
  }
  const std::vector<ColumnCoding> codings = codings_of(rows, columns, header, data.missing, path, options.rules);
  data.layout = layout_of(codings);
  data.X = expand_columns(std::move(raw), codings, data.layout);
  data.y = target_of(rows, path, options);
  check_target_scale(data.y, detail::concat(path, ", column '", printable(target), "'"),
                     [&](Index i) { return detail::concat("line ", rows.lines_of_rows[static_cast<std::size_t>(i)]); });
  validate_dataset(data);
  return data;
}

}  // namespace bfs
