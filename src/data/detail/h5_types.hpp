#pragma once
// HDF5 type mapping and error checking shared by the result.h5 writer and reader.
#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace bfs::detail {

/// Memory (native) and file (little-endian, fixed) HDF5 types of a C++ scalar type.
template <class T>
struct H5Types;
template <>
struct H5Types<double> {
  static hid_t mem() { return H5T_NATIVE_DOUBLE; }
  static hid_t file() { return H5T_IEEE_F64LE; }
};
template <>
struct H5Types<float> {
  static hid_t mem() { return H5T_NATIVE_FLOAT; }
  static hid_t file() { return H5T_IEEE_F32LE; }
};
template <>
struct H5Types<std::int32_t> {
  static hid_t mem() { return H5T_NATIVE_INT32; }
  static hid_t file() { return H5T_STD_I32LE; }
};
template <>
struct H5Types<std::int64_t> {
  static hid_t mem() { return H5T_NATIVE_INT64; }
  static hid_t file() { return H5T_STD_I64LE; }
};
template <>
struct H5Types<std::uint64_t> {
  static hid_t mem() { return H5T_NATIVE_UINT64; }
  static hid_t file() { return H5T_STD_U64LE; }
};

/// Collects the outermost and innermost descriptions of HDF5's current error stack (the API call and the cause).
inline std::string h5_error_message() {
  std::vector<std::string> lines;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* err, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->emplace_back(err->desc != nullptr ? err->desc : "");
        return 0;
      },
      &lines);
  if (lines.empty()) return "HDF5 error";
  return lines.size() == 1 ? lines.front() : lines.front() + " (" + lines.back() + ")";
}

/// Throws bfs::Error "HDF5: <what>: <cause>" when an HDF5 call returned a negative id / status.
inline hid_t check_id(hid_t id, const std::string& what) {
  if (id < 0) throw Error(concat("HDF5: ", what, ": ", h5_error_message()));
  return id;
}
inline void check(herr_t status, const std::string& what) {
  if (status < 0) throw Error(concat("HDF5: ", what, ": ", h5_error_message()));
}

}  // namespace bfs::detail
