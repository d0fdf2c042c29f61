#pragma once
// The HDF5 checks and small writers shared by the data writers (hdf5_io.cpp's write_hdf5 and the panel writer):
// every failure is an InputError naming the file and what failed.
#include <hdf5.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"

namespace bfs::detail {

inline void h5_check(herr_t status, const std::string& path, const std::string& what) {
  if (status < 0) throw InputError(concat(path, ": HDF5 failed to ", what));
}

inline H5Handle h5_checked(hid_t id, H5Handle::Closer close, const std::string& path, const std::string& what) {
  if (id < 0) throw InputError(concat(path, ": HDF5 failed to ", what));
  return H5Handle(id, close);
}

/// A one-dimensional dataset /name holding `values` (stored as `filetype`, read from memory as `memtype`).
template <class T>
void h5_write_1d(hid_t file, const char* name, hid_t filetype, hid_t memtype, const std::vector<T>& values,
                 const std::string& path) {
  const hsize_t n = values.size();
  H5Handle space = h5_checked(H5Screate_simple(1, &n, nullptr), H5Sclose, path, "create a dataspace");
  H5Handle dset = h5_checked(H5Dcreate2(file, name, filetype, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                             H5Dclose, path, std::string("create /") + name);
  if (n > 0)
    h5_check(H5Dwrite(dset.get(), memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), path,
             std::string("write /") + name);
}

/// The variable-length UTF-8 string type: h5py reads it as str (.asstr()), and our reader accepts it.
inline H5Handle h5_utf8_string_type(const std::string& path) {
  H5Handle type = h5_checked(H5Tcopy(H5T_C_S1), H5Tclose, path, "copy a string type");
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  return type;
}

/// A one-dimensional dataset /name of variable-length UTF-8 strings.
inline void h5_write_strings(hid_t file, const char* name, const std::vector<std::string>& values,
                             const std::string& path) {
  H5Handle type = h5_utf8_string_type(path);
  std::vector<const char*> pointers;
  pointers.reserve(values.size());
  for (const auto& s : values) pointers.push_back(s.c_str());
  const hsize_t count = pointers.size();
  H5Handle space = h5_checked(H5Screate_simple(1, &count, nullptr), H5Sclose, path, "create a dataspace");
  H5Handle dset = h5_checked(H5Dcreate2(file, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                             H5Dclose, path, std::string("create /") + name);
  h5_check(H5Dwrite(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()), path,
           std::string("write /") + name);
}

}  // namespace bfs::detail
