#pragma once
// Which columns of a GKX characteristics file are what (prepare-gkx): permno, DATE, sic2, and the
// characteristics — the 94 standard names present, in standard order, then any other numeric column (another
// vintage), unless --strict. Used by prepare.cpp.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "gkx/gkx_csv.hpp"

namespace bfs::gkx::columns {

/// Column positions of the characteristics file and which columns are the characteristics.
struct GkxColumns {
  std::size_t permno = 0, date = 0, sic2 = 0;
  std::vector<std::size_t> chars;  ///< file column of each characteristic, in feature order
  std::vector<std::string> names;  ///< their feature names (standard spelling for the standard ones)
  std::vector<std::string> missing_standard, extra, ignored;
  std::size_t count = 0;
};

/// Case-insensitive equality of two names.
bool iequals(std::string_view a, std::string_view b);
/// "a, b, c".
std::string join(const std::vector<std::string>& names);
/// Locates the columns of the header of `path`; InputError for a missing id column, a control byte in a name, a
/// repeated name, or (strict) a missing standard characteristic.
GkxColumns locate_columns(const Header& header, const std::string& path, bool strict);

}  // namespace bfs::gkx::columns
