#pragma once
// The hardened HDF5 reading shared by the data readers (hdf5_io.cpp's panel reader and logged_data_hdf5.cpp's log
// reader), kept in one place so a check added after a fuzzing find protects both. Every failure is an InputError
// naming the file and dataset, and a corrupt file's shape, type or storage is refused before anything is allocated
// or read: libhdf5 1.10 over-reads a compact dataset shorter than its shape, divides by a 0-byte type and allocates
// whatever a dataset's storage claims (found by fuzz_hdf5, tests/fuzz/regressions/hdf5).
//
// The serial HDF5 library is not thread-safe: every HDF5 call of these readers (and of their writers) holds
// hdf5_mutex(), one recursive mutex for the whole process, with HDF5's own error printing silenced.
#include <hdf5.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_write.hpp"

namespace bfs::detail {

/// The one mutex every data-module HDF5 call holds (recursive: a locked reader may call another locked one).
std::recursive_mutex& hdf5_mutex();

/// Opens `path` read-only; a missing, non-HDF5 or unreadable file is an InputError saying which.
H5Handle h5_open_file(const std::string& path);

/// Refuses to allocate `count` entries of `bytes` each when they could not fit in this machine's memory: a corrupt
/// file's dataspace becomes an InputError naming the dataset and the GiB, not std::bad_alloc / std::length_error (or
/// a size that wraps round and a buffer HDF5 overruns).
void h5_check_fits_in_memory(const std::string& path, const std::string& name, hsize_t count, double bytes);

/// Refuses a dataset whose storage claims more bytes than its whole file, or (compact, contiguous or uncompressed
/// chunked) stores fewer bytes than its shape and type need. h5_open_dataset calls it.
void h5_check_stored_size(hid_t dset, const std::string& name, const std::string& path);

bool h5_has_dataset(hid_t file, const char* name);

/// Opens dataset /name (InputError when missing or unopenable) and checks its stored size.
H5Handle h5_open_dataset(hid_t file, const std::string& name, const std::string& path);

std::vector<hsize_t> h5_dims_of(hid_t dset, const std::string& name, const std::string& path);

/// 1-D dataset length; InputError when it is not 1-D.
hsize_t h5_length_1d(hid_t dset, const std::string& name, const std::string& path);

/// The type `type_id` (from H5Dget_type or H5Aget_type; closed here, negative when that failed) of /name must be an
/// integer (or, unless `integer_only`, a float) of 1 to 16 bytes.
void h5_require_numeric(hid_t type_id, const std::string& name, const std::string& path, bool integer_only);

/// How h5_read_1d and h5_read_strings bound a dataset's length, before anything is allocated.
enum class Count {
  at_most,  ///< at most `most` entries; more: "/name has n entries, more than most (why)"
  exactly,  ///< exactly `most` entries; other: "/name has n entries but why"
};

/// InputError when `n` entries of /name break the bound (`why` says where it comes from, e.g. "/X has 10 rows").
void h5_check_count(hsize_t n, const std::string& name, const std::string& path, Count count, hsize_t most,
                    const std::string& why);

/// Reads a 1-D numeric dataset within `count`/`most` (`why` as for h5_check_count): a longer one is refused before
/// anything is allocated, so a corrupt shape in a compressed dataset cannot claim memory either.
template <class T>
std::vector<T> h5_read_1d(hid_t file, const std::string& name, hid_t memtype, const std::string& path, Count count,
                          hsize_t most, const std::string& why) {
  H5Handle dset = h5_open_dataset(file, name, path);
  h5_require_numeric(H5Dget_type(dset.get()), name, path, std::is_integral_v<T>);
  const hsize_t n = h5_length_1d(dset.get(), name, path);
  h5_check_count(n, name, path, count, most, why);
  h5_check_fits_in_memory(path, name, n, sizeof(T));
  std::vector<T> out(n);
  if (!out.empty())
    h5_check(H5Dread(dset.get(), memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), path, "read /" + name);
  return out;
}

/// Reads a 1-D string dataset, fixed- or variable-length (space padding dropped), within `count`/`most`, checked
/// before any string is read.
std::vector<std::string> h5_read_strings(hid_t file, const std::string& name, const std::string& path, Count count,
                                         hsize_t most, const std::string& why);

/// An int32 list attribute of the file's root group (absent: empty), at most `most` entries.
std::vector<std::int32_t> h5_read_int_attribute(hid_t file, const char* name, const std::string& path, hsize_t most);

}  // namespace bfs::detail
