#pragma once
// The HDF5 input schema (docs/design.md §4): /X float32 [n, p] chunked by rows (NaN = a missing cell); /y float64
// [n]; /feature_names strings [p]; optional /period int32 [n] sorted with /period_offsets int64 [periods+1]; optional
// /truth int32. Optional categorical columns, as a bandit log marks them (README "Files"): /categorical int32 [p]
// flags, and /category_labels strings with /category_offsets int64 [p+1] (column j's labels are entries
// [offsets[j], offsets[j+1])); a flagged column of /X holds codes 0..L-1 (NaN = missing), which the reader expands
// into indicator columns by data/categorical.hpp's rules (levels pooled and counted over every row of the file).
#include <string>

#include "data/categorical.hpp"
#include "data/dataset.hpp"

namespace bfs {

/// Shape and metadata without reading X.
struct Hdf5Header {
  /// Rows with a target: the file's rows less dropped_rows. Every row index below (period_offsets, first/count of
  /// read_hdf5_rows) counts these rows only.
  Index rows = 0;
  /// The file's rows whose /y is NaN (a missing target), ascending: no read returns them (README, "Input HDF5").
  std::vector<Index> dropped_rows;
  Index cols = 0;
  std::vector<std::string> feature_names;
  std::vector<std::int64_t> period_offsets;
  std::vector<std::int32_t> period_labels;
  std::vector<FeatureId> truth;
  bool has_truth = false;
  /// Per column of /X: 1 = its values are codes of a categorical column.
  std::vector<std::uint8_t> categorical;
  /// Per column: the labels of its codes (empty = the codes themselves, as numbers).
  std::vector<std::vector<std::string>> category_labels;
  bool has_categorical() const;
};

/// How the columns of /X become columns of X, and the missing cells of each (over every row counted).
struct Hdf5Coding {
  std::vector<ColumnCoding> codings;
  std::vector<std::int64_t> missing;
};

/// Reads the header; InputError naming the file and dataset for a missing file, missing /X or /y, or mismatched
/// shapes. Reads /y whole to find the rows without a target (NaN), which every read then drops, as the CSV reader
/// does: the periods' offsets count the kept rows, and a period left without rows is an InputError naming it.
Hdf5Header read_hdf5_header(const std::string& path);
/// Reads rows [first, first + count) of /X and /y (a hyperslab; nothing else is loaded), /X as stored: codes in the
/// categorical columns, checked (whole numbers in range, or NaN), and one column per feature (no layout).
Dataset read_hdf5_rows(const std::string& path, const Hdf5Header& header, Index first, Index count);
/// The coding of the file's columns and their missing counts, from `raw` (every row of /X as read_hdf5_rows gives
/// it) or, when null, from /X read in blocks of rows. Refuses (InputError naming the file and column) a categorical
/// column with too many levels, and a column all missing.
Hdf5Coding code_hdf5_columns(const std::string& path, const Hdf5Header& header, const TableRules& rules,
                             const Matrix* raw);
/// Reads all of /y alone (n doubles; X is not touched), the rows without a target dropped: what a binary panel
/// validates its labels over at open. InputError naming the file and row for Inf, as a row read would give.
Vector read_hdf5_y(const std::string& path, const Hdf5Header& header);
/// Reads the whole file (validated): categorical columns expanded, missing counts set.
Dataset read_hdf5(const std::string& path, const TableRules& rules = {});
/// Writes `data` in the schema, atomically (path.tmp + rename). Periods written when period_offsets is set; a
/// categorical feature as one column of codes of its levels (its "missing" level as NaN), flagged in /categorical.
void write_hdf5(const Dataset& data, const std::string& path);

/// Call once, first thing in main, before any other HDF5 call: HDF5 then registers no exit-time cleanup.
/// Every file banditfs writes is closed explicitly, with its result checked; a file whose close failed (a full disk,
/// a file-size limit) stays half-closed inside HDF5, and the library's atexit handler would try to close it again
/// and crash (SIGSEGV after the error message). Without the handler the process ends with the message and exit 1.
void disable_hdf5_exit_cleanup();

}  // namespace bfs
