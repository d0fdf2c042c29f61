#pragma once
// What both bandit-log harnesses (fuzz_logged_csv, fuzz_logged_hdf5) require of a header that read: the defect
// found, or nullptr when the header is whole.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "data/logged_data.hpp"

namespace bfs::fuzz {

inline const char* logged_header_defect(const LoggedHeader& h) {
  if (h.rows < 2 || h.cols < 1) return "rows < 2 or cols < 1";
  const auto rows = static_cast<std::size_t>(h.rows), cols = static_cast<std::size_t>(h.cols);
  if (h.feature_names.size() != cols || h.categorical.size() != cols || h.category_labels.size() != cols)
    return "feature_names / categorical / category_labels do not have one entry per column";
  for (std::size_t j = 0; j < cols; ++j) {
    if (h.categorical[j] > 1) return "a categorical flag that is not 0 or 1";
    if (h.categorical[j] == 0 && !h.category_labels[j].empty()) return "a numeric column with category labels";
  }
  if (h.arm.size() != rows || h.reward.size() != rows) return "arm / reward do not have one entry per row";
  const std::size_t k = h.arm_labels.size();
  if (k < 2) return "fewer than 2 arms";
  if (std::set<std::string>(h.arm_labels.begin(), h.arm_labels.end()).size() != k) return "an arm label repeats";
  std::vector<std::size_t> rows_of(k, 0);
  for (const std::int32_t a : h.arm) {
    if (a < 0 || static_cast<std::size_t>(a) >= k) return "an arm code outside [0, k)";
    ++rows_of[static_cast<std::size_t>(a)];
  }
  if (std::find(rows_of.begin(), rows_of.end(), std::size_t{0}) != rows_of.end()) return "an arm without rows";
  for (const std::uint8_t r : h.reward)
    if (r > 1) return "a reward that is not 0 or 1";
  return nullptr;
}

}  // namespace bfs::fuzz
