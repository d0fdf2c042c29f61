#pragma once
// Deterministic HDF5 writers shared by every result-like file (the bandit's checkpoint.h5 in methods/bandit/, result.h5
// in output/): no object time stamps, fixed little-endian types, fixed-length strings, so identical values give
// byte-identical datasets. Every failure throws bfs::Error "HDF5: <what>: <cause>".
#include <hdf5.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_types.hpp"

namespace bfs::detail::h5w {

using bfs::detail::check;
using bfs::detail::check_id;
using bfs::detail::H5Handle;
using bfs::detail::H5Types;

/// Trajectory chunks stay at or below this many bytes (at least one row per chunk).
constexpr std::size_t kTrajectoryChunkBytes = std::size_t{1} << 20;

/// Dataset creation properties without time stamps (so the bytes do not depend on the wall clock).
inline H5Handle untimed_dcpl() {
  H5Handle dcpl = bfs::detail::h5_plist(check_id(H5Pcreate(H5P_DATASET_CREATE), "create dataset properties"));
  check(H5Pset_obj_track_times(dcpl.get(), 0), "disable time tracking");
  return dcpl;
}

/// /trajectory float32 [rows × p], chunked by whole rows (≤ ~1 MiB per chunk) and deflated when zlib is available.
/// The first dimension is unlimited, so an empty [0 × p] trajectory is still a valid chunked dataset.
inline void write_trajectory(hid_t loc, const std::vector<float>& trajectory, std::size_t p) {
  if (p == 0 && !trajectory.empty()) throw Error("trajectory is not empty but there are no features");
  if (p != 0 && trajectory.size() % p != 0) {
    throw Error(bfs::detail::concat("trajectory has ", trajectory.size(), " values, not a multiple of p = ", p));
  }
  const hsize_t rows = p == 0 ? 0 : trajectory.size() / p;
  const hsize_t dims[2] = {rows, p};
  H5Handle dcpl = untimed_dcpl();
  H5Handle space;
  if (p == 0) {  // a chunk cannot have a zero extent: plain contiguous [rows × 0]
    space = bfs::detail::h5_space(check_id(H5Screate_simple(2, dims, nullptr), "trajectory space"));
  } else {
    const hsize_t max_dims[2] = {H5S_UNLIMITED, p};
    const hsize_t chunk_rows = std::max<hsize_t>(1, kTrajectoryChunkBytes / (sizeof(float) * p));
    const hsize_t chunk[2] = {rows == 0 ? chunk_rows : std::min<hsize_t>(chunk_rows, rows), p};
    space = bfs::detail::h5_space(check_id(H5Screate_simple(2, dims, max_dims), "trajectory space"));
    check(H5Pset_chunk(dcpl.get(), 2, chunk), "trajectory chunking");
    unsigned int filter_config = 0;
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 && H5Zget_filter_info(H5Z_FILTER_DEFLATE, &filter_config) >= 0 &&
        (filter_config & H5Z_FILTER_CONFIG_ENCODE_ENABLED) != 0) {
      check(H5Pset_shuffle(dcpl.get()), "trajectory shuffle filter");
      check(H5Pset_deflate(dcpl.get(), 4), "trajectory deflate filter");
    }
  }
  H5Handle dset = bfs::detail::h5_dataset(
      check_id(H5Dcreate2(loc, "trajectory", H5T_IEEE_F32LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
               "create dataset trajectory"));
  if (!trajectory.empty()) {
    check(H5Dwrite(dset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, trajectory.data()),
          "write dataset trajectory");
  }
}

/// float64 [rows × cols], contiguous (small tables only).
inline void write_2d(hid_t loc, const char* name, const std::vector<double>& data, std::size_t cols) {
  if (cols == 0 ? !data.empty() : data.size() % cols != 0)
    throw Error(bfs::detail::concat(name, " has ", data.size(), " values, not a multiple of ", cols, " columns"));
  const hsize_t dims[2] = {cols == 0 ? 0 : data.size() / cols, cols};
  H5Handle space = bfs::detail::h5_space(check_id(H5Screate_simple(2, dims, nullptr), name));
  H5Handle dcpl = untimed_dcpl();
  H5Handle dset = bfs::detail::h5_dataset(
      check_id(H5Dcreate2(loc, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
               bfs::detail::concat("create dataset ", name)));
  if (!data.empty()) {
    check(H5Dwrite(dset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
          bfs::detail::concat("write dataset ", name));
  }
}

/// Numeric dataset of any rank (row-major `dims`; empty `dims` = one dimension of data.size()), contiguous.
template <class T>
inline void write_nd(hid_t loc, const char* name, const std::vector<T>& data, const std::vector<std::size_t>& dims) {
  std::vector<hsize_t> extent(dims.begin(), dims.end());
  if (extent.empty()) extent.push_back(data.size());
  std::size_t count = 1;
  for (hsize_t d : extent) count *= static_cast<std::size_t>(d);
  if (count != data.size())
    throw Error(bfs::detail::concat(name, " has ", data.size(), " values, not the ", count, " of its shape"));
  H5Handle space =
      bfs::detail::h5_space(check_id(H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr), name));
  H5Handle dcpl = untimed_dcpl();
  H5Handle dset = bfs::detail::h5_dataset(
      check_id(H5Dcreate2(loc, name, H5Types<T>::file(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
               bfs::detail::concat("create dataset ", name)));
  if (!data.empty()) {
    check(H5Dwrite(dset.get(), H5Types<T>::mem(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()),
          bfs::detail::concat("write dataset ", name));
  }
}

/// Fixed-length, NUL-padded UTF-8 strings of any rank (empty `dims` = one dimension).
inline void write_strings_nd(hid_t loc, const char* name, const std::vector<std::string>& strings,
                             const std::vector<std::size_t>& dims) {
  std::vector<hsize_t> extent(dims.begin(), dims.end());
  if (extent.empty()) extent.push_back(strings.size());
  std::size_t count = 1;
  for (hsize_t d : extent) count *= static_cast<std::size_t>(d);
  if (count != strings.size())
    throw Error(bfs::detail::concat(name, " has ", strings.size(), " strings, not the ", count, " of its shape"));
  std::size_t width = 1;
  for (const auto& s : strings) width = std::max(width, s.size());
  std::vector<char> buffer(strings.size() * width, '\0');
  for (std::size_t i = 0; i < strings.size(); ++i)
    std::memcpy(buffer.data() + i * width, strings[i].data(), strings[i].size());
  H5Handle type = bfs::detail::h5_type(check_id(H5Tcopy(H5T_C_S1), "string type"));
  check(H5Tset_size(type.get(), width), "string size");
  check(H5Tset_strpad(type.get(), H5T_STR_NULLPAD), "string padding");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string charset");
  H5Handle space =
      bfs::detail::h5_space(check_id(H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr), name));
  H5Handle dcpl = untimed_dcpl();
  H5Handle dset = bfs::detail::h5_dataset(
      check_id(H5Dcreate2(loc, name, type.get(), space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
               bfs::detail::concat("create dataset ", name)));
  if (!strings.empty()) {
    check(H5Dwrite(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()),
          bfs::detail::concat("write dataset ", name));
  }
}

/// A one-dimensional numeric dataset.
template <class T>
inline void write_1d(hid_t loc, const char* name, const std::vector<T>& data) {
  write_nd(loc, name, data, {});
}

/// Fixed-length, NUL-padded UTF-8 strings: their raw bytes are deterministic (no heap addresses) and h5py reads
/// them as bytes.
inline void write_strings(hid_t loc, const char* name, const std::vector<std::string>& strings) {
  write_strings_nd(loc, name, strings, {});
}

inline H5Handle untimed_group(hid_t loc, const char* name) {
  H5Handle gcpl = bfs::detail::h5_plist(check_id(H5Pcreate(H5P_GROUP_CREATE), "group properties"));
  check(H5Pset_obj_track_times(gcpl.get(), 0), "disable time tracking");
  return bfs::detail::h5_group(check_id(H5Gcreate2(loc, name, H5P_DEFAULT, gcpl.get(), H5P_DEFAULT),
                                        bfs::detail::concat("create group ", name)));
}

template <class T>
inline void write_attr(hid_t loc, const char* name, T value) {
  H5Handle space = bfs::detail::h5_space(check_id(H5Screate(H5S_SCALAR), name));
  H5Handle attr =
      bfs::detail::h5_attr(check_id(H5Acreate2(loc, name, H5Types<T>::file(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                                    bfs::detail::concat("create attribute ", name)));
  check(H5Awrite(attr.get(), H5Types<T>::mem(), &value), bfs::detail::concat("write attribute ", name));
}

/// Variable-length UTF-8 string attribute: h5py reads it as str, and the data lives in the global heap, so a long
/// job text does not hit the 64 KiB object-header limit.
inline void write_attr(hid_t loc, const char* name, const std::string& value) {
  H5Handle type = bfs::detail::h5_type(check_id(H5Tcopy(H5T_C_S1), "string type"));
  check(H5Tset_size(type.get(), H5T_VARIABLE), "string size");
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "string charset");
  H5Handle space = bfs::detail::h5_space(check_id(H5Screate(H5S_SCALAR), name));
  H5Handle attr =
      bfs::detail::h5_attr(check_id(H5Acreate2(loc, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                                    bfs::detail::concat("create attribute ", name)));
  const char* data = value.c_str();
  check(H5Awrite(attr.get(), type.get(), &data), bfs::detail::concat("write attribute ", name));
}

}  // namespace bfs::detail::h5w
