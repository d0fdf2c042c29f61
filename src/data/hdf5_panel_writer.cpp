// Extendible, row-chunked datasets grown one period at a time (H5Dset_extent + a hyperslab write).
#include "data/hdf5_panel_writer.hpp"

#include <hdf5.h>

#include <algorithm>
#include <filesystem>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_write.hpp"

namespace bfs {

using detail::H5Handle;

namespace {

using detail::h5_check;
using detail::h5_checked;

/// An empty dataset of `rank` dimensions, unlimited along the first, chunked by `chunk`.
H5Handle create_extendible(hid_t file, const char* name, hid_t type, int rank, const hsize_t* chunk, hsize_t cols,
                           const std::string& path) {
  const hsize_t dims[2] = {0, cols};
  const hsize_t maxdims[2] = {H5S_UNLIMITED, cols};
  H5Handle space = h5_checked(H5Screate_simple(rank, dims, maxdims), H5Sclose, path, "create a dataspace");
  H5Handle dcpl = h5_checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, path, "create a property list");
  h5_check(H5Pset_chunk(dcpl.get(), rank, chunk), path, std::string("set the chunk shape of /") + name);
  return h5_checked(H5Dcreate2(file, name, type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT), H5Dclose, path,
                    std::string("create /") + name);
}

/// Grows `dset` from `old_rows` to `old_rows + rows` along the first dimension and writes `data` there.
void append_rows(hid_t dset, const char* name, int rank, hsize_t cols, hsize_t old_rows, hsize_t rows, hid_t memtype,
                 const void* data, const std::string& path) {
  const hsize_t new_dims[2] = {old_rows + rows, cols};
  h5_check(H5Dset_extent(dset, new_dims), path, std::string("extend /") + name);
  H5Handle space = h5_checked(H5Dget_space(dset), H5Sclose, path, std::string("get the dataspace of /") + name);
  const hsize_t start[2] = {old_rows, 0};
  const hsize_t count[2] = {rows, cols};
  h5_check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr), path,
           std::string("select rows of /") + name);
  H5Handle mem = h5_checked(H5Screate_simple(rank, count, nullptr), H5Sclose, path, "create a memory dataspace");
  h5_check(H5Dwrite(dset, memtype, mem.get(), space.get(), H5P_DEFAULT, data), path,
           detail::concat("write rows [", old_rows, ", ", old_rows + rows, ") of /", name));
}

void write_attribute(hid_t file, const std::string& name, hid_t type, const void* value, const std::string& path) {
  H5Handle space = h5_checked(H5Screate(H5S_SCALAR), H5Sclose, path, "create a scalar dataspace");
  H5Handle attr = h5_checked(H5Acreate2(file, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose,
                             path, "create the attribute " + name);
  h5_check(H5Awrite(attr.get(), type, value), path, "write the attribute " + name);
}

}  // namespace

struct Hdf5PanelWriter::Impl {
  H5Handle file, x, y, period;
};

Hdf5PanelWriter::Hdf5PanelWriter(std::string path, std::vector<std::string> feature_names)
    : path_(std::move(path)), tmp_(path_ + ".tmp"), feature_names_(std::move(feature_names)) {
  cols_ = static_cast<Index>(feature_names_.size());
  if (cols_ == 0) throw InputError(detail::concat(path_, ": cannot write a panel with no feature columns"));
  detail::silence_hdf5_errors();
  impl_ = std::make_unique<Impl>();
  try {
    impl_->file = h5_checked(H5Fcreate(tmp_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, path_,
                             "create the file " + tmp_);
    const auto p = static_cast<hsize_t>(cols_);
    // Row chunks: up to 1024 rows, capped at ~4 MiB per chunk (as write_hdf5) so a period read touches few chunks.
    const hsize_t chunk_rows = std::clamp<hsize_t>((hsize_t{4} << 20) / (p * sizeof(float)), 1, 1024);
    const hsize_t x_chunk[2] = {chunk_rows, p};
    const hsize_t v_chunk[1] = {8192};
    impl_->x = create_extendible(impl_->file.get(), "X", H5T_IEEE_F32LE, 2, x_chunk, p, path_);
    impl_->y = create_extendible(impl_->file.get(), "y", H5T_IEEE_F64LE, 1, v_chunk, 1, path_);
    impl_->period = create_extendible(impl_->file.get(), "period", H5T_STD_I32LE, 1, v_chunk, 1, path_);
  } catch (...) {
    impl_.reset();
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
    throw;
  }
}

Hdf5PanelWriter::~Hdf5PanelWriter() {
  if (finished_) return;
  impl_.reset();  // close every handle before removing the file
  std::error_code ec;
  std::filesystem::remove(tmp_, ec);
}

void Hdf5PanelWriter::append_period(std::int32_t label, const float* X, const double* y, Index rows) {
  BFS_CHECK(!finished_, "append_period after finish");
  BFS_CHECK(rows > 0, "append_period: a period needs at least one row (label ", label, ")");
  BFS_CHECK(labels_.empty() || label > labels_.back(), "append_period: label ", label, " after ", labels_.back());
  const auto old_rows = static_cast<hsize_t>(rows_), n = static_cast<hsize_t>(rows);
  append_rows(impl_->x.get(), "X", 2, static_cast<hsize_t>(cols_), old_rows, n, H5T_NATIVE_FLOAT, X, path_);
  append_rows(impl_->y.get(), "y", 1, 1, old_rows, n, H5T_NATIVE_DOUBLE, y, path_);
  const std::vector<std::int32_t> period(static_cast<std::size_t>(rows), label);
  append_rows(impl_->period.get(), "period", 1, 1, old_rows, n, H5T_NATIVE_INT32, period.data(), path_);
  rows_ += rows;
  offsets_.push_back(rows_);
  labels_.push_back(label);
}

void Hdf5PanelWriter::set_attribute(const std::string& name, const std::string& value) {
  BFS_CHECK(!finished_, "set_attribute after finish");
  H5Handle type = detail::h5_utf8_string_type(path_);  // h5py reads a str
  const char* text = value.c_str();
  write_attribute(impl_->file.get(), name, type.get(), &text, path_);
}
void Hdf5PanelWriter::set_attribute(const std::string& name, std::int64_t value) {
  BFS_CHECK(!finished_, "set_attribute after finish");
  write_attribute(impl_->file.get(), name, H5T_NATIVE_INT64, &value, path_);
}
void Hdf5PanelWriter::set_attribute(const std::string& name, double value) {
  BFS_CHECK(!finished_, "set_attribute after finish");
  write_attribute(impl_->file.get(), name, H5T_NATIVE_DOUBLE, &value, path_);
}

void Hdf5PanelWriter::finish() {
  BFS_CHECK(!finished_, "finish called twice");
  if (labels_.empty()) throw InputError(detail::concat(path_, ": no rows to write (every period is empty)"));
  const hid_t f = impl_->file.get();
  detail::h5_write_1d(f, "period_offsets", H5T_STD_I64LE, H5T_NATIVE_INT64, offsets_, path_);
  detail::h5_write_1d(f, "period_labels", H5T_STD_I32LE, H5T_NATIVE_INT32, labels_, path_);
  if (!truth_.empty()) detail::h5_write_1d(f, "truth", H5T_STD_I32LE, H5T_NATIVE_INT32, truth_, path_);
  detail::h5_write_strings(f, "feature_names", feature_names_, path_);
  impl_->x.reset();
  impl_->y.reset();
  impl_->period.reset();
  h5_check(impl_->file.close(), path_, "close " + tmp_);
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) {
    throw InputError(
        detail::concat("cannot write HDF5 file '", path_, "': rename from ", tmp_, " failed: ", ec.message()));
  }
  finished_ = true;
}

}  // namespace bfs
