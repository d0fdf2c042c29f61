#pragma once
// Helpers shared by the output tests: a temp dir per case, file contents, the datasets of an HDF5 file.
#include <hdf5.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "data/detail/h5_handle.hpp"

namespace bfs::test {

namespace fs = std::filesystem;

/// A fresh directory per test case, removed afterwards.
struct TempDir {
  fs::path dir;
  TempDir() {
    static int counter = 0;
    dir = fs::temp_directory_path() /
          ("banditfs_test_output_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Raw bytes (in the file's own type) of every dataset in an HDF5 file, by path.
inline std::map<std::string, std::string> dataset_bytes(const std::string& path) {
  detail::H5Handle file = detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  BOOST_TEST_REQUIRE(file.valid());
  std::map<std::string, std::string> out;
  H5Ovisit(
      file.get(), H5_INDEX_NAME, H5_ITER_INC,
      [](hid_t loc, const char* name, const H5O_info_t* info, void* data) -> herr_t {
        if (info->type != H5O_TYPE_DATASET) return 0;
        detail::H5Handle dset = detail::h5_dataset(H5Dopen2(loc, name, H5P_DEFAULT));
        detail::H5Handle type = detail::h5_type(H5Dget_type(dset.get()));
        detail::H5Handle space = detail::h5_space(H5Dget_space(dset.get()));
        const auto count = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space.get()));
        std::string bytes(count * H5Tget_size(type.get()), '\0');
        if (count > 0 && H5Dread(dset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data()) < 0) return -1;
        (*static_cast<std::map<std::string, std::string>*>(data))[name] = bytes;
        return 0;
      },
      &out);
  return out;
}

inline std::vector<hsize_t> dataset_dims(const std::string& path, const char* name) {
  detail::H5Handle file = detail::h5_file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
  detail::H5Handle dset = detail::h5_dataset(H5Dopen2(file.get(), name, H5P_DEFAULT));
  detail::H5Handle space = detail::h5_space(H5Dget_space(dset.get()));
  std::vector<hsize_t> dims(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space.get())));
  H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

inline bool message_contains(const std::exception& e, const std::string& part) {
  return std::string(e.what()).find(part) != std::string::npos;
}

}  // namespace bfs::test
