#pragma once
// The categorical columns of the HDF5 input schema (data/hdf5_io.hpp): reading and checking /categorical,
// /category_labels and /category_offsets, checking the codes of a block of rows, and writing a data set's
// categorical features back as codes. Included only by data/hdf5_io.cpp; callers hold detail::hdf5_mutex().
#include <hdf5.h>

#include <string>

#include "data/dataset.hpp"
#include "data/hdf5_io.hpp"

namespace bfs::detail {

/// Fills header.categorical and header.category_labels (all numeric when the file has no /categorical).
void read_hdf5_categories(hid_t file, const std::string& path, Hdf5Header& header);
/// InputError naming the file, row (first_row + i) and column for a value of a categorical column that is not NaN
/// and not a whole number in [0, labels) (or [0, 2^24) when the column has no labels: codes are exact in a float).
void check_hdf5_codes(const Matrix& raw, const Hdf5Header& header, const std::string& path, Index first_row);
/// The codings from the counts of every row's codes, fed to `add` in blocks of raw rows (codes checked before).
class Hdf5CodeCounter {
 public:
  explicit Hdf5CodeCounter(const Hdf5Header& header);
  void add(const Matrix& raw);
  Hdf5Coding codings(const Hdf5Header& header, const TableRules& rules, const std::string& path) const;

 private:
  std::vector<std::uint8_t> categorical_;
  std::vector<std::vector<std::int64_t>> counts_;  ///< per categorical column: rows per code
  std::vector<std::int64_t> missing_;
  Index rows_ = 0;
};
/// /X's raw values and the flags and labels of a data set whose layout has categorical features: each categorical
/// feature one column of codes (its level index; the level "missing" as NaN).
struct RawTable {
  Matrix X;
  std::vector<std::int32_t> categorical;
  std::vector<std::string> labels;
  std::vector<std::int64_t> offsets;
};
RawTable raw_table_of(const Dataset& data);

}  // namespace bfs::detail
