// The hardened HDF5 reading shared by the data readers (see h5_read.hpp). The callers hold hdf5_mutex().
#include "data/detail/h5_read.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <vector>

namespace bfs::detail {

namespace {

/// No integer or float type HDF5 can convert is wider than 16 bytes (a long double / 128-bit integer).
constexpr std::size_t kWidestNumberBytes = 16;

/// Bytes in the file holding `dset` (0 when HDF5 cannot say).
hsize_t file_bytes_of(hid_t dset) {
  const H5Handle file(H5Iget_file_id(dset), H5Fclose);
  hsize_t bytes = 0;
  if (file.get() < 0 || H5Fget_filesize(file.get(), &bytes) < 0) return 0;
  return bytes;
}

/// A chunked dataset must have every chunk its shape covers written. A compressed one may store far fewer bytes than
/// its shape, so a corrupt shape (10⁸ columns in a 2 KB file, found by fuzz_logged_hdf5) passes the byte check; its
/// missing chunks would read as fill values, gigabytes of them. banditfs and h5py write every chunk of the data they
/// are given, so a chunk not written means a corrupt or partly written file.
void check_chunks_written(hid_t dset, hid_t dcpl, hid_t space, const std::string& name, const std::string& path) {
  const int rank = H5Sget_simple_extent_ndims(space);
  if (rank <= 0 || rank > H5S_MAX_RANK) return;
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank)), chunk(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  if (H5Pget_chunk(dcpl, rank, chunk.data()) != rank)
    throw InputError(concat(path, ": /", name, " has no chunk shape"));
  double expected = 1.0;
  for (int d = 0; d < rank; ++d) {
    const auto i = static_cast<std::size_t>(d);
    if (chunk[i] == 0) throw InputError(concat(path, ": /", name, " is corrupt: a chunk dimension is 0"));
    expected *= std::ceil(static_cast<double>(dims[i]) / static_cast<double>(chunk[i]));
  }
  hsize_t written = 0;
  if (H5Dget_num_chunks(dset, space, &written) < 0)
    throw InputError(concat(path, ": /", name, " is corrupt: its chunk index cannot be read"));
  if (static_cast<double>(written) < expected) {
    throw InputError(concat(path, ": /", name, " is corrupt: ", written, " of its ", expected,
                            " chunks are written (a corrupt or partly written file)"));
  }
}

/// Do a number type's bit fields lie inside its `bits`? A corrupt float type whose sign bit is bit 159 of a 32-bit
/// type (found by fuzz_logged_hdf5) makes libhdf5's soft conversion read neighbouring elements or memory past them:
/// values that change with the columns asked for.
bool bit_fields_fit(hid_t type, H5T_class_t cls, std::size_t bits) {
  const int offset = H5Tget_offset(type);
  const std::size_t precision = H5Tget_precision(type);
  if (offset < 0 || precision == 0 || static_cast<std::size_t>(offset) + precision > bits) return false;
  if (cls != H5T_FLOAT) return true;
  std::size_t spos = 0, epos = 0, esize = 0, mpos = 0, msize = 0;
  if (H5Tget_fields(type, &spos, &epos, &esize, &mpos, &msize) < 0) return false;
  return esize > 0 && msize > 0 && spos < bits && epos + esize <= bits && mpos + msize <= bits;
}

}  // namespace

std::recursive_mutex& hdf5_mutex() {
  static std::recursive_mutex m;
  return m;
}

H5Handle h5_open_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw InputError(concat("cannot open HDF5 file '", path, "': no such file"));
  }
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    throw InputError(concat("cannot open HDF5 file '", path, "': not an HDF5 file"));
  }
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw InputError(concat("cannot open HDF5 file '", path, "': unreadable"));
  return {id, H5Fclose};
}

void h5_check_fits_in_memory(const std::string& path, const std::string& name, hsize_t count, double bytes) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  const double memory = pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0x1p62;
  const double need = static_cast<double>(count) * bytes;
  if (need > memory) {
    throw InputError(concat(path, ": /", name, " would need ", need / 0x1p30, " GiB of memory to read (", count,
                            " entries), more than this machine's ", memory / 0x1p30, " GiB"));
  }
}

/// libhdf5 1.10 reads a compact dataset (data stored in its header) as its shape and type say, without checking that
/// many bytes are stored: a heap over-read on a corrupt file. And a corrupt shape (say 4·10⁹ entries in a 1 KiB file)
/// would have us allocate gigabytes before the read fails. A compact or contiguous dataset (neither can be
/// compressed), or a chunked one without filters, storing fewer bytes than its shape and type need is refused here,
/// before anything is allocated. Compressed chunks may legitimately store far less, so they are left to
/// h5_check_fits_in_memory. The other way round, a dataset whose storage claims more bytes than its whole file (not
/// kept in external files) is corrupt too: libhdf5 would allocate that claim to read one chunk (H5D__chunk_lock,
/// 4 GiB from a 12 KB file).
void h5_check_stored_size(hid_t dset, const std::string& name, const std::string& path) {
  H5Handle dcpl = h5_checked(H5Dget_create_plist(dset), H5Pclose, path, "get the creation properties of /" + name);
  const hsize_t stored_bytes = H5Dget_storage_size(dset);
  const hsize_t file_bytes = file_bytes_of(dset);
  if (H5Pget_external_count(dcpl.get()) == 0 && file_bytes > 0 && stored_bytes > file_bytes) {
    throw InputError(concat(path, ": /", name, " is corrupt: its storage claims ", stored_bytes,
                            " bytes but the whole file has ", file_bytes));
  }
  const auto stored = static_cast<double>(stored_bytes);
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  const bool uncompressed_chunks = layout == H5D_CHUNKED && H5Pget_nfilters(dcpl.get()) == 0;
  H5Handle space = h5_checked(H5Dget_space(dset), H5Sclose, path, "get the dataspace of /" + name);
  if (layout == H5D_CHUNKED && !uncompressed_chunks) check_chunks_written(dset, dcpl.get(), space.get(), name, path);
  if (layout != H5D_COMPACT && layout != H5D_CONTIGUOUS && !uncompressed_chunks) return;
  H5Handle type = h5_checked(H5Dget_type(dset), H5Tclose, path, "get the type of /" + name);
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  const double need = static_cast<double>(points) * static_cast<double>(H5Tget_size(type.get()));
  if (points < 0 || stored < need) {
    throw InputError(concat(path, ": /", name, " is corrupt: its ",
                            layout == H5D_COMPACT      ? "compact"
                            : layout == H5D_CONTIGUOUS ? "contiguous"
                                                       : "uncompressed chunked",
                            " storage holds ", stored, " bytes but its shape and type need ", need,
                            " (a corrupt or partly written file)"));
  }
  if (layout == H5D_CHUNKED) check_chunks_written(dset, dcpl.get(), space.get(), name, path);
}

bool h5_has_dataset(hid_t file, const char* name) {
  return H5Lexists(file, name, H5P_DEFAULT) > 0;
}

H5Handle h5_open_dataset(hid_t file, const std::string& name, const std::string& path) {
  if (!h5_has_dataset(file, name.c_str())) {
    throw InputError(concat(path, ": dataset /", name, " is missing"));
  }
  const hid_t id = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
  if (id < 0) throw InputError(concat(path, ": cannot open dataset /", name));
  H5Handle dset(id, H5Dclose);
  h5_check_stored_size(dset.get(), name, path);
  return dset;
}

std::vector<hsize_t> h5_dims_of(hid_t dset, const std::string& name, const std::string& path) {
  H5Handle space = h5_checked(H5Dget_space(dset), H5Sclose, path, "get the dataspace of /" + name);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) throw InputError(concat(path, ": /", name, " has no simple dataspace"));
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  return dims;
}

hsize_t h5_length_1d(hid_t dset, const std::string& name, const std::string& path) {
  const auto dims = h5_dims_of(dset, name, path);
  if (dims.size() != 1) {
    throw InputError(concat(path, ": /", name, " must be 1-D but has ", dims.size(), " dimensions"));
  }
  return dims[0];
}

void h5_require_numeric(hid_t type_id, const std::string& name, const std::string& path, bool integer_only) {
  H5Handle type = h5_checked(type_id, H5Tclose, path, "get the type of /" + name);
  const H5T_class_t cls = H5Tget_class(type.get());
  const bool ok = cls == H5T_INTEGER || (!integer_only && cls == H5T_FLOAT);
  if (!ok) {
    throw InputError(concat(path, ": /", name, integer_only ? " must hold integers" : " must hold numbers"));
  }
  // A corrupt type message can say 0 bytes (libhdf5 then divides by it: SIGFPE in H5D__fill_init) or absurdly many;
  // no integer or float type HDF5 can convert is wider than 16 bytes.
  const std::size_t bytes = H5Tget_size(type.get());
  if (bytes == 0 || bytes > kWidestNumberBytes) {
    throw InputError(concat(path, ": /", name, " is corrupt: its number type says ", bytes, " bytes per entry (1 to ",
                            kWidestNumberBytes, " expected)"));
  }
  if (!bit_fields_fit(type.get(), cls, 8 * bytes)) {
    throw InputError(
        concat(path, ": /", name, " is corrupt: its number type's bit fields lie outside its ", bytes, " bytes"));
  }
}

void h5_check_count(hsize_t n, const std::string& name, const std::string& path, Count count, hsize_t most,
                    const std::string& why) {
  if (count == Count::exactly && n != most) {
    throw InputError(concat(path, ": /", name, " has ", n, " entries but ", why));
  }
  if (count == Count::at_most && n > most) {
    throw InputError(concat(path, ": /", name, " has ", n, " entries, more than ", most, " (", why, ")"));
  }
}

std::vector<std::string> h5_read_strings(hid_t file, const std::string& name, const std::string& path, Count count,
                                         hsize_t most, const std::string& why) {
  H5Handle dset = h5_open_dataset(file, name, path);
  const hsize_t n = h5_length_1d(dset.get(), name, path);
  h5_check_count(n, name, path, count, most, why);
  H5Handle ftype = h5_checked(H5Dget_type(dset.get()), H5Tclose, path, "get the type of /" + name);
  if (H5Tget_class(ftype.get()) != H5T_STRING) throw InputError(concat(path, ": /", name, " must hold strings"));
  const std::size_t size = H5Tget_size(ftype.get());  // a fixed-length string's bytes (a pointer's if variable)
  h5_check_fits_in_memory(path, name, n, static_cast<double>(sizeof(std::string) + std::max(size, sizeof(char*))));
  std::vector<std::string> out;
  out.reserve(n);
  if (n == 0) return out;
  H5Handle mtype = h5_checked(H5Tcopy(H5T_C_S1), H5Tclose, path, "copy a string type");
  H5Tset_cset(mtype.get(), H5Tget_cset(ftype.get()));
  if (H5Tis_variable_str(ftype.get()) > 0) {
    H5Tset_size(mtype.get(), H5T_VARIABLE);
    std::vector<char*> buf(n, nullptr);
    h5_check(H5Dread(dset.get(), mtype.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), path, "read /" + name);
    for (char* s : buf) out.emplace_back(s != nullptr ? s : "");
    H5Handle space = h5_checked(H5Dget_space(dset.get()), H5Sclose, path, "get the dataspace of /" + name);
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

std::vector<std::int32_t> h5_read_int_attribute(hid_t file, const char* name, const std::string& path, hsize_t most) {
  if (H5Aexists(file, name) <= 0) return {};
  H5Handle attr = h5_checked(H5Aopen(file, name, H5P_DEFAULT), H5Aclose, path, concat("open attribute ", name));
  h5_require_numeric(H5Aget_type(attr.get()), concat("@", name), path, true);
  H5Handle space = h5_checked(H5Aget_space(attr.get()), H5Sclose, path, concat("get the dataspace of @", name));
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (count < 0 || static_cast<hsize_t>(count) > most) {
    throw InputError(concat(path, ": attribute ", name, " has ", count, " entries, more than ", most));
  }
  std::vector<std::int32_t> out(static_cast<std::size_t>(count));
  if (count > 0) h5_check(H5Aread(attr.get(), H5T_NATIVE_INT32, out.data()), path, concat("read attribute ", name));
  return out;
}

}  // namespace bfs::detail
