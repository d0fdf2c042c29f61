// Writes the small HDF5 seed files of tests/fuzz/corpus/hdf5/ (docs/fuzzing.md): the input schema of docs/design.md §4
// in the layouts, types and string forms the reader accepts, each file 1-3 KB (the files `banditfs simulate` writes are
// 12 KB, most of it a variable-length-string heap and padding, where mutations are wasted). Not part of the build; run
// once:
//   h5c++ -std=c++17 -O1 tests/fuzz/tools/make_hdf5_seeds.cpp -o /tmp/make_hdf5_seeds
//   /tmp/make_hdf5_seeds tests/fuzz/corpus/hdf5
#include <hdf5.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

enum class Layout { Compact, Contiguous, Chunked, ChunkedGzip };

struct Spec {
  const char* name;
  bool latest = true;  // latest file format (v2 superblock, compact headers) or the earliest
  Layout layout = Layout::Compact;
  hid_t x_type = H5T_IEEE_F32LE;
  hid_t y_type = H5T_IEEE_F64LE;
  int n = 4, p = 3;
  bool names = true, names_vlen = false, names_space_pad = false;
  bool truth = false;
  bool period = false, offsets = false, labels = false;
  bool extendible = false;  // unlimited max dims (as prepare-gkx's panel writer)
};

void check(herr_t status, const char* what) {
  if (status < 0) {
    std::fprintf(stderr, "failed: %s\n", what);
    std::exit(1);
  }
}

hid_t dcpl_for(Layout layout, int rank, const hsize_t* dims) {
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  if (layout == Layout::Compact) check(H5Pset_layout(dcpl, H5D_COMPACT), "compact");
  if (layout == Layout::Contiguous) check(H5Pset_layout(dcpl, H5D_CONTIGUOUS), "contiguous");
  if (layout == Layout::Chunked || layout == Layout::ChunkedGzip) {
    hsize_t chunk[2] = {dims[0] > 0 ? (dims[0] + 1) / 2 : 1, rank > 1 ? dims[1] : 1};
    check(H5Pset_chunk(dcpl, rank, chunk), "chunk");
    if (layout == Layout::ChunkedGzip) check(H5Pset_deflate(dcpl, 1), "deflate");
  }
  return dcpl;
}

template <class T>
void write(hid_t file, const char* name, hid_t file_type, hid_t mem_type, int rank, const hsize_t* dims,
           const std::vector<T>& values, Layout layout, bool extendible) {
  hsize_t max[2] = {extendible ? H5S_UNLIMITED : dims[0], rank > 1 ? dims[1] : 0};
  if (extendible && layout != Layout::ChunkedGzip) layout = Layout::Chunked;
  hid_t space = H5Screate_simple(rank, dims, max);
  hid_t dcpl = dcpl_for(layout, rank, dims);
  hid_t dset = H5Dcreate2(file, name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  check(dset, name);
  check(H5Dwrite(dset, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), name);
  H5Dclose(dset);
  H5Pclose(dcpl);
  H5Sclose(space);
}

void write_names(hid_t file, const Spec& s) {
  std::vector<std::string> names;
  for (int k = 0; k < s.p; ++k) names.push_back("x" + std::to_string(k + 1));
  const hsize_t dims[1] = {static_cast<hsize_t>(s.p)};
  hid_t space = H5Screate_simple(1, dims, nullptr);
  hid_t type = H5Tcopy(H5T_C_S1);
  if (s.names_vlen) {
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    std::vector<const char*> ptrs;
    for (const auto& n : names) ptrs.push_back(n.c_str());
    hid_t dset = H5Dcreate2(file, "feature_names", type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    check(H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), "names");
    H5Dclose(dset);
  } else {
    const std::size_t width = 4;
    H5Tset_size(type, width);
    H5Tset_strpad(type, s.names_space_pad ? H5T_STR_SPACEPAD : H5T_STR_NULLPAD);
    std::vector<char> buf(width * names.size(), s.names_space_pad ? ' ' : '\0');
    for (std::size_t k = 0; k < names.size(); ++k) std::memcpy(&buf[k * width], names[k].data(), names[k].size());
    hid_t dcpl = dcpl_for(Layout::Compact, 1, dims);
    hid_t dset = H5Dcreate2(file, "feature_names", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    check(H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), "names");
    H5Dclose(dset);
    H5Pclose(dcpl);
  }
  H5Tclose(type);
  H5Sclose(space);
}

void make(const std::string& dir, const Spec& s) {
  const std::string path = dir + "/" + s.name + ".h5";
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (s.latest) check(H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST), "libver");
  check(H5Pset_meta_block_size(fapl, 0), "meta block");
  check(H5Pset_small_data_block_size(fapl, 0), "small data block");
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  check(file, path.c_str());
  const hsize_t xdims[2] = {static_cast<hsize_t>(s.n), static_cast<hsize_t>(s.p)};
  std::vector<double> x(static_cast<std::size_t>(s.n * s.p)), y(static_cast<std::size_t>(s.n));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.25 * static_cast<double>(i % 7) - 0.5;
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = static_cast<double>(i % 2);
  write(file, "X", s.x_type, H5T_NATIVE_DOUBLE, 2, xdims, x, s.layout, s.extendible);
  write(file, "y", s.y_type, H5T_NATIVE_DOUBLE, 1, xdims, y, s.layout, s.extendible);
  if (s.names) write_names(file, s);
  if (s.truth) {
    const hsize_t dims[1] = {2};
    write(file, "truth", H5T_STD_I32LE, H5T_NATIVE_INT32, 1, dims, std::vector<int>{0, s.p - 1}, Layout::Compact,
          false);
  }
  const int half = s.n / 2;
  if (s.period) {
    std::vector<int> period(static_cast<std::size_t>(s.n));
    for (int i = 0; i < s.n; ++i) period[static_cast<std::size_t>(i)] = i < half ? 200001 : 200002;
    const hsize_t dims[1] = {static_cast<hsize_t>(s.n)};
    write(file, "period", H5T_STD_I32LE, H5T_NATIVE_INT32, 1, dims, period, s.layout, s.extendible);
  }
  if (s.offsets) {
    const hsize_t dims[1] = {3};
    write(file, "period_offsets", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, dims, std::vector<long long>{0, half, s.n},
          Layout::Compact, false);
  }
  if (s.labels) {
    const hsize_t dims[1] = {2};
    write(file, "period_labels", H5T_STD_I32LE, H5T_NATIVE_INT32, 1, dims, std::vector<int>{200001, 200002},
          Layout::Compact, false);
  }
  check(H5Fclose(file), "close");
  H5Pclose(fapl);
  std::printf("wrote %s\n", path.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  Spec s;
  s.name = "compact_latest";
  s.truth = true;
  make(dir, s);

  s = Spec{};
  s.name = "contiguous_earliest_vlen_names";
  s.latest = false;
  s.layout = Layout::Contiguous;
  s.names_vlen = true;
  make(dir, s);

  s = Spec{};
  s.name = "chunked_gzip_periods";
  s.layout = Layout::ChunkedGzip;
  s.n = 6;
  s.period = s.offsets = s.labels = true;
  make(dir, s);

  s = Spec{};
  s.name = "extendible_period_only";
  s.extendible = true;
  s.n = 5;
  s.period = true;
  make(dir, s);

  s = Spec{};
  s.name = "offsets_no_labels_space_pad";
  s.names_space_pad = true;
  s.n = 4;
  s.offsets = true;
  make(dir, s);

  s = Spec{};
  s.name = "integer_x_float32_y_no_names";
  s.x_type = H5T_STD_I16LE;
  s.y_type = H5T_IEEE_F32BE;
  s.names = false;
  make(dir, s);

  s = Spec{};
  s.name = "float64_x_earliest_chunked";
  s.latest = false;
  s.x_type = H5T_IEEE_F64LE;
  s.layout = Layout::Chunked;
  s.truth = true;
  make(dir, s);
  return 0;
}
