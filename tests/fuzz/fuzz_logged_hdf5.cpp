// Fuzz harness: the HDF5 contextual-bandit log reader (data/logged_data.hpp open_logged_hdf5, no data.arms),
// fed mutated small files, docs/fuzzing.md.
// Input: the bytes of an HDF5 file (the layout of logged_data.hpp's header comment). A log that opens must be whole:
// n >= 2 rows, p >= 1 columns, names / categorical flags / category labels for every column (a numeric column has
// no labels), k >= 2 distinct arms each with rows and every code in [0, k), rewards 0/1, truth and correlational
// features inside [0, p). X is then read as a method reads it, in blocks of 1 to 8 columns (the width chosen by a
// hash of the input, at most 2^22 values in all): each block holds rows × width values without Inf, a categorical
// value is an integer code (below its label count when it has labels), and a sub-block read on its own equals its
// slice of the block. After each input no HDF5 object may be left open (as fuzz_hdf5).
#include <hdf5.h>

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

/// Values of X read per input at most (16 MiB of floats), but always one block: the blocks from column 0 that fit.
constexpr std::size_t kBudget = std::size_t{1} << 22;

[[noreturn]] void fail(const std::string& what) {
  fz::finding("open_logged_hdf5 returned a log that is not whole", what.c_str());
}

void check_header(const bfs::LoggedHeader& h) {
  if (const char* defect = fz::logged_header_defect(h)) fail(defect);
  for (const auto t : h.truth)
    if (t < 0 || t >= h.cols) fail("a truth feature outside [0, cols)");
  if (!h.has_truth && !h.truth.empty()) fail("truth without has_truth");
  for (const auto t : h.correlational)
    if (t < 0 || t >= h.cols) fail("a correlational feature outside [0, cols)");
}

/// Columns [first, first + width) as returned by columns(): their size, no Inf, categorical codes.
void check_block(const bfs::LoggedHeader& h, const std::vector<float>& block, std::size_t first, std::size_t width) {
  const auto rows = static_cast<std::size_t>(h.rows);
  if (block.size() != rows * width)
    fail("columns(" + std::to_string(first) + ", " + std::to_string(width) + ") holds " + std::to_string(block.size()) +
         " values, not rows x count");
  for (std::size_t c = 0; c < width; ++c) {
    const std::size_t j = first + c;
    const auto labels = static_cast<double>(h.category_labels[j].size());
    for (std::size_t i = 0; i < rows; ++i) {
      const float v = block[c * rows + i];
      if (std::isinf(v)) fail("an Inf in column " + std::to_string(j));
      if (h.categorical[j] != 0 && !std::isnan(v) && (v < 0 || v != std::floor(v) || (labels > 0 && v >= labels)))
        fail("a value of categorical column " + std::to_string(j) + " that is not a code");
    }
  }
}

void check_whole(const bfs::LoggedSource& source, std::size_t salt) {
  const bfs::LoggedHeader& h = source.header();
  check_header(h);
  const auto rows = static_cast<std::size_t>(h.rows), cols = static_cast<std::size_t>(h.cols);
  const std::size_t width = std::max<std::size_t>(1, std::min<std::size_t>(1 + salt % 8, kBudget / rows));
  const std::size_t blocks = std::min((cols + width - 1) / width, std::max<std::size_t>(1, kBudget / (rows * width)));
  const std::size_t probe = (salt / 8) % blocks;  // the block a sub-block is compared in
  for (std::size_t first = 0, b = 0; b < blocks; first += width, ++b) {
    const std::size_t count = std::min(width, cols - first);
    const std::vector<float> block = source.columns(static_cast<bfs::Index>(first), static_cast<bfs::Index>(count));
    check_block(h, block, first, count);
    if (b != probe) continue;
    const std::size_t skip = (salt / 64) % count, take = 1 + (salt / 512) % (count - skip);
    const std::vector<float> sub = source.columns(static_cast<bfs::Index>(first + skip), static_cast<bfs::Index>(take));
    if (sub.size() != rows * take || std::memcmp(sub.data(), block.data() + skip * rows, sub.size() * sizeof(float)))
      fail("columns(" + std::to_string(first + skip) + ", " + std::to_string(take) + ") differs from its slice of " +
           "columns(" + std::to_string(first) + ", " + std::to_string(count) + ")");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // HDF5's free lists (as fuzz_hdf5): blocks up to 8 MiB per list, 32 MiB in all, are reused, so each file's
  // metadata cache is not a fresh mmap under ASan (throughput only).
  constexpr int kList = 8 << 20, kGlobal = 32 << 20;
  static const bool limits_set = H5set_free_list_limits(kGlobal, kList, kGlobal, kList, kGlobal, kList) >= 0;
  (void)limits_set;
  const std::string path = fz::write_scratch("log.h5", std::string_view(reinterpret_cast<const char*>(data), size));
  std::size_t salt = 14695981039346656037u;  // FNV-1a of the input: block width and the sub-block compared
  for (std::size_t i = 0; i < size; ++i) salt = (salt ^ data[i]) * 1099511628211u;
  fz::run_one([&] {
    const auto source = bfs::open_logged_hdf5(path, {});
    if (source == nullptr) fz::finding("open_logged_hdf5", "returned no source");
    check_whole(*source, salt);
  });
  const ssize_t open = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
  if (open != 0) fz::finding("HDF5 objects left open after the input", std::to_string(open).c_str());
  return 0;
}
