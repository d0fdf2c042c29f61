#pragma once
// Writes arbitrary, possibly schema-breaking HDF5 datasets for the readers' bad-input tests (test_hdf5.cpp,
// test_logged_data.cpp): the raw C API, no checks of ours in the way.
#include <hdf5.h>

#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace bfs::test {

class RawH5File {
 public:
  explicit RawH5File(const std::string& path)
      : file_(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT)) {
    BOOST_REQUIRE(file_ >= 0);
  }
  RawH5File(const RawH5File&) = delete;
  RawH5File& operator=(const RawH5File&) = delete;
  ~RawH5File() { H5Fclose(file_); }

  template <class T>
  void add(const char* name, std::vector<hsize_t> dims, const std::vector<T>& values, hid_t filetype, hid_t memtype) {
    hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    hid_t dset = H5Dcreate2(file_, name, filetype, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    BOOST_REQUIRE(dset >= 0);
    if (!values.empty()) BOOST_REQUIRE(H5Dwrite(dset, memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
    H5Dclose(dset);
    H5Sclose(space);
  }
  void add_x(std::vector<hsize_t> dims, const std::vector<float>& v) {
    add("X", dims, v, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT);
  }
  void add_y(const std::vector<double>& v) { add("y", {v.size()}, v, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE); }
  void add_i32(const char* name, const std::vector<std::int32_t>& v) {
    add(name, {v.size()}, v, H5T_STD_I32LE, H5T_NATIVE_INT32);
  }
  void add_i64(const char* name, const std::vector<std::int64_t>& v) {
    add(name, {v.size()}, v, H5T_STD_I64LE, H5T_NATIVE_INT64);
  }
  /// Fixed-length, null-padded ASCII strings (what numpy 'S' arrays become).
  void add_fixed_strings(const char* name, const std::vector<std::string>& names, std::size_t width) {
    std::vector<char> buf(names.size() * width, '\0');
    for (std::size_t i = 0; i < names.size(); ++i) std::memcpy(&buf[i * width], names[i].data(), names[i].size());
    write_strings(name, names.size(), width, buf.data());
  }
  /// Variable-length strings (what h5py writes for str).
  void strings(const char* name, const std::vector<std::string>& values) {
    std::vector<const char*> pointers;
    for (const auto& s : values) pointers.push_back(s.c_str());
    write_strings(name, values.size(), H5T_VARIABLE, pointers.data());
  }

 private:
  void write_strings(const char* name, hsize_t n, std::size_t size, const void* data) {
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, size);
    if (size != H5T_VARIABLE) H5Tset_strpad(type, H5T_STR_NULLPAD);
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t dset = H5Dcreate2(file_, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    BOOST_REQUIRE(dset >= 0);
    BOOST_REQUIRE(H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
    H5Dclose(dset);
    H5Sclose(space);
    H5Tclose(type);
  }

  hid_t file_;
};

}  // namespace bfs::test
