// CSV input (docs/design.md §4): a header row, comma-separated numeric cells, one target column by name. Only the
// target and the chosen feature columns are parsed, so a CSV may carry non-numeric columns (ids, dates) that are not
// used. Errors name the file, the 1-based line and the column.
#include "data/csv_reader.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
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
/// header order; each then needs a name fit to be written into a result.
std::vector<std::size_t> choose_feature_columns(const CsvHeader& header, const std::string& path,
                                                const std::string& target, std::size_t target_col,
                                                const std::vector<std::string>& features) {
  std::vector<std::size_t> feature_cols;
  if (features.empty()) {
    for (std::size_t c = 0; c < header.names.size(); ++c) {
      if (c == target_col) continue;
      if (header.names[c].empty()) {
        throw InputError(detail::concat(path, ": column ", c + 1, " has an empty name in the header"));
      }
      feature_cols.push_back(c);
    }
  } else {
    std::unordered_set<std::string> seen;
    for (const auto& name : features) {
      if (!seen.insert(name).second) throw InputError(detail::concat(path, ": data.features lists '", name, "' twice"));
      if (name == target) {
        throw InputError(detail::concat(path, ": data.features lists the target column '", name, "'"));
      }
      feature_cols.push_back(find_column(header, path, name, " (data.features)"));
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

/// One numeric cell as a finite double; `line` and `column` only name the cell in messages.
double parse_number(std::string_view cell, const std::string& path, std::int64_t line, const std::string& column) {
  const std::string_view s = strip_quotes(cell);
  auto where = [&] { return detail::concat(path, ": line ", line, ", column '", printable(column), "': "); };
  if (s.empty()) throw InputError(where() + "empty cell");
  std::string_view digits = s;
  if (digits.size() > 1 && digits.front() == '+') digits.remove_prefix(1);  // from_chars rejects a leading '+'
  double v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range) throw InputError(where() + "'" + printable(s) + "' is out of range");
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    throw InputError(where() + "'" + printable(s) + "' is not a number");
  }
  if (!std::isfinite(v)) {
    throw InputError(where() + "'" + printable(s) + "' is not a finite number (NaN and Inf are not allowed)");
  }
  return v;
}

/// The parsed rows: X row-major (p floats a row), y, and the file's line of each row (blank lines are skipped), which
/// later messages about a row name.
struct CsvRows {
  std::vector<float> x;
  std::vector<double> y;
  std::vector<std::int64_t> lines_of_rows;
};

/// Reads every data row after the header, parsing only the target and the feature columns.
CsvRows read_rows(LineReader& lines, const std::string& path, const CsvHeader& header, std::size_t target_col,
                  const std::vector<std::size_t>& feature_cols) {
  CsvRows rows;
  std::string_view line;
  std::vector<std::string_view> cells;
  while (lines.next(line)) {
    if (is_blank(line)) continue;
    const std::int64_t line_number = lines.line_number();
    if (!split_csv_line(line, cells)) {
      throw InputError(detail::concat(path, ": line ", line_number, ": unterminated quote"));
    }
    if (cells.size() != header.names.size()) {
      throw InputError(detail::concat(path, ": line ", line_number, " has ", cells.size(), " cells but the header has ",
                                      header.names.size()));
    }
    rows.y.push_back(parse_number(cells[target_col], path, line_number, header.names[target_col]));
    rows.lines_of_rows.push_back(line_number);
    for (std::size_t c : feature_cols) {
      const double v = parse_number(cells[c], path, line_number, header.names[c]);
      if (std::abs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
        throw InputError(detail::concat(path, ": line ", line_number, ", column '", header.names[c], "': ", v,
                                        " is outside the float range of X"));
      }
      rows.x.push_back(static_cast<float>(v));
    }
  }
  if (rows.y.empty()) throw InputError(detail::concat(path, ": no data rows after the header"));
  return rows;
}

}  // namespace

Dataset read_csv(const std::string& path, const std::string& target, const std::vector<std::string>& features) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw InputError(detail::concat("cannot open CSV file '", path, "': no such file"));
  }
  LineReader lines(path);  // streamed: memory holds the parsed cells, not the file's text
  const CsvHeader header = read_header(lines, path);
  // Columns to parse: the target, then the features in the order asked for (or header order).
  const std::size_t target_col = find_column(header, path, target, "");
  const std::vector<std::size_t> feature_cols = choose_feature_columns(header, path, target, target_col, features);
  const CsvRows rows = read_rows(lines, path, header, target_col, feature_cols);

  Dataset data;
  data.origin = path;
  const auto n = static_cast<Index>(rows.y.size());
  data.X = Eigen::Map<const Matrix>(rows.x.data(), n, static_cast<Index>(feature_cols.size()));
  data.y = Eigen::Map<const Vector>(rows.y.data(), n);
  for (std::size_t c : feature_cols) data.feature_names.push_back(header.names[c]);
  check_target_scale(data.y, detail::concat(path, ", column '", printable(target), "'"),
                     [&](Index i) { return detail::concat("line ", rows.lines_of_rows[static_cast<std::size_t>(i)]); });
  validate_dataset(data);
  return data;
}

}  // namespace bfs
