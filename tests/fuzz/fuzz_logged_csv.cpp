// Fuzz harness: the CSV contextual-bandit log reader (data/logged_data.hpp open_logged_csv), docs/fuzzing.md.
// Input: a first line, the LoggedCsvSpec ([data] keys arm, reward, features, categorical, arms), then the CSV file.
// The spec line is fields separated by '|': the arm column, the reward column, then any number of fields
//   name      a feature (data.features, in order; none: every other column is a feature)
//   #name     a categorical feature (data.categorical)
//   @label    an arm (data.arms, in order)
//   \name     a feature whose name starts with '#', '@' or '\' (the backslash is dropped)
// e.g. "arm|reward|x1|x2|#x2|@a|@b" (at most 64 entries per list). A log that opens must be whole: n >= 2 rows,
// p >= 1 columns, names / categorical flags / category labels for every column (the asked features in order, the
// named categorical ones flagged), k >= 2 distinct arms (data.arms when given) each with rows and every code in
// [0, k), rewards 0/1, columns(0, p) of n·p values without Inf, a categorical value a code of its labels (a numeric
// column has none), and columns(first, count) of a sub-block (chosen by a hash of the input) equal to that slice.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "data/logged_data.hpp"
#include "fuzz_common.hpp"
#include "fuzz_logged_common.hpp"

namespace fz = bfs::fuzz;

namespace {

bfs::LoggedCsvSpec parse_spec(std::string_view line) {
  bfs::LoggedCsvSpec spec;
  std::size_t start = 0;
  for (int field = 0;; ++field) {
    const std::size_t bar = line.find('|', start);
    const std::string_view text =
        line.substr(start, bar == std::string_view::npos ? std::string_view::npos : bar - start);
    if (field == 0) {
      spec.arm = std::string(text);
    } else if (field == 1) {
      spec.reward = std::string(text);
    } else if (!text.empty() && text.front() == '#') {
      if (spec.categorical.size() < 64) spec.categorical.emplace_back(text.substr(1));
    } else if (!text.empty() && text.front() == '@') {
      if (spec.arms.size() < 64) spec.arms.emplace_back(text.substr(1));
    } else if (spec.features.size() < 64) {
      spec.features.emplace_back(!text.empty() && text.front() == '\\' ? text.substr(1) : text);
    }
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  return spec;
}

/// The same floats, bit for bit (NaN included).
bool same_bits(const float* a, const float* b, std::size_t n) {
  return n == 0 || std::memcmp(a, b, n * sizeof(float)) == 0;
}

void check_whole(const bfs::LoggedSource& source, const bfs::LoggedCsvSpec& spec, std::size_t salt,
                 const std::string& path) {
  const bfs::LoggedHeader& h = source.header();
  const auto fail = [&](const char* what) { fz::finding("open_logged_csv returned a log that is not whole", what); };
  if (const char* defect = fz::logged_header_defect(h)) fail(defect);
  const auto rows = static_cast<std::size_t>(h.rows), cols = static_cast<std::size_t>(h.cols);
  if (!spec.features.empty() && h.feature_names != spec.features) fail("the features differ from data.features");
  for (const auto& name : spec.categorical) {
    const auto at = std::find(h.feature_names.begin(), h.feature_names.end(), name);
    if (at == h.feature_names.end() || h.categorical[static_cast<std::size_t>(at - h.feature_names.begin())] != 1)
      fail("a feature named in data.categorical is not a categorical column");
  }
  if (!spec.arms.empty() && h.arm_labels != spec.arms) fail("the arms differ from data.arms");

  const std::vector<float> x = source.columns(0, h.cols);
  if (x.size() != rows * cols) fail("columns(0, cols) does not hold rows x cols values");
  for (std::size_t j = 0; j < cols; ++j) {
    const auto labels = static_cast<double>(h.category_labels[j].size());
    if (h.categorical[j] > 1) fail("a categorical flag that is not 0 or 1");
    if (h.categorical[j] == 0 && labels != 0) fail("a numeric column with category labels");
    for (std::size_t i = 0; i < rows; ++i) {
      const float v = x[j * rows + i];
      if (std::isinf(v)) fail("an Inf in X");
      if (h.categorical[j] != 0 && !std::isnan(v) && (v < 0 || v != std::floor(v) || v >= labels))
        fail("a categorical value that is not a code of its column's labels");
    }
  }
  // A sub-block, read on its own, equals its slice of the whole.
  const std::size_t first = salt % cols, count = (salt / 7) % (cols - first + 1);
  const std::vector<float> block = source.columns(static_cast<bfs::Index>(first), static_cast<bfs::Index>(count));
  if (block.size() != rows * count || !same_bits(block.data(), x.data() + first * rows, rows * count))
    fail(("columns(" + std::to_string(first) + ", " + std::to_string(count) + ") differs from its slice of " + path)
             .c_str());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  const bfs::LoggedCsvSpec spec = parse_spec(input.substr(0, newline));
  const std::string_view csv = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  const std::string path = fz::write_scratch("log.csv", csv);
  fz::run_one([&] {
    const auto source = bfs::open_logged_csv(path, spec);
    if (source == nullptr) fz::finding("open_logged_csv", "returned no source");
    std::size_t salt = 14695981039346656037u;  // FNV-1a of the input: which sub-block is compared
    for (std::size_t i = 0; i < size; ++i) salt = (salt ^ data[i]) * 1099511628211u;
    check_whole(*source, spec, salt, path);
  });
  return 0;
}
