// The HDF5 input schema (DESIGN §5), through the HDF5 C API. HDF5's own error printing is silenced and every
// failure becomes an InputError naming the file and dataset. Handles are owned by a small RAII wrapper so an
// exception never leaks an open file. The serial HDF5 library is not thread-safe: all calls here hold one mutex.
#include "data/hdf5_io.hpp"

#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <mutex>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_write.hpp"

namespace bfs {

namespace {

using Handle = detail::H5Handle;

constexpr std::size_t kWidestNumberBytes = 16;  // a long double / 128-bit integer

std::recursive_mutex& hdf5_mutex() {
  static std::recursive_mutex m;
  return m;
}

void quiet() {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

using detail::h5_check;
using detail::h5_checked;
using detail::h5_write_1d;

Handle open_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw InputError(detail::concat("cannot open HDF5 file '", path, "': no such file"));
  }
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    throw InputError(detail::concat("cannot open HDF5 file '", path, "': not an HDF5 file"));
  }
  hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw InputError(detail::concat("cannot open HDF5 file '", path, "': unreadable"));
  return Handle(id, H5Fclose);
}

/// Refuses to allocate `count` elements of `bytes` each when they could not fit in this machine's memory: a corrupt
/// file's dataspace (found by fuzz_hdf5, tests/fuzz/regressions/hdf5) becomes an InputError naming the dataset and
/// the GiB, not std::bad_alloc / std::length_error (or a size that wraps round and a buffer HDF5 overruns).
void check_fits_in_memory(const std::string& path, const std::string& name, hsize_t count, double bytes) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  const double memory = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0x1p62;
  const double need = static_cast<double>(count) * bytes;
  if (need > memory) {
    throw InputError(detail::concat(path, ": /", name, " would need ", need / 0x1p30, " GiB of memory to read (", count,
                                    " entries), more than this machine's ", memory / 0x1p30, " GiB"));
  }
}

/// Bytes in the file holding `dset` (0 when HDF5 cannot say).
hsize_t file_bytes_of(hid_t dset) {
  const Handle file(H5Iget_file_id(dset), H5Fclose);
  hsize_t bytes = 0;
  if (file.get() < 0 || H5Fget_filesize(file.get(), &bytes) < 0) return 0;
  return bytes;
}

/// libhdf5 1.10 reads a compact dataset (data stored in its header) as its shape and type say, without checking that
/// many bytes are stored: a heap over-read on a corrupt file (found by fuzz_hdf5, tests/fuzz/regressions/hdf5). And a
/// corrupt shape (say 4·10⁹ entries in a 1 KiB file) would have us allocate gigabytes before the read fails. A compact
/// or contiguous dataset (neither can be compressed), or a chunked one without filters, storing fewer bytes than its
/// shape and type need is refused here, before anything is allocated. Compressed chunks may legitimately store far
/// less, so they are left to check_fits_in_memory. The other way round, a dataset whose storage claims more bytes than
/// its whole file (not kept in external files) is corrupt too: libhdf5 would allocate that claim to read one chunk
/// (H5D__chunk_lock, 4 GiB from a 12 KB file).
void check_stored_size(hid_t dset, const std::string& name, const std::string& path) {
  Handle dcpl = h5_checked(H5Dget_create_plist(dset), H5Pclose, path, "get the creation properties of /" + name);
  const hsize_t stored_bytes = H5Dget_storage_size(dset);
  const hsize_t file_bytes = file_bytes_of(dset);
  if (H5Pget_external_count(dcpl.get()) == 0 && file_bytes > 0 && stored_bytes > file_bytes) {
    throw InputError(detail::concat(path, ": /", name, " is corrupt: its storage claims ", stored_bytes,
                                    " bytes but the whole file has ", file_bytes));
  }
  const auto stored = static_cast<double>(stored_bytes);
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  const bool uncompressed_chunks = layout == H5D_CHUNKED && H5Pget_nfilters(dcpl.get()) == 0;
  if (layout != H5D_COMPACT && layout != H5D_CONTIGUOUS && !uncompressed_chunks) return;
  Handle type = h5_checked(H5Dget_type(dset), H5Tclose, path, "get the type of /" + name);
  Handle space = h5_checked(H5Dget_space(dset), H5Sclose, path, "get the dataspace of /" + name);
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  const double need = static_cast<double>(points) * static_cast<double>(H5Tget_size(type.get()));
  if (points < 0 || stored < need) {
    throw InputError(detail::concat(path, ": /", name, " is corrupt: its ",
                                    layout == H5D_COMPACT      ? "compact"
                                    : layout == H5D_CONTIGUOUS ? "contiguous"
                                                               : "uncompressed chunked",
                                    " storage holds ", stored, " bytes but its shape and type need ", need,
                                    " (a corrupt or partly written file)"));
  }
}

bool has_dataset(hid_t file, const char* name) {
  return H5Lexists(file, name, H5P_DEFAULT) > 0;
}

Handle open_dataset(hid_t file, const std::string& name, const std::string& path) {
  if (!has_dataset(file, name.c_str())) {
    throw InputError(detail::concat(path, ": dataset /", name, " is missing"));
  }
  hid_t id = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  if (id < 0) throw InputError(detail::concat(path, ": cannot open dataset /", name));
  Handle dset(id, H5Dclose);
  check_stored_size(dset.get(), name, path);
  return dset;
}

std::vector<hsize_t> dims_of(hid_t dset, const std::string& name, const std::string& path) {
  Handle space = h5_checked(H5Dget_space(dset), H5Sclose, path, "get the dataspace of /" + name);
  int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) throw InputError(detail::concat(path, ": /", name, " has no simple dataspace"));
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

/// 1-D dataset length; InputError when it is not 1-D.
hsize_t length_1d(hid_t dset, const std::string& name, const std::string& path) {
  auto dims = dims_of(dset, name, path);
  if (dims.size() != 1) {
    throw InputError(detail::concat(path, ": /", name, " must be 1-D but has ", dims.size(), " dimensions"));
  }
  return dims[0];
}

void require_numeric(hid_t dset, const std::string& name, const std::string& path, bool integer_only) {
  Handle type = h5_checked(H5Dget_type(dset), H5Tclose, path, "get the type of /" + name);
  H5T_class_t cls = H5Tget_class(type.get());
  bool ok = cls == H5T_INTEGER || (!integer_only && cls == H5T_FLOAT);
  if (!ok) {
    throw InputError(detail::concat(path, ": /", name, integer_only ? " must hold integers" : " must hold numbers"));
  }
  // A corrupt type message can say 0 bytes (libhdf5 then divides by it: SIGFPE in H5D__fill_init) or absurdly many;
  // no integer or float type HDF5 can convert is wider than 16 bytes.
  const std::size_t bytes = H5Tget_size(type.get());
  if (bytes == 0 || bytes > kWidestNumberBytes) {
    throw InputError(detail::concat(path, ": /", name, " is corrupt: its number type says ", bytes,
                                    " bytes per entry (1 to ", kWidestNumberBytes, " expected)"));
  }
}

/// Reads a 1-D numeric dataset of at most `most` entries (`why` says where the bound comes from): a longer one is
/// refused before anything is allocated, so a corrupt shape in a compressed dataset cannot claim memory either.
template <class T>
std::vector<T> read_1d(hid_t file, const std::string& name, hid_t memtype, const std::string& path, Index most,
                       const char* why) {
  Handle dset = open_dataset(file, name, path);
  require_numeric(dset.get(), name, path, std::is_integral_v<T>);
  const hsize_t n = length_1d(dset.get(), name, path);
  if (n > static_cast<hsize_t>(most)) {
    throw InputError(detail::concat(path, ": /", name, " has ", n, " entries, more than ", most, " (", why, ")"));
  }
  check_fits_in_memory(path, name, n, sizeof(T));
  std::vector<T> out(n);
  if (!out.empty())
    h5_check(H5Dread(dset.get(), memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), path, "read /" + name);
  return out;
}

/// Reads a 1-D string dataset, fixed- or variable-length, of `expected` entries (InputError otherwise, before any
/// string is read).
std::vector<std::string> read_strings(hid_t file, const std::string& name, const std::string& path, Index expected) {
  Handle dset = open_dataset(file, name, path);
  const hsize_t n = length_1d(dset.get(), name, path);
  if (n != static_cast<hsize_t>(expected)) {
    throw InputError(detail::concat(path, ": /", name, " has ", n, " entries but /X has ", expected, " columns"));
  }
  Handle ftype = h5_checked(H5Dget_type(dset.get()), H5Tclose, path, "get the type of /" + name);
  if (H5Tget_class(ftype.get()) != H5T_STRING)
    throw InputError(detail::concat(path, ": /", name, " must hold strings"));
  const std::size_t size = H5Tget_size(ftype.get());  // a fixed-length string's bytes (a pointer's if variable)
  check_fits_in_memory(path, name, n, static_cast<double>(sizeof(std::string) + std::max(size, sizeof(char*))));
  std::vector<std::string> out;
  out.reserve(n);
  if (n == 0) return out;
  Handle mtype = h5_checked(H5Tcopy(H5T_C_S1), H5Tclose, path, "copy a string type");
  H5Tset_cset(mtype.get(), H5Tget_cset(ftype.get()));
  if (H5Tis_variable_str(ftype.get()) > 0) {
    H5Tset_size(mtype.get(), H5T_VARIABLE);
    std::vector<char*> buf(n, nullptr);
    h5_check(H5Dread(dset.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), path, "read /" + name);
    for (char* s : buf) out.emplace_back(s != nullptr ? s : "");
    Handle space = h5_checked(H5Dget_space(dset.get()), H5Sclose, path, "get the dataspace of /" + name);
#if H5_VERSION_GE(1, 12, 0)
    H5Treclaim(mtype.get(), space.get(), H5P_DEFAULT, buf.data());
#else
    H5Dvlen_reclaim(mtype.get(), space.get(), H5P_DEFAULT, buf.data());
#endif
  } else {
    H5Tset_size(mtype.get(), size);
    H5Tset_strpad(mtype.get(), H5T_STR_NULLPAD);
    std::vector<char> buf(n * size);
    h5_check(H5Dread(dset.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), path, "read /" + name);
    for (hsize_t i = 0; i < n; ++i) {
      std::string s(buf.data() + i * size, size);
      s.resize(std::min(s.find('\0'), s.size()));
      while (!s.empty() && s.back() == ' ') s.pop_back();  // space-padded (Fortran-style) strings
      out.push_back(std::move(s));
    }
  }
  return out;
}

Hdf5Header read_header_locked(const std::string& path) {
  Handle file = open_file(path);
  const hid_t f = file.get();
  Hdf5Header h;
  {
    Handle x = open_dataset(f, "X", path);
    auto dims = dims_of(x.get(), "X", path);
    if (dims.size() != 2)
      throw InputError(detail::concat(path, ": /X must be 2-D but has ", dims.size(), " dimensions"));
    require_numeric(x.get(), "X", path, false);
    const auto most = static_cast<hsize_t>(std::numeric_limits<Index>::max());
    if (dims[0] > most || dims[1] > most)
      throw InputError(detail::concat(path, ": /X has an impossible shape ", dims[0], " x ", dims[1]));
    h.rows = static_cast<Index>(dims[0]);
    h.cols = static_cast<Index>(dims[1]);
  }
  if (h.cols == 0) throw InputError(detail::concat(path, ": p = 0 (no feature columns)"));
  if (h.rows == 0) throw InputError(detail::concat(path, ": n = 0 (no rows)"));
  {
    Handle y = open_dataset(f, "y", path);
    require_numeric(y.get(), "y", path, false);
    const auto ny = static_cast<Index>(length_1d(y.get(), "y", path));
    if (ny != h.rows) throw InputError(detail::concat(path, ": /y has ", ny, " rows but /X has ", h.rows));
  }
  if (has_dataset(f, "feature_names")) {
    h.feature_names = read_strings(f, "feature_names", path, h.cols);
  } else {
    check_fits_in_memory(path, "X", static_cast<hsize_t>(h.cols), sizeof(std::string) + 8.0);  // names x1..xp
    h.feature_names = default_feature_names(h.cols);
  }

  std::vector<std::int32_t> period;
  if (has_dataset(f, "period")) {
    period = read_1d<std::int32_t>(f, "period", H5T_NATIVE_INT32, path, h.rows, "one per row of /X");
    if (static_cast<Index>(period.size()) != h.rows) {
      throw InputError(detail::concat(path, ": /period has ", period.size(), " rows but /X has ", h.rows));
    }
  }
  if (has_dataset(f, "period_offsets")) {
    h.period_offsets = read_1d<std::int64_t>(f, "period_offsets", H5T_NATIVE_INT64, path, h.rows + 1,
                                             "at most one per row of /X, plus one");
    const auto& off = h.period_offsets;
    if (off.size() < 2) throw InputError(detail::concat(path, ": /period_offsets needs at least 2 entries"));
    if (off.front() != 0)
      throw InputError(detail::concat(path, ": /period_offsets must start at 0, not ", off.front()));
    for (std::size_t k = 1; k < off.size(); ++k) {
      if (off[k] <= off[k - 1]) {
        throw InputError(
            detail::concat(path, ": /period_offsets not increasing at entry ", k, " (", off[k - 1], ", ", off[k], ")"));
      }
    }
    if (off.back() != h.rows) {
      throw InputError(detail::concat(path, ": /period_offsets ends at ", off.back(), " but /X has ", h.rows, " rows"));
    }
  } else if (!period.empty()) {
    // Only /period: derive the offsets from the sorted labels.
    h.period_offsets.push_back(0);
    for (std::size_t i = 1; i < period.size(); ++i) {
      if (period[i] < period[i - 1]) throw InputError(detail::concat(path, ": /period is not sorted at row ", i));
      if (period[i] != period[i - 1]) h.period_offsets.push_back(static_cast<std::int64_t>(i));
    }
    h.period_offsets.push_back(h.rows);
  }
  if (!h.period_offsets.empty()) {
    const std::size_t periods = h.period_offsets.size() - 1;
    if (has_dataset(f, "period_labels")) {
      h.period_labels = read_1d<std::int32_t>(f, "period_labels", H5T_NATIVE_INT32, path, static_cast<Index>(periods),
                                              "one per period");
      if (h.period_labels.size() != periods) {
        throw InputError(detail::concat(path, ": /period_labels has ", h.period_labels.size(),
                                        " entries but there are ", periods, " periods"));
      }
    } else if (!period.empty()) {
      for (std::size_t k = 0; k < periods; ++k) h.period_labels.push_back(period[h.period_offsets[k]]);
    } else {
      for (std::size_t k = 0; k < periods; ++k) h.period_labels.push_back(static_cast<std::int32_t>(k));
    }
  }
  if (has_dataset(f, "truth")) {
    auto truth = read_1d<std::int32_t>(f, "truth", H5T_NATIVE_INT32, path, h.cols, "at most one per column of /X");
    for (std::int32_t t : truth) {
      if (t < 0 || t >= h.cols) {
        throw InputError(detail::concat(path, ": /truth index ", t, " out of range [0, ", h.cols, ")"));
      }
    }
    h.truth.assign(truth.begin(), truth.end());
    h.has_truth = true;
  }
  return h;
}

Dataset read_rows_locked(const std::string& path, const Hdf5Header& header, Index first, Index count) {
  if (first < 0 || count < 0 || first + count > header.rows) {
    throw InputError(detail::concat(path, ": rows [", first, ", ", first + count, ") outside [0, ", header.rows, ")"));
  }
  check_fits_in_memory(path, "X", static_cast<hsize_t>(count), 4.0 * static_cast<double>(header.cols) + 8.0);
  Dataset data;
  data.origin = path;
  data.feature_names = header.feature_names;
  data.truth = header.truth;
  data.has_truth = header.has_truth;
  data.X.resize(count, header.cols);
  data.y.resize(count);
  if (count == 0) return data;
  Handle file = open_file(path);
  auto read_slab = [&](const char* name, int rank, hid_t memtype, void* buf) {
    Handle dset = open_dataset(file.get(), name, path);
    Handle space = h5_checked(H5Dget_space(dset.get()), H5Sclose, path, std::string("get the dataspace of /") + name);
    const hsize_t start[2] = {static_cast<hsize_t>(first), 0};
    const hsize_t extent[2] = {static_cast<hsize_t>(count), static_cast<hsize_t>(header.cols)};
    h5_check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr), path,
             std::string("select rows of /") + name);
    Handle mem = h5_checked(H5Screate_simple(rank, extent, nullptr), H5Sclose, path, "create a memory dataspace");
    h5_check(H5Dread(dset.get(), memtype, mem.get(), space.get(), H5P_DEFAULT, buf), path,
             detail::concat("read rows [", first, ", ", first + count, ") of /", name));
  };
  read_slab("X", 2, H5T_NATIVE_FLOAT, data.X.data());
  read_slab("y", 1, H5T_NATIVE_DOUBLE, data.y.data());
  check_finite(data, first);
  return data;
}

void write_file(const Dataset& data, const std::string& path, const std::string& target) {
  Handle file = h5_checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, target,
                           "create the file " + path);
  const hid_t f = file.get();
  const hsize_t n = static_cast<hsize_t>(data.rows()), p = static_cast<hsize_t>(data.cols());
  {
    // Row chunks: up to 1024 rows, capped at ~4 MiB per chunk so a period read touches few, bounded chunks.
    const hsize_t cap_rows = std::max<hsize_t>(1, (hsize_t{4} << 20) / (p * sizeof(float)));
    const hsize_t chunk[2] = {std::min({n, hsize_t{1024}, cap_rows}), p};
    const hsize_t dims[2] = {n, p};
    Handle space = h5_checked(H5Screate_simple(2, dims, nullptr), H5Sclose, target, "create a dataspace");
    Handle dcpl = h5_checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, target, "create a property list");
    h5_check(H5Pset_chunk(dcpl.get(), 2, chunk), target, "set the chunk shape of /X");
    Handle dset = h5_checked(H5Dcreate2(f, "X", H5T_IEEE_F32LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
                             H5Dclose, target, "create /X");
    h5_check(H5Dwrite(dset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.X.data()), target, "write /X");
  }
  {
    std::vector<double> y(data.y.data(), data.y.data() + data.y.size());
    h5_write_1d(f, "y", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, y, target);
  }
  detail::h5_write_strings(f, "feature_names", data.feature_names, target);
  if (!data.period_offsets.empty()) {
    const std::size_t periods = data.period_offsets.size() - 1;
    std::vector<std::int32_t> labels = data.period_labels;
    if (labels.empty()) {
      for (std::size_t k = 0; k < periods; ++k) labels.push_back(static_cast<std::int32_t>(k));
    }
    std::vector<std::int32_t> period(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < periods; ++k) {
      std::fill(period.begin() + data.period_offsets[k], period.begin() + data.period_offsets[k + 1], labels[k]);
    }
    h5_write_1d(f, "period", H5T_STD_I32LE, H5T_NATIVE_INT32, period, target);
    h5_write_1d(f, "period_offsets", H5T_STD_I64LE, H5T_NATIVE_INT64, data.period_offsets, target);
    h5_write_1d(f, "period_labels", H5T_STD_I32LE, H5T_NATIVE_INT32, labels, target);
  }
  if (data.has_truth) {
    std::vector<std::int32_t> truth(data.truth.begin(), data.truth.end());
    h5_write_1d(f, "truth", H5T_STD_I32LE, H5T_NATIVE_INT32, truth, target);
  }
  h5_check(H5Fflush(f, H5F_SCOPE_GLOBAL), target, "flush the file");
}

}  // namespace

Hdf5Header read_hdf5_header(const std::string& path) {
  std::lock_guard lock(hdf5_mutex());
  quiet();
  return read_header_locked(path);
}

Dataset read_hdf5_rows(const std::string& path, const Hdf5Header& header, Index first, Index count) {
  std::lock_guard lock(hdf5_mutex());
  quiet();
  return read_rows_locked(path, header, first, count);
}

Vector read_hdf5_y(const std::string& path, const Hdf5Header& header) {
  std::lock_guard lock(hdf5_mutex());
  quiet();
  Dataset data;  // only y is filled: check_finite then names the file and row exactly as a row read does
  data.origin = path;
  check_fits_in_memory(path, "y", static_cast<hsize_t>(header.rows), sizeof(double));
  data.y.resize(header.rows);
  Handle file = open_file(path);
  Handle dset = open_dataset(file.get(), "y", path);
  if (length_1d(dset.get(), "y", path) != static_cast<hsize_t>(header.rows)) {
    throw InputError(detail::concat(path, ": /y changed since its header was read"));
  }
  if (header.rows > 0) {
    h5_check(H5Dread(dset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.y.data()), path, "read /y");
  }
  check_finite(data);
  return std::move(data.y);
}

Dataset read_hdf5(const std::string& path) {
  std::lock_guard lock(hdf5_mutex());
  quiet();
  Hdf5Header header = read_header_locked(path);
  Dataset data = read_rows_locked(path, header, 0, header.rows);
  data.period_offsets = header.period_offsets;
  data.period_labels = header.period_labels;
  validate_dataset(data);
  return data;
}

void write_hdf5(const Dataset& data, const std::string& path) {
  validate_dataset(data);
  std::lock_guard lock(hdf5_mutex());
  quiet();
  const std::string tmp = path + ".tmp";
  try {
    write_file(data, tmp, path);  // the file handle is closed when write_file returns
  } catch (...) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw;
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    const std::string reason = ec.message();
    std::filesystem::remove(tmp, ec);
    throw InputError(detail::concat("cannot write HDF5 file '", path, "': rename from ", tmp, " failed: ", reason));
  }
}

void disable_hdf5_exit_cleanup() {
  H5dont_atexit();
}

}  // namespace bfs
