// The HDF5 input schema (docs/design.md §4), through the HDF5 C API. HDF5's own error printing is silenced and every
// failure becomes an InputError naming the file and dataset (the hardened reading helpers are shared with the log
// reader in detail/h5_read.hpp). Handles are owned by a small RAII wrapper so an exception never leaks an open file.
// The serial HDF5 library is not thread-safe: all calls here hold detail::hdf5_mutex().
#include "data/hdf5_io.hpp"

#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <mutex>

#include "core/error.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_read.hpp"
#include "data/detail/h5_write.hpp"
#include "data/detail/hdf5_categorical.hpp"

namespace bfs {

namespace {

using Handle = detail::H5Handle;

using detail::Count;
using detail::h5_check;
using detail::h5_check_fits_in_memory;
using detail::h5_checked;
using detail::h5_dims_of;
using detail::h5_has_dataset;
using detail::h5_length_1d;
using detail::h5_open_dataset;
using detail::h5_open_file;
using detail::h5_read_1d;
using detail::h5_require_numeric;
using detail::h5_write_1d;

/// With both /period and /period_offsets, each offsets period must hold one /period label and consecutive periods
/// different ones: otherwise the rows would be grouped one way online and described another way.
void check_period_agrees(const std::vector<std::int32_t>& period, const std::vector<std::int64_t>& offsets,
                         const std::string& path) {
  for (std::size_t k = 0; k + 1 < offsets.size(); ++k) {
    const auto begin = static_cast<std::size_t>(offsets[k]), end = static_cast<std::size_t>(offsets[k + 1]);
    for (std::size_t i = begin + 1; i < end; ++i) {
      if (period[i] != period[begin]) {
        throw InputError(detail::concat(path, ": /period and /period_offsets disagree: /period changes from ",
                                        period[begin], " to ", period[i], " at row ", i, ", inside period ", k,
                                        " of /period_offsets (rows ", begin, " to ", end - 1,
                                        "); make them describe the same periods, or leave one out"));
      }
    }
    if (k > 0 && period[begin] == period[begin - 1]) {
      throw InputError(detail::concat(path, ": /period and /period_offsets disagree: /period_offsets starts period ", k,
                                      " at row ", begin, " but /period is ", period[begin],
                                      " on both sides of it; make them describe the same periods, or leave one out"));
    }
  }
}

/// The shape of /X, checked against /y: both numeric, /X 2-D with at least one row and one column, /y one value a row.
void read_shape(hid_t f, const std::string& path, Hdf5Header& h) {
  {
    Handle x = h5_open_dataset(f, "X", path);
    auto dims = h5_dims_of(x.get(), "X", path);
    if (dims.size() != 2)
      throw InputError(detail::concat(path, ": /X must be 2-D but has ", dims.size(), " dimensions"));
    h5_require_numeric(H5Dget_type(x.get()), "X", path, false);
    const auto most = static_cast<hsize_t>(std::numeric_limits<Index>::max());
    if (dims[0] > most || dims[1] > most)
      throw InputError(detail::concat(path, ": /X has an impossible shape ", dims[0], " x ", dims[1]));
    h.rows = static_cast<Index>(dims[0]);
    h.cols = static_cast<Index>(dims[1]);
  }
  if (h.cols == 0) throw InputError(detail::concat(path, ": p = 0 (no feature columns)"));
  if (h.rows == 0) throw InputError(detail::concat(path, ": n = 0 (no rows)"));
  Handle y = h5_open_dataset(f, "y", path);
  h5_require_numeric(H5Dget_type(y.get()), "y", path, false);
  const auto ny = static_cast<Index>(h5_length_1d(y.get(), "y", path));
  if (ny != h.rows) throw InputError(detail::concat(path, ": /y has ", ny, " rows but /X has ", h.rows));
}

/// All of /y (header.rows values: call before any row is dropped).
std::vector<double> read_all_y(hid_t f, const std::string& path, Index rows) {
  h5_check_fits_in_memory(path, "y", static_cast<hsize_t>(rows), sizeof(double));
  std::vector<double> y(static_cast<std::size_t>(rows));
  Handle dset = h5_open_dataset(f, "y", path);
  if (h5_length_1d(dset.get(), "y", path) != static_cast<hsize_t>(rows)) {
    throw InputError(detail::concat(path, ": /y changed since its header was read"));
  }
  h5_check(H5Dread(dset.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, y.data()), path, "read /y");
  return y;
}

/// Drops the rows whose /y is NaN (h.dropped_rows, from the file's rows in h.rows): h.rows and the periods' offsets
/// then count the kept rows. A period (or the file) left without rows is an InputError naming it.
void drop_rows_without_target(hid_t f, const std::string& path, Hdf5Header& h) {
  const std::vector<double> y = read_all_y(f, path, h.rows);
  for (std::size_t i = 0; i < y.size(); ++i)
    if (std::isnan(y[i])) h.dropped_rows.push_back(static_cast<Index>(i));
  if (h.dropped_rows.empty()) return;
  const auto dropped_before = [&](std::int64_t row) {
    return static_cast<std::int64_t>(std::lower_bound(h.dropped_rows.begin(), h.dropped_rows.end(), row) -
                                     h.dropped_rows.begin());
  };
  if (static_cast<Index>(h.dropped_rows.size()) == h.rows) {
    throw InputError(detail::concat(path, ": no rows with a target: every one of the ", h.rows,
                                    " rows has NaN (a missing target) in /y"));
  }
  for (std::size_t k = 0; k + 1 < h.period_offsets.size(); ++k) {
    const std::int64_t begin = h.period_offsets[k], end = h.period_offsets[k + 1];
    if (dropped_before(end) - dropped_before(begin) == end - begin) {
      throw InputError(detail::concat(path, ": period ", h.period_labels[k], " (period ", k, ", rows ", begin, " to ",
                                      end - 1, ") has no rows with a target: /y is NaN in every one of its ",
                                      end - begin, " rows; fill in its targets or leave the period out of the file"));
    }
  }
  for (std::int64_t& offset : h.period_offsets) offset -= dropped_before(offset);
  h.rows -= static_cast<Index>(h.dropped_rows.size());
}

/// The file row of kept row `row` (Hdf5Header::dropped_rows): the j-th dropped row has d_j − j kept rows before it.
Index file_row(const Hdf5Header& h, Index row) {
  const auto& d = h.dropped_rows;
  std::size_t lo = 0, hi = d.size();  // the number of dropped rows j with d_j − j <= row (non-decreasing in j)
  while (lo < hi) {
    const std::size_t mid = (lo + hi) / 2;
    if (d[mid] - static_cast<Index>(mid) <= row)
      lo = mid + 1;
    else
      hi = mid;
  }
  return row + static_cast<Index>(lo);
}

/// /feature_names, one per column of /X, or x1..xp when the file has none.
void read_feature_names(hid_t f, const std::string& path, Hdf5Header& h) {
  if (h5_has_dataset(f, "feature_names")) {
    h.feature_names = detail::h5_read_strings(f, "feature_names", path, Count::exactly, static_cast<hsize_t>(h.cols),
                                              detail::concat("/X has ", h.cols, " columns"));
  } else {
    h5_check_fits_in_memory(path, "X", static_cast<hsize_t>(h.cols), sizeof(std::string) + 8.0);  // names x1..xp
    h.feature_names = default_feature_names(h.cols);
  }
}

/// /period, one label per row of /X, or empty when the file has none.
std::vector<std::int32_t> read_row_periods(hid_t f, const std::string& path, Index rows) {
  std::vector<std::int32_t> period;
  if (h5_has_dataset(f, "period")) {
    period = h5_read_1d<std::int32_t>(f, "period", H5T_NATIVE_INT32, path, Count::at_most, static_cast<hsize_t>(rows),
                                      "one per row of /X");
    if (static_cast<Index>(period.size()) != rows) {
      throw InputError(detail::concat(path, ": /period has ", period.size(), " rows but /X has ", rows));
    }
  }
  return period;
}

/// The periods' row offsets: /period_offsets (checked to cover the rows in increasing steps and to agree with /period
/// when both are given), else derived from the sorted /period labels, else none (the rows are not grouped).
void read_period_offsets(hid_t f, const std::string& path, const std::vector<std::int32_t>& period, Hdf5Header& h) {
  if (h5_has_dataset(f, "period_offsets")) {
    h.period_offsets =
        h5_read_1d<std::int64_t>(f, "period_offsets", H5T_NATIVE_INT64, path, Count::at_most,
                                 static_cast<hsize_t>(h.rows) + 1, "at most one per row of /X, plus one");
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
    if (!period.empty()) check_period_agrees(period, off, path);
  } else if (!period.empty()) {
    h.period_offsets = offsets_of_sorted_periods(period, path, "/period");  // only /period: from the sorted labels
  }
}

/// One label per period: /period_labels (checked against /period when both are given), else each period's /period
/// label, else the periods' indices 0, 1, ...
void read_period_labels(hid_t f, const std::string& path, const std::vector<std::int32_t>& period, Hdf5Header& h) {
  const std::size_t periods = h.period_offsets.size() - 1;
  if (h5_has_dataset(f, "period_labels")) {
    h.period_labels =
        h5_read_1d<std::int32_t>(f, "period_labels", H5T_NATIVE_INT32, path, Count::at_most, periods, "one per period");
    if (h.period_labels.size() != periods) {
      throw InputError(detail::concat(path, ": /period_labels has ", h.period_labels.size(), " entries but there are ",
                                      periods, " periods"));
    }
    for (std::size_t k = 0; k < periods && !period.empty(); ++k) {
      if (h.period_labels[k] != period[h.period_offsets[k]]) {
        throw InputError(detail::concat(path, ": /period and /period_labels disagree: period ", k, " is labelled ",
                                        h.period_labels[k], " but /period is ", period[h.period_offsets[k]],
                                        " on its rows; make them agree, or leave one out"));
      }
    }
  } else if (!period.empty()) {
    for (std::size_t k = 0; k < periods; ++k) h.period_labels.push_back(period[h.period_offsets[k]]);
  } else {
    for (std::size_t k = 0; k < periods; ++k) h.period_labels.push_back(static_cast<std::int32_t>(k));
  }
}

/// /truth, the indices of the truly relevant columns (simulated data), when the file has it.
void read_truth(hid_t f, const std::string& path, Hdf5Header& h) {
  if (!h5_has_dataset(f, "truth")) return;
  auto truth = h5_read_1d<std::int32_t>(f, "truth", H5T_NATIVE_INT32, path, Count::at_most,
                                        static_cast<hsize_t>(h.cols), "at most one per column of /X");
  h.truth.assign(truth.begin(), truth.end());
  check_truth(h.truth, h.cols, path + ": /truth");
  h.has_truth = true;
}

Hdf5Header read_header_locked(const std::string& path) {
  Handle file = h5_open_file(path);
  const hid_t f = file.get();
  Hdf5Header h;
  read_shape(f, path, h);
  read_feature_names(f, path, h);
  detail::read_hdf5_categories(f, path, h);
  const std::vector<std::int32_t> period = read_row_periods(f, path, h.rows);
  read_period_offsets(f, path, period, h);
  if (!h.period_offsets.empty()) read_period_labels(f, path, period, h);
  drop_rows_without_target(f, path, h);
  read_truth(f, path, h);
  return h;
}

/// The rows of a read slab whose /y is NaN (the header's dropped rows), their y set to a kept row's so that the
/// checks (run before they go, to name the file's rows) see only their X; InputError when the others are not `kept`
/// rows (the file changed since its header was read).
std::vector<std::uint8_t> take_rows_without_target(Dataset& data, Index kept, const std::string& path) {
  std::vector<std::uint8_t> dropped(static_cast<std::size_t>(data.y.size()), 0);
  double stand_in = 0.0;
  for (Index i = 0; i < data.y.size(); ++i) {
    if (std::isnan(data.y[i])) continue;
    stand_in = data.y[i];
    break;
  }
  Index nan_rows = 0;
  for (Index i = 0; i < data.y.size(); ++i) {
    if (!std::isnan(data.y[i])) continue;
    dropped[static_cast<std::size_t>(i)] = 1;
    data.y[i] = stand_in;
    ++nan_rows;
  }
  if (data.y.size() - nan_rows != kept)
    throw InputError(detail::concat(path, ": /y changed since its header was read"));
  return dropped;
}

/// Removes the slab's `dropped` rows, keeping the order of the others.
void compact_rows(Dataset& data, const std::vector<std::uint8_t>& dropped, Index kept) {
  Index out = 0;
  for (Index i = 0; i < data.y.size(); ++i) {
    if (dropped[static_cast<std::size_t>(i)]) continue;
    if (out != i) {
      data.X.row(out) = data.X.row(i);
      data.y[out] = data.y[i];
    }
    ++out;
  }
  data.X.conservativeResize(kept, data.X.cols());
  data.y.conservativeResize(kept);
}

Dataset read_rows_locked(const std::string& path, const Hdf5Header& header, Index first, Index count) {
  if (first < 0 || count < 0 || first + count > header.rows) {
    throw InputError(detail::concat(path, ": rows [", first, ", ", first + count, ") outside [0, ", header.rows, ")"));
  }
  h5_check_fits_in_memory(path, "X", static_cast<hsize_t>(count), 4.0 * static_cast<double>(header.cols) + 8.0);
  Dataset data;
  data.origin = path;
  data.feature_names = header.feature_names;
  data.truth = header.truth;
  data.has_truth = header.has_truth;
  if (count == 0) {
    data.X.resize(0, header.cols);
    return data;
  }
  // The file's rows from the first kept row to the last, the dropped ones among them removed after the checks
  // (whose messages name the file's rows).
  const Index file_first = file_row(header, first), file_count = file_row(header, first + count - 1) + 1 - file_first;
  data.X.resize(file_count, header.cols);
  data.y.resize(file_count);
  Handle file = h5_open_file(path);
  auto read_slab = [&](const char* name, int rank, hid_t memtype, void* buf) {
    Handle dset = h5_open_dataset(file.get(), name, path);
    Handle space = h5_checked(H5Dget_space(dset.get()), H5Sclose, path, std::string("get the dataspace of /") + name);
    const hsize_t start[2] = {static_cast<hsize_t>(file_first), 0};
    const hsize_t extent[2] = {static_cast<hsize_t>(file_count), static_cast<hsize_t>(header.cols)};
    h5_check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, extent, nullptr), path,
             std::string("select rows of /") + name);
    Handle mem = h5_checked(H5Screate_simple(rank, extent, nullptr), H5Sclose, path, "create a memory dataspace");
    h5_check(H5Dread(dset.get(), memtype, mem.get(), space.get(), H5P_DEFAULT, buf), path,
             detail::concat("read rows [", file_first, ", ", file_first + file_count, ") of /", name));
  };
  read_slab("X", 2, H5T_NATIVE_FLOAT, data.X.data());
  read_slab("y", 1, H5T_NATIVE_DOUBLE, data.y.data());
  std::vector<std::uint8_t> dropped;
  if (file_count != count) dropped = take_rows_without_target(data, count, path);
  check_finite(data, file_first);
  detail::check_hdf5_codes(data.X, header, path, file_first);
  if (!dropped.empty()) compact_rows(data, dropped, count);
  return data;
}

Hdf5Coding code_columns_locked(const std::string& path, const Hdf5Header& header, const TableRules& rules,
                               const Matrix* raw) {
  detail::Hdf5CodeCounter counter(header);
  if (raw != nullptr) {
    counter.add(*raw);
  } else {
    // Blocks of about 64 MiB: the file is read once, whatever its size, with bounded memory.
    const Index block = std::max<Index>(1, (Index{64} << 20) / (4 * header.cols));
    for (Index first = 0; first < header.rows; first += block)
      counter.add(read_rows_locked(path, header, first, std::min(block, header.rows - first)).X);
  }
  return counter.codings(header, rules, path);
}

void write_file(const Dataset& data, const std::string& path, const std::string& target) {
  Handle file = h5_checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, target,
                           "create the file " + path);
  const hid_t f = file.get();
  const detail::RawTable table =
      data.layout.one_column_each() ? detail::RawTable{} : detail::raw_table_of(data);  // codes of the levels
  const Matrix& X = data.layout.one_column_each() ? data.X : table.X;
  const hsize_t n = static_cast<hsize_t>(data.rows()), p = static_cast<hsize_t>(X.cols());
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
    h5_check(H5Dwrite(dset.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, X.data()), target, "write /X");
  }
  if (!data.layout.one_column_each()) {
    h5_write_1d(f, "categorical", H5T_STD_I32LE, H5T_NATIVE_INT32, table.categorical, target);
    detail::h5_write_strings(f, "category_labels", table.labels, target);
    h5_write_1d(f, "category_offsets", H5T_STD_I64LE, H5T_NATIVE_INT64, table.offsets, target);
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

bool Hdf5Header::has_categorical() const {
  return std::any_of(categorical.begin(), categorical.end(), [](std::uint8_t c) { return c != 0; });
}

Hdf5Header read_hdf5_header(const std::string& path) {
  std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
  return read_header_locked(path);
}

Dataset read_hdf5_rows(const std::string& path, const Hdf5Header& header, Index first, Index count) {
  std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
  return read_rows_locked(path, header, first, count);
}

Hdf5Coding code_hdf5_columns(const std::string& path, const Hdf5Header& header, const TableRules& rules,
                             const Matrix* raw) {
  std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
  return code_columns_locked(path, header, rules, raw);
}

Vector read_hdf5_y(const std::string& path, const Hdf5Header& header) {
  std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
  Dataset data;  // only y is filled: check_finite then names the file and row exactly as a row read does
  data.origin = path;
  const auto file_rows = header.rows + static_cast<Index>(header.dropped_rows.size());
  Handle file = h5_open_file(path);
  const std::vector<double> y = read_all_y(file.get(), path, file_rows);
  data.y = Eigen::Map<const Vector>(y.data(), file_rows);
  data.X.resize(file_rows, 0);
  std::vector<std::uint8_t> dropped;
  if (!header.dropped_rows.empty()) dropped = take_rows_without_target(data, header.rows, path);
  check_finite(data);
  if (!dropped.empty()) compact_rows(data, dropped, header.rows);
  return std::move(data.y);
}

Dataset read_hdf5(const std::string& path, const TableRules& rules) {
  std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
  Hdf5Header header = read_header_locked(path);
  Dataset data = read_rows_locked(path, header, 0, header.rows);
  const Hdf5Coding coding = code_columns_locked(path, header, rules, &data.X);
  data.rows_without_target = static_cast<std::int64_t>(header.dropped_rows.size());
  if (rules.refuse_missing) {
    refuse_missing({data.rows_without_target}, {"/y"}, path);
    refuse_missing(coding.missing, data.feature_names, path);
  }
  data.missing = coding.missing;
  data.layout = layout_of(coding.codings);
  data.X = expand_columns(std::move(data.X), coding.codings, data.layout);
  data.period_offsets = header.period_offsets;
  data.period_labels = header.period_labels;
  validate_dataset(data);
  return data;
}

void write_hdf5(const Dataset& data, const std::string& path) {
  validate_dataset(data);
  std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
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
