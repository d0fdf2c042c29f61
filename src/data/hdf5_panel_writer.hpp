#pragma once
// Streaming writer of a panel in the HDF5 input schema (docs/design.md §4): /X float32 [n, p] chunked by rows, /y
// float64 [n], /feature_names, /period int32 [n] (sorted labels), /period_offsets int64 [periods + 1] and
// /period_labels int32 [periods]. Periods are appended one at a time to extendible datasets, so a panel larger than
// memory can be written; the file is readable by read_hdf5_header / make_hdf5_source. Atomic: everything goes to
// `path.tmp`, which finish() renames to `path`; a writer destroyed before finish() (an exception) removes the tmp file.
// Single-threaded use only (the serial HDF5 library is not thread-safe).
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"

namespace bfs {

class Hdf5PanelWriter {
 public:
  /// Creates `path.tmp` with empty extendible /X (p = feature_names.size() columns), /y and /period.
  /// InputError naming the file when it cannot be created or p = 0.
  Hdf5PanelWriter(std::string path, std::vector<std::string> feature_names);
  ~Hdf5PanelWriter();
  Hdf5PanelWriter(const Hdf5PanelWriter&) = delete;
  Hdf5PanelWriter& operator=(const Hdf5PanelWriter&) = delete;

  /// Appends one period: `rows` rows of X (row-major, rows × p floats) and y. Labels must increase strictly from
  /// one period to the next and rows must be > 0 (the reader requires strictly increasing offsets).
  void append_period(std::int32_t label, const float* X, const double* y, Index rows);
  /// Root attributes (the preparation settings), written to the temporary file at once.
  void set_attribute(const std::string& name, const std::string& value);
  void set_attribute(const std::string& name, std::int64_t value);
  void set_attribute(const std::string& name, double value);

  /// Indices of the truly relevant features (simulations), written as /truth by finish().
  void set_truth(std::vector<std::int32_t> truth) { truth_ = std::move(truth); }

  /// Writes /period_offsets, /period_labels, /feature_names and the attributes, closes and renames the tmp file
  /// to the final path. InputError when no period was appended.
  void finish();

  Index rows() const { return rows_; }
  int periods() const { return static_cast<int>(labels_.size()); }
  const std::string& path() const { return path_; }

 private:
  struct Impl;
  std::string path_;
  std::vector<std::int32_t> truth_;
  std::string tmp_;
  Index cols_ = 0;
  Index rows_ = 0;
  std::vector<std::string> feature_names_;
  std::vector<std::int64_t> offsets_{0};
  std::vector<std::int32_t> labels_;
  std::unique_ptr<Impl> impl_;
  bool finished_ = false;
};

}  // namespace bfs
