// CSV input (DESIGN §5): a header row, comma-separated numeric cells, one target column by name. Only the target
// and the chosen feature columns are parsed, so a CSV may carry non-numeric columns (ids, dates) that are not used.
// Errors name the file, the 1-based line and the column.
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

}  // namespace

Dataset read_csv(const std::string& path, const std::string& target, const std::vector<std::string>& features) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw InputError(detail::concat("cannot open CSV file '", path, "': no such file"));
  }
  LineReader lines(path);  // streamed: memory holds the parsed cells, not the file's text
  std::string_view line;
  std::vector<std::string_view> cells;

  // Header.
  bool have_header = false;
  while (lines.next(line)) {
    if (lines.line_number() == 1) line = strip_byte_order_mark(line);
    if (!is_blank(line)) {
      have_header = true;
      break;
    }
  }
  if (!have_header) throw InputError(detail::concat(path, ": the file is empty (no header row)"));
  if (!split_csv_line(line, cells)) {
    throw InputError(detail::concat(path, ": line ", lines.line_number(), ": unterminated quote in the header"));
  }
  std::vector<std::string> header;
  std::unordered_map<std::string, std::size_t> column_of;
  for (auto cell : cells) {
    header.push_back(unquote(cell));
    if (!header.back().empty() && !column_of.emplace(header.back(), header.size() - 1).second) {
      throw InputError(detail::concat(path, ": duplicate column '", printable(header.back()), "' in the header"));
    }
  }

  // Columns to parse: the target, then the features in the order asked for (or header order).
  auto find_column = [&](const std::string& name, const char* role) {
    auto it = column_of.find(name);
    if (it == column_of.end())
      throw InputError(detail::concat(path, ": no column '", printable(name), "' in the header", role));
    return it->second;
  };
  const std::size_t target_col = find_column(target, "");
  std::vector<std::size_t> feature_cols;
  if (features.empty()) {
    for (std::size_t c = 0; c < header.size(); ++c) {
      if (c == target_col) continue;
      if (header[c].empty()) {
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
      feature_cols.push_back(find_column(name, " (data.features)"));
    }
  }
  if (feature_cols.empty()) throw InputError(detail::concat(path, ": p = 0 (no feature columns besides the target)"));
  for (std::size_t c : feature_cols) {
    if (has_control_byte(header[c])) {
      throw InputError(detail::concat(path, ": the name of column ", c + 1, " in the header ('", printable(header[c]),
                                      "') holds a control character"));
    }
  }

  // Rows.
  const std::size_t p = feature_cols.size();
  std::vector<float> x;
  std::vector<double> y;
  std::vector<std::int64_t> lines_of_rows;  // the file's line of each row (blank lines are skipped), for messages
  auto parse = [&](std::string_view cell, std::size_t col) {
    const std::string_view s = strip_quotes(cell);
    auto where = [&] {
      return detail::concat(path, ": line ", lines.line_number(), ", column '", printable(header[col]), "': ");
    };
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
  };
  while (lines.next(line)) {
    if (is_blank(line)) continue;
    if (!split_csv_line(line, cells)) {
      throw InputError(detail::concat(path, ": line ", lines.line_number(), ": unterminated quote"));
    }
    if (cells.size() != header.size()) {
      throw InputError(detail::concat(path, ": line ", lines.line_number(), " has ", cells.size(),
                                      " cells but the header has ", header.size()));
    }
    y.push_back(parse(cells[target_col], target_col));
    lines_of_rows.push_back(lines.line_number());
    for (std::size_t c : feature_cols) {
      const double v = parse(cells[c], c);
      if (std::abs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
        throw InputError(detail::concat(path, ": line ", lines.line_number(), ", column '", header[c], "': ", v,
                                        " is outside the float range of X"));
      }
      x.push_back(static_cast<float>(v));
    }
  }
  if (y.empty()) throw InputError(detail::concat(path, ": no data rows after the header"));

  Dataset data;
  data.origin = path;
  const auto n = static_cast<Index>(y.size());
  data.X = Eigen::Map<const Matrix>(x.data(), n, static_cast<Index>(p));
  data.y = Eigen::Map<const Vector>(y.data(), n);
  for (std::size_t c : feature_cols) data.feature_names.push_back(header[c]);
  check_target_scale(data.y, detail::concat(path, ", column '", printable(target), "'"),
                     [&](Index i) { return detail::concat("line ", lines_of_rows[static_cast<std::size_t>(i)]); });
  validate_dataset(data);
  return data;
}

}  // namespace bfs
