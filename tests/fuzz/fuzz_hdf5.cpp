// Fuzz harness: the HDF5 input reader (data/hdf5_io.hpp), fed mutated small files, docs/fuzzing.md.
// Input: the bytes of an HDF5 file. It is read as banditfs reads its inputs: the header, then /y alone (a binary
// panel's label check; inputs of even size) or the last rows (a panel's period read; odd size), then the whole file.
// After each input no HDF5 object may be left open (a handle leaked on an error path would keep the file open and
// be reused, stale, by the next H5Fopen of the same file).
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "data/hdf5_io.hpp"
#include "fuzz_common.hpp"

namespace fz = bfs::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // HDF5 keeps freed blocks on its own free lists only up to 64 KiB per list by default: the metadata cache of every
  // opened file (several hundred KiB) is then a fresh mmap under ASan, its pages faulting in, ~10 ms per input.
  // 8 MiB per list, 32 MiB in all: the blocks are reused (throughput only; the free lists are HDF5's, outside the code
  // under test; unlimited lists grew past 1 GiB on blocks sized by corrupt files).
  constexpr int kList = 8 << 20, kGlobal = 32 << 20;
  static const bool limits_set = H5set_free_list_limits(kGlobal, kList, kGlobal, kList, kGlobal, kList) >= 0;
  (void)limits_set;
  const std::string path = fz::write_scratch("input.h5", std::string_view(reinterpret_cast<const char*>(data), size));
  fz::run_one([&] {
    const bfs::Hdf5Header header = bfs::read_hdf5_header(path);
    if (size % 2 == 0) {  // one of the two partial reads per input (each opens the file: fewer opens, more inputs)
      (void)bfs::read_hdf5_y(path, header);
    } else {
      const bfs::Index block = std::min<bfs::Index>(header.rows, 3);
      (void)bfs::read_hdf5_rows(path, header, header.rows - block, block);
    }
    const bfs::Dataset whole = bfs::read_hdf5(path);
    if (whole.rows() != header.rows || whole.cols() != header.cols || whole.feature_names != header.feature_names) {
      fz::finding("read_hdf5", "the whole file's shape differs from its header");
    }
  });
  const ssize_t open = H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL);
  if (open != 0) fz::finding("HDF5 objects left open after the input", std::to_string(open).c_str());
  return 0;
}
