#pragma once
// The HDF5 input schema (docs/design.md §4): /X float32 [n, p] chunked by rows; /y float64 [n]; /feature_names strings
// [p]; optional /period int32 [n] sorted with /period_offsets int64 [periods+1]; optional /truth int32.
#include <string>

#include "data/dataset.hpp"

namespace bfs {

/// Shape and metadata without reading X.
struct Hdf5Header {
  Index rows = 0;
  Index cols = 0;
  std::vector<std::string> feature_names;
  std::vector<std::int64_t> period_offsets;
  std::vector<std::int32_t> period_labels;
  std::vector<FeatureId> truth;
  bool has_truth = false;
};

/// Reads the header; InputError naming the file and dataset for a missing file, missing /X or /y, or mismatched
/// shapes.
Hdf5Header read_hdf5_header(const std::string& path);
/// Reads rows [first, first + count) of /X and /y (a hyperslab; nothing else is loaded).
Dataset read_hdf5_rows(const std::string& path, const Hdf5Header& header, Index first, Index count);
/// Reads all of /y alone (n doubles; X is not touched): what a binary panel validates its labels over at open.
/// InputError naming the file and row for NaN/Inf, as a row read would give.
Vector read_hdf5_y(const std::string& path, const Hdf5Header& header);
/// Reads the whole file (validated).
Dataset read_hdf5(const std::string& path);
/// Writes `data` in the schema, atomically (path.tmp + rename). Periods written when period_offsets is set.
void write_hdf5(const Dataset& data, const std::string& path);

/// Call once, first thing in main, before any other HDF5 call: HDF5 then registers no exit-time cleanup.
/// Every file banditfs writes is closed explicitly, with its result checked; a file whose close failed (a full disk,
/// a file-size limit) stays half-closed inside HDF5, and the library's atexit handler would try to close it again
/// and crash (SIGSEGV after the error message). Without the handler the process ends with the message and exit 1.
void disable_hdf5_exit_cleanup();

}  // namespace bfs
