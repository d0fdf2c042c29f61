// CSV input (DESIGN §5): a header row, comma-separated numeric cells, one target column by name. Only the target
// and the chosen feature columns are parsed, so a CSV may carry non-numeric columns (ids, dates) that are not used.
// Errors name the file, the 1-based line and the column.
#include "data/csv_reader.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"

namespace bfs {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

/// Splits one line at commas outside double quotes; cells keep their quotes, surrounding blanks are trimmed.
/// Returns false on an unterminated quote.
bool split_cells(std::string_view line, std::vector<std::string_view>& cells) {
  cells.clear();
  std::size_t start = 0;
  bool in_quotes = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') {
      in_quotes = !in_quotes;  // "" inside quotes toggles twice: an escaped quote
    } else if (c == ',' && !in_quotes) {
      cells.push_back(trim(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (in_quotes) return false;
  cells.push_back(trim(line.substr(start)));
  return true;
}

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

bool is_blank(std::string_view line) { return trim(line).empty(); }

/// Iterates the lines of `text` (LF or CRLF), keeping 1-based line numbers.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {}
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++number_;
    return true;
  }
  std::size_t number() const { return number_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  std::size_t number_ = 0;
};

std::string read_text(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw InputError(detail::concat("cannot open CSV file '", path, "': no such file"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(detail::concat("cannot open CSV file '", path, "': unreadable"));
  std::ostringstream buf;
  buf << in.rdbuf();
  std::string text = buf.str();
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);  // UTF-8 byte-order mark
  return text;
}

}  // namespace

Dataset read_csv(const std::string& path, const std::string& target, const std::vector<std::string>& features) {
  const std::string text = read_text(path);
  LineReader lines(text);
  std::string_view line;
  std::vector<std::string_view> cells;

  // Header.
  bool have_header = false;
  while (lines.next(line)) {
    if (!is_blank(line)) {
      have_header = true;
      break;
    }
  }
  if (!have_header) throw InputError(detail::concat(path, ": the file is empty (no header row)"));
  if (!split_cells(line, cells)) {
    throw InputError(detail::concat(path, ": line ", lines.number(), ": unterminated quote in the header"));
  }
  std::vector<std::string> header;
  std::unordered_map<std::string, std::size_t> column_of;
  for (auto cell : cells) {
    header.push_back(unquote(cell));
    if (!header.back().empty() && !column_of.emplace(header.back(), header.size() - 1).second) {
      throw InputError(detail::concat(path, ": duplicate column '", header.back(), "' in the header"));
    }
  }

  // Columns to parse: the target, then the features in the order asked for (or header order).
  auto find_column = [&](const std::string& name, const char* role) {
    auto it = column_of.find(name);
    if (it == column_of.end()) throw InputError(detail::concat(path, ": no column '", name, "' in the header", role));
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

  // Rows.
  const std::size_t p = feature_cols.size();
  std::vector<float> x;
  std::vector<double> y;
  auto parse = [&](std::string_view cell, std::size_t col) {
    std::string_view s = cell;
    if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = trim(s.substr(1, s.size() - 2));
    auto where = [&] { return detail::concat(path, ": line ", lines.number(), ", column '", header[col], "': "); };
    if (s.empty()) throw InputError(where() + "empty cell");
    std::string_view digits = s;
    if (digits.size() > 1 && digits.front() == '+') digits.remove_prefix(1);  // from_chars rejects a leading '+'
    double v = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec == std::errc::result_out_of_range) throw InputError(where() + "'" + std::string(s) + "' is out of range");
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      throw InputError(where() + "'" + std::string(s) + "' is not a number");
    }
    if (!std::isfinite(v)) {
      throw InputError(where() + "'" + std::string(s) + "' is not a finite number (NaN and Inf are not allowed)");
    }
    return v;
  };
  while (lines.next(line)) {
    if (is_blank(line)) continue;
    if (!split_cells(line, cells)) {
      throw InputError(detail::concat(path, ": line ", lines.number(), ": unterminated quote"));
    }
    if (cells.size() != header.size()) {
      throw InputError(detail::concat(path, ": line ", lines.number(), " has ", cells.size(), " cells but the header has ",
                                      header.size()));
    }
    y.push_back(parse(cells[target_col], target_col));
    for (std::size_t c : feature_cols) {
      const double v = parse(cells[c], c);
      if (std::abs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
        throw InputError(detail::concat(path, ": line ", lines.number(), ", column '", header[c], "': ", v,
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
  validate_dataset(data);
  return data;
}

}  // namespace bfs
