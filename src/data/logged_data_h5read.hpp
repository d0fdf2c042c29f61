#pragma once
// Hardened HDF5 reading for the logged-data reader (logged_data_hdf5.cpp), after hdf5_io.cpp's: every failure is an
// InputError naming the file and dataset, and a corrupt file's shape or storage is refused before anything is
// allocated or read (libhdf5 1.10 over-reads a compact dataset shorter than its shape; found by fuzz_hdf5).
// hdf5_io.cpp keeps its own copies in an anonymous namespace; both could share one detail header.
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_write.hpp"

namespace bfs::detail::logged_h5 {

using Handle = H5Handle;

/// No integer or float type HDF5 converts is wider than 16 bytes (a long double / 128-bit integer).
constexpr std::size_t kWidestNumberBytes = 16;

inline Handle open_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw InputError(concat("cannot open HDF5 file '", path, "': no such file"));
  if (H5Fis_hdf5(path.c_str()) <= 0) throw InputError(concat("cannot open HDF5 file '", path, "': not an HDF5 file"));
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw InputError(concat("cannot open HDF5 file '", path, "': unreadable"));
  return Handle(id, H5Fclose);
}

/// `count` entries of `bytes` each must fit in this machine's memory (a corrupt shape is not std::bad_alloc).
inline void check_fits_in_memory(const std::string& path, const std::string& name, double count, double bytes) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  const double memory = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0x1p62;
  const double need = count * bytes;
  if (need > memory) {
    throw InputError(concat(path, ": /", name, " would need ", need / 0x1p30, " GiB of memory to read (", count,
                            " entries), more than this machine's ", memory / 0x1p30, " GiB"));
  }
}

/// A dataset whose storage claims more bytes than the file, or (uncompressed) fewer than its shape needs, is corrupt.
inline void check_stored_size(hid_t dset, const std::string& name, const std::string& path) {
  Handle dcpl = h5_checked(H5Dget_create_plist(dset), H5Pclose, path, "get the creation properties of /" + name);
  const hsize_t stored = H5Dget_storage_size(dset);
  hsize_t file_bytes = 0;
  {
    const Handle file(H5Iget_file_id(dset), H5Fclose);
    if (file.get() < 0 || H5Fget_filesize(file.get(), &file_bytes) < 0) file_bytes = 0;
  }
  if (H5Pget_external_count(dcpl.get()) == 0 && file_bytes > 0 && stored > file_bytes) {
    throw InputError(concat(path, ": /", name, " is corrupt: its storage claims ", stored,
                            " bytes but the whole file has ", file_bytes));
  }
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  const bool plain_chunks = layout == H5D_CHUNKED && H5Pget_nfilters(dcpl.get()) == 0;
  if (layout != H5D_COMPACT && layout != H5D_CONTIGUOUS && !plain_chunks) return;
  Handle type = h5_checked(H5Dget_type(dset), H5Tclose, path, "get the type of /" + name);
  Handle space = h5_checked(H5Dget_space(dset), H5Sclose, path, "get the dataspace of /" + name);
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  const double need = static_cast<double>(points) * static_cast<double>(H5Tget_size(type.get()));
  if (points < 0 || static_cast<double>(stored) < need) {
    throw InputError(concat(path, ": /", name, " is corrupt: its storage holds ", stored,
                            " bytes but its shape and type need ", need, " (a corrupt or partly written file)"));
  }
}

inline bool has_dataset(hid_t file, const char* name) {
  return H5Lexists(file, name, H5P_DEFAULT) > 0;
}

inline Handle open_dataset(hid_t file, const std::string& name, const std::string& path) {
  if (!has_dataset(file, name.c_str())) throw InputError(concat(path, ": dataset /", name, " is missing"));
  const hid_t id = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  if (id < 0) throw InputError(concat(path, ": cannot open dataset /", name));
  Handle dset(id, H5Dclose);
  check_stored_size(dset.get(), name, path);
  return dset;
}

inline std::vector<hsize_t> dims_of(hid_t dset, const std::string& name, const std::string& path) {
  Handle space = h5_checked(H5Dget_space(dset), H5Sclose, path, "get the dataspace of /" + name);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) throw InputError(concat(path, ": /", name, " has no simple dataspace"));
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

inline hsize_t length_1d(hid_t dset, const std::string& name, const std::string& path) {
  const auto dims = dims_of(dset, name, path);
  if (dims.size() != 1)
    throw InputError(concat(path, ": /", name, " must be 1-D but has ", dims.size(), " dimensions"));
  return dims[0];
}

/// The type of `object` (a dataset or attribute, `get_type` its getter) must be a number HDF5 can convert.
inline void require_numeric(hid_t type_id, const std::string& name, const std::string& path, bool integer_only) {
  Handle type = h5_checked(type_id, H5Tclose, path, "get the type of /" + name);
  const H5T_class_t cls = H5Tget_class(type.get());
  if (!(cls == H5T_INTEGER || (!integer_only && cls == H5T_FLOAT)))
    throw InputError(concat(path, ": /", name, integer_only ? " must hold integers" : " must hold numbers"));
  const std::size_t bytes = H5Tget_size(type.get());
  if (bytes == 0 || bytes > kWidestNumberBytes) {
    throw InputError(concat(path, ": /", name, " is corrupt: its number type says ", bytes, " bytes per entry (1 to ",
                            kWidestNumberBytes, " expected)"));
  }
}

/// A 1-D numeric dataset of at most `most` entries, exactly `most` when `exact` (`why` says where the bound comes
/// from, e.g. "/X has 10 rows"), checked before anything is allocated.
template <class T>
std::vector<T> read_1d(hid_t file, const std::string& name, hid_t memtype, const std::string& path, hsize_t most,
                       bool exact, const std::string& why) {
  Handle dset = open_dataset(file, name, path);
  require_numeric(H5Dget_type(dset.get()), name, path, std::is_integral_v<T>);
  const hsize_t n = length_1d(dset.get(), name, path);
  if (n > most || (exact && n != most)) throw InputError(concat(path, ": /", name, " has ", n, " entries but ", why));
  check_fits_in_memory(path, name, static_cast<double>(n), sizeof(T));
  std::vector<T> out(n);
  if (n > 0) h5_check(H5Dread(dset.get(), memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), path, "read /" + name);
  return out;
}

/// A 1-D string dataset (fixed- or variable-length) of at most `most` entries.
inline std::vector<std::string> read_strings(hid_t file, const std::string& name, const std::string& path,
                                             hsize_t most) {
  Handle dset = open_dataset(file, name, path);
  const hsize_t n = length_1d(dset.get(), name, path);
  if (n > most) throw InputError(concat(path, ": /", name, " has ", n, " entries, more than ", most));
  Handle ftype = h5_checked(H5Dget_type(dset.get()), H5Tclose, path, "get the type of /" + name);
  if (H5Tget_class(ftype.get()) != H5T_STRING) throw InputError(concat(path, ": /", name, " must hold strings"));
  const std::size_t size = H5Tget_size(ftype.get());
  check_fits_in_memory(path, name, static_cast<double>(n),
                       static_cast<double>(sizeof(std::string) + std::max(size, sizeof(char*))));
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

/// An int32 list attribute of the file's root group (absent: empty), at most `most` entries.
inline std::vector<std::int32_t> read_int_attribute(hid_t file, const char* name, const std::string& path,
                                                    hsize_t most) {
  if (H5Aexists(file, name) <= 0) return {};
  Handle attr = h5_checked(H5Aopen(file, name, H5P_DEFAULT), H5Aclose, path, concat("open attribute ", name));
  require_numeric(H5Aget_type(attr.get()), concat("@", name), path, true);
  Handle space = h5_checked(H5Aget_space(attr.get()), H5Sclose, path, concat("get the dataspace of @", name));
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (count < 0 || static_cast<hsize_t>(count) > most)
    throw InputError(concat(path, ": attribute ", name, " has ", count, " entries, more than ", most));
  std::vector<std::int32_t> out(static_cast<std::size_t>(count));
  if (count > 0) h5_check(H5Aread(attr.get(), H5T_NATIVE_INT32, out.data()), path, concat("read attribute ", name));
  return out;
}

}  // namespace bfs::detail::logged_h5
