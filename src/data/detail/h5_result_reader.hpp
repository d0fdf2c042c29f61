#pragma once
// The checked reader of result-like HDF5 files (the bandit's checkpoint.h5, result.h5): every missing or malformed
// dataset or attribute is an InputError "result file '<path>': <what>".
#include <hdf5.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_types.hpp"

namespace bfs::detail {

class Reader {
 public:
  explicit Reader(const std::string& path) : path_(path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) fail("no such file");
    if (H5Fis_hdf5(path.c_str()) <= 0) fail("not an HDF5 file");
    file_ = bfs::detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
    if (!file_.valid()) fail(bfs::detail::concat("cannot open: ", h5_error_message()));
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(bfs::detail::concat("result file '", path_, "': ", what));
  }

  /// True when every component of `name` ("evaluations/iteration") exists as a link.
  bool has(const std::string& name) const {
    std::size_t pos = 0;
    while (true) {
      pos = name.find('/', pos);
      const std::string prefix = name.substr(0, pos);
      if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
      if (pos == std::string::npos) return true;
      ++pos;
    }
  }

  H5Handle open(const std::string& name) const {
    if (!has(name)) fail(bfs::detail::concat("missing dataset /", name));
    H5Handle dset = bfs::detail::h5_dataset(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT));
    if (!dset.valid()) fail(bfs::detail::concat("cannot open dataset /", name));
    return dset;
  }

  std::vector<hsize_t> shape(hid_t dset, const std::string& name) const {
    H5Handle space = bfs::detail::h5_space(H5Dget_space(dset));
    const int rank = space.valid() ? H5Sget_simple_extent_ndims(space.get()) : -1;
    if (rank < 0) fail(bfs::detail::concat("cannot read the shape of /", name));
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    return dims;
  }

  template <class T>
  std::vector<T> read_1d(const std::string& name) const {
    H5Handle dset = open(name);
    const auto dims = shape(dset.get(), name);
    if (dims.size() != 1) fail(bfs::detail::concat("/", name, " is not one-dimensional"));
    std::vector<T> data(dims[0]);
    if (!data.empty() && H5Dread(dset.get(), H5Types<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0) {
      fail(bfs::detail::concat("cannot read /", name, ": ", h5_error_message()));
    }
    return data;
  }

  /// Rows × cols float32 dataset into a row-major vector.
  std::vector<float> read_2d(const std::string& name, std::size_t cols, std::size_t& rows) const {
    H5Handle dset = open(name);
    const auto dims = shape(dset.get(), name);
    if (dims.size() != 2 || dims[1] != cols) {
      fail(bfs::detail::concat("/", name, " is not a [rows x ", cols, "] matrix"));
    }
    rows = dims[0];
    std::vector<float> data(dims[0] * dims[1]);
    if (!data.empty() && H5Dread(dset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0) {
      fail(bfs::detail::concat("cannot read /", name, ": ", h5_error_message()));
    }
    return data;
  }

  /// Fixed-length or variable-length strings, one-dimensional.
  std::vector<std::string> read_strings(const std::string& name) const {
    std::vector<hsize_t> dims;
    std::vector<std::string> out = read_strings_nd(name, dims);
    if (dims.size() != 1) fail(bfs::detail::concat("/", name, " is not one-dimensional"));
    return out;
  }

  /// Fails when the file is a run's result (result.h5 holds /importance; no checkpoint does): it was given where a
  /// checkpoint is expected, and naming the first checkpoint dataset it lacks would not say so.
  void refuse_a_result_as_checkpoint() const {
    if (has("importance"))
      fail(
          "this is a run's result (result.h5), not a checkpoint; --resume continues from the checkpoint.h5 an "
          "interrupted run leaves in its output directory");
  }

  /// Attributes live on the root ("." ) or on a group such as "tuning".
  bool has_attr(const char* name, const char* object = ".") const {
    return H5Aexists_by_name(file_.get(), object, name, H5P_DEFAULT) > 0;
  }

  H5Handle open_attr(const char* name, const char* object = ".") const {
    const std::string where = std::string(object) == "." ? std::string(name) : bfs::detail::concat(object, "/", name);
    if (!has_attr(name, object)) fail(bfs::detail::concat("missing attribute ", where));
    H5Handle attr = bfs::detail::h5_attr(H5Aopen_by_name(file_.get(), object, name, H5P_DEFAULT, H5P_DEFAULT));
    if (!attr.valid()) fail(bfs::detail::concat("cannot open attribute ", where));
    return attr;
  }

  template <class T>
  T attr(const char* name, const char* object = ".") const {
    H5Handle a = open_attr(name, object);
    T value{};
    if (H5Aread(a.get(), H5Types<T>::mem(), &value) < 0) fail(bfs::detail::concat("cannot read attribute ", name));
    return value;
  }

  /// float64 [rows × cols] into a row-major vector; `cols` is checked, rows is returned.
  std::vector<double> read_2d_double(const std::string& name, std::size_t cols, std::size_t& rows) const {
    H5Handle dset = open(name);
    const auto dims = shape(dset.get(), name);
    if (dims.size() != 2 || dims[1] != cols)
      fail(bfs::detail::concat("/", name, " is not a [rows x ", cols, "] matrix"));
    rows = dims[0];
    std::vector<double> data(dims[0] * dims[1]);
    if (!data.empty() && H5Dread(dset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0) {
      fail(bfs::detail::concat("cannot read /", name, ": ", h5_error_message()));
    }
    return data;
  }

  /// Optional numeric attribute (older or partial files): `fallback` when absent.
  template <class T>
  T attr_or(const char* name, T fallback) const {
    return has_attr(name) ? attr<T>(name) : fallback;
  }

  std::string string_attr(const char* name, const char* object = ".") const {
    H5Handle a = open_attr(name, object);
    H5Handle type = bfs::detail::h5_type(H5Aget_type(a.get()));
    if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING)
      fail(bfs::detail::concat("attribute ", name, " is not a string"));
    if (H5Tis_variable_str(type.get()) > 0) {
      char* data = nullptr;  // memory type = file type: HDF5 will not convert charsets
      if (H5Aread(a.get(), type.get(), &data) < 0) fail(bfs::detail::concat("cannot read attribute ", name));
      std::string value = data != nullptr ? data : "";
      H5free_memory(data);
      return value;
    }
    std::string value(H5Tget_size(type.get()), '\0');
    if (H5Aread(a.get(), type.get(), value.data()) < 0) fail(bfs::detail::concat("cannot read attribute ", name));
    value.resize(std::strlen(value.c_str()));
    return value;
  }

  /// Numeric dataset of any rank into a row-major vector (converted to T by HDF5); `dims` receives its shape.
  template <class T>
  std::vector<T> read_nd(const std::string& name, std::vector<hsize_t>& dims) const {
    H5Handle dset = open(name);
    dims = shape(dset.get(), name);
    std::size_t count = 1;
    for (hsize_t d : dims) count *= static_cast<std::size_t>(d);
    std::vector<T> data(count);
    if (!data.empty() && H5Dread(dset.get(), H5Types<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0) {
      fail(bfs::detail::concat("cannot read /", name, ": ", h5_error_message()));
    }
    return data;
  }

  /// Fixed- or variable-length strings of any rank, row-major; `dims` receives the shape.
  std::vector<std::string> read_strings_nd(const std::string& name, std::vector<hsize_t>& dims) const {
    H5Handle dset = open(name);
    dims = shape(dset.get(), name);
    std::size_t count = 1;
    for (hsize_t d : dims) count *= static_cast<std::size_t>(d);
    H5Handle type = bfs::detail::h5_type(H5Dget_type(dset.get()));
    if (!type.valid() || H5Tget_class(type.get()) != H5T_STRING)
      fail(bfs::detail::concat("/", name, " is not strings"));
    std::vector<std::string> out(count);
    if (out.empty()) return out;
    if (H5Tis_variable_str(type.get()) > 0) {
      std::vector<char*> ptrs(out.size(), nullptr);
      if (H5Dread(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()) < 0) {
        fail(bfs::detail::concat("cannot read /", name));
      }
      for (std::size_t i = 0; i < out.size(); ++i) {
        if (ptrs[i] != nullptr) out[i] = ptrs[i];
        H5free_memory(ptrs[i]);
      }
      return out;
    }
    const std::size_t width = H5Tget_size(type.get());
    std::vector<char> buffer(out.size() * width);
    if (H5Dread(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()) < 0) {
      fail(bfs::detail::concat("cannot read /", name));
    }
    const bool space_pad = H5Tget_strpad(type.get()) == H5T_STR_SPACEPAD;
    for (std::size_t i = 0; i < out.size(); ++i) {
      std::string s(buffer.data() + i * width, width);
      const auto end = s.find_last_not_of(space_pad ? ' ' : '\0');
      s.resize(end == std::string::npos ? 0 : end + 1);
      if (!space_pad) s.resize(std::strlen(s.c_str()));
      out[i] = std::move(s);
    }
    return out;
  }

  /// HDF5 type class (H5T_INTEGER, H5T_FLOAT, H5T_STRING, ...) and size in bytes of dataset `name`.
  H5T_class_t dataset_class(const std::string& name, std::size_t& size) const {
    H5Handle dset = open(name);
    H5Handle type = bfs::detail::h5_type(H5Dget_type(dset.get()));
    if (!type.valid()) fail(bfs::detail::concat("cannot read the type of /", name));
    size = H5Tget_size(type.get());
    return H5Tget_class(type.get());
  }

  /// Type class of attribute `name` of `object` (H5T_NO_CLASS when it cannot be read).
  H5T_class_t attr_class(const char* name, const char* object = ".") const {
    H5Handle a = open_attr(name, object);
    H5Handle type = bfs::detail::h5_type(H5Aget_type(a.get()));
    return type.valid() ? H5Tget_class(type.get()) : H5T_NO_CLASS;
  }

  /// Names of the attributes of `object`, in name order.
  std::vector<std::string> attr_names(const char* object = ".") const {
    std::vector<std::string> names;
    hsize_t index = 0;
    const herr_t status = H5Aiterate_by_name(
        file_.get(), object, H5_INDEX_NAME, H5_ITER_INC, &index,
        [](hid_t, const char* name, const H5A_info_t*, void* data) -> herr_t {
          static_cast<std::vector<std::string>*>(data)->emplace_back(name);
          return 0;
        },
        &names, H5P_DEFAULT);
    if (status < 0) fail(bfs::detail::concat("cannot list the attributes of ", object));
    return names;
  }

  /// True when `name` exists and is a group.
  bool is_group(const std::string& name) const {
    if (!has(name)) return false;
    H5Handle obj(H5Oopen(file_.get(), name.c_str(), H5P_DEFAULT), H5Oclose);
    return obj.valid() && H5Iget_type(obj.get()) == H5I_GROUP;
  }

  /// Every dataset below group `group` (recursively), as paths relative to it ("alpha", "evaluations/slot"), and
  /// every subgroup (relative paths), both in name order (a group before its members).
  void walk(const std::string& group, std::vector<std::string>& datasets, std::vector<std::string>& groups) const {
    struct Acc {
      hid_t file;
      std::string base;
      std::vector<std::string>* datasets;
      std::vector<std::string>* groups;
    } acc{file_.get(), group, &datasets, &groups};
    const herr_t status = H5Lvisit_by_name(
        file_.get(), group.c_str(), H5_INDEX_NAME, H5_ITER_INC,
        [](hid_t, const char* name, const H5L_info_t* info, void* data) -> herr_t {
          auto* a = static_cast<Acc*>(data);
          if (info->type != H5L_TYPE_HARD) return 0;
          const std::string full = a->base + "/" + name;
          H5Handle obj(H5Oopen(a->file, full.c_str(), H5P_DEFAULT), H5Oclose);
          if (!obj.valid()) return -1;
          const H5I_type_t kind = H5Iget_type(obj.get());
          if (kind == H5I_DATASET) a->datasets->emplace_back(name);
          if (kind == H5I_GROUP) a->groups->emplace_back(name);
          return 0;
        },
        &acc, H5P_DEFAULT);
    if (status < 0) fail(bfs::detail::concat("cannot list the members of /", group));
  }

 private:
  std::string path_;
  H5Handle file_;
};

}  // namespace bfs::detail
