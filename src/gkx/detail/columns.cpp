#include "gkx/detail/columns.hpp"

#include <algorithm>
#include <cctype>

#include "core/error.hpp"
#include "data/csv_lines.hpp"  // has_control_byte
#include "gkx/characteristics.hpp"
#include "gkx/prepare.hpp"  // is_reserved_column

namespace bfs::gkx::columns {

namespace {
constexpr std::size_t kStandard = kCharacteristics.size();
}  // namespace

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

/// Rows of the file's start that decide whether a non-standard column is numeric.
constexpr int kSampleLines = 1000;

/// Non-standard columns whose sampled values are all numbers or missing tokens (positions in `candidates`).
namespace {
std::vector<bool> numeric_columns(const std::string& path, std::size_t fields,
                                  const std::vector<std::size_t>& candidates) {
  std::vector<bool> numeric(candidates.size(), true);
  if (candidates.empty()) return numeric;
  LineReader reader(path);
  std::string_view line;
  reader.next(line);  // the header
  std::vector<std::string_view> f;
  for (int n = 0; n < kSampleLines && reader.next(line);) {
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    ++n;
    if (!split_fields(line, f) || f.size() != fields) continue;  // reported by the main pass
    for (std::size_t k = 0; k < candidates.size(); ++k) {
      if (!numeric[k]) continue;
      try {
        (void)parse_number(f[candidates[k]], {path, reader.line_number(), ""});
      } catch (const InputError&) {
        numeric[k] = false;
      }
    }
  }
  return numeric;
}

}  // namespace

GkxColumns locate_columns(const Header& header, const std::string& path, bool strict) {
  GkxColumns c;
  c.permno = header.require({"permno"}, "'permno'");
  c.date = header.require({"DATE"}, "'DATE'");
  c.sic2 = header.require({"sic2"}, "'sic2'");
  c.count = header.size();
  for (std::size_t a = 0; a < header.size(); ++a) {
    if (has_control_byte(header.name(a)))
      throw InputError(bfs::detail::concat(path, ": the name of column ", a + 1,
                                           " in the header (line 1) holds a control ", "character"));
  }
  for (std::size_t a = 0; a < header.size(); ++a) {
    for (std::size_t b = a + 1; b < header.size(); ++b) {
      if (!header.name(a).empty() && iequals(header.name(a), header.name(b))) {
        throw InputError(bfs::detail::concat(path, ": column '", header.name(b),
                                             "' appears twice in the header (line 1, ", "columns ", a + 1, " and ",
                                             b + 1, ")"));
      }
    }
  }
  std::vector<bool> standard_column(header.size(), false);
  for (std::size_t k = 0; k < kStandard; ++k) {
    if (auto pos = header.find({kCharacteristics[k]})) {
      c.chars.push_back(*pos);
      c.names.emplace_back(kCharacteristics[k]);
      standard_column[*pos] = true;
    } else {
      c.missing_standard.emplace_back(kCharacteristics[k]);
    }
  }
  if (strict && !c.missing_standard.empty()) {
    std::string list;
    for (const auto& a : c.missing_standard) list += (list.empty() ? "'" : ", '") + a + "'";
    throw InputError(bfs::detail::concat(path, ": ", c.missing_standard.size(),
                                         " of the 94 characteristic columns are ",
                                         "missing from the header (line 1): ", list, " (--strict; without it they are ",
                                         "reported and the columns present are used)"));
  }
  std::vector<std::size_t> candidates;
  for (std::size_t k = 0; k < header.size(); ++k) {
    if (standard_column[k] || is_reserved_column(header.name(k))) continue;
    if (header.name(k).empty() || strict) {
      c.ignored.push_back(header.name(k).empty() ? bfs::detail::concat("(unnamed column ", k + 1, ")")
                                                 : header.name(k));
    } else {
      candidates.push_back(k);
    }
  }
  const std::vector<bool> numeric = numeric_columns(path, header.size(), candidates);
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    const std::string& name = header.name(candidates[k]);
    if (numeric[k]) {
      c.chars.push_back(candidates[k]);
      c.names.push_back(name);
      c.extra.push_back(name);
    } else {
      c.ignored.push_back(name + " (not numeric)");
    }
  }
  if (c.chars.empty()) {
    throw InputError(bfs::detail::concat(path, ": no characteristic column in the header (line 1): none of the 94 ",
                                         "standard names (e.g. 'mvel1', 'beta') and no other numeric column"));
  }
  return c;
}

}  // namespace bfs::gkx::columns
