// HDF5 contextual-bandit logs (the layout is in logged_data.hpp). The header (arms, rewards,
// names, flags) is read and checked at open; X is read one column block at a time, in row strips, so memory holds
// the block and one strip, never all of X. The writer streams blocks of 64 columns the same way. HDF5 calls hold
// detail::hdf5_mutex() (the serial library is not thread-safe; the panel reader in hdf5_io.cpp holds the same one) and
// HDF5's own error printing is off: every failure is an InputError naming the file, the dataset and, for a bad value,
// the row. The hardened reading helpers are shared with hdf5_io.cpp (detail/h5_read.hpp).
#include <hdf5.h>

#include <algorithm>
#include <cmath>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "core/error.hpp"
#include "data/csv_lines.hpp"
#include "data/dataset.hpp"
#include "data/detail/atomic_write.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_read.hpp"
#include "data/detail/h5_write.hpp"
#include "data/logged_data.hpp"
#include "data/logged_data_detail.hpp"

namespace bfs {

namespace {

using Handle = detail::H5Handle;

using detail::Count;
using detail::h5_check;
using detail::h5_checked;
using detail::h5_dims_of;
using detail::h5_has_dataset;
using detail::h5_open_dataset;
using detail::h5_open_file;
using detail::h5_read_1d;
using detail::h5_read_strings;
using detail::h5_write_1d;

/// The specification's chunk shape: 65 536 rows × 64 columns (a block of 64 columns is whole chunks).
constexpr hsize_t kChunkRows = 65536;
constexpr hsize_t kChunkCols = 64;
/// A read strip holds at most this many values (16 MiB of floats) besides the block itself.
constexpr hsize_t kStripValues = hsize_t{1} << 22;
/// /category_labels is bounded before it is read: 2^40 labels is far beyond any real log.
constexpr hsize_t kMostCategoryLabels = hsize_t{1} << 40;

/// Rows of /X read or written at once: a chunk's rows when /X is chunked, bounded by kStripValues.
hsize_t strip_rows(hid_t x, hsize_t count) {
  hsize_t rows = kChunkRows;
  const Handle dcpl(H5Dget_create_plist(x), H5Pclose);
  hsize_t chunk[2] = {0, 0};
  if (dcpl.get() >= 0 && H5Pget_layout(dcpl.get()) == H5D_CHUNKED && H5Pget_chunk(dcpl.get(), 2, chunk) == 2)
    rows = chunk[0];
  return std::max<hsize_t>(1, std::min(rows, kStripValues / std::max<hsize_t>(1, count)));
}

/// Selects rows [row, row + rows) × columns [first, first + count) of /X; returns the matching memory space.
Handle select_block(hid_t space, hsize_t row, hsize_t rows, hsize_t first, hsize_t count, const std::string& path) {
  const hsize_t start[2] = {row, first}, extent[2] = {rows, count};
  h5_check(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, extent, nullptr), path, "select a block of /X");
  return h5_checked(H5Screate_simple(2, extent, nullptr), H5Sclose, path, "create a memory dataspace");
}

class Hdf5LoggedSource final : public LoggedSource {
 public:
  Hdf5LoggedSource(std::string path, LoggedHeader header) : path_(std::move(path)), header_(std::move(header)) {}
  const LoggedHeader& header() const override { return header_; }
  std::vector<float> columns(Index first, Index count) const override;

 private:
  std::string path_;
  LoggedHeader header_;
};

std::vector<float> Hdf5LoggedSource::columns(Index first, Index count) const {
  BFS_CHECK(first >= 0 && count >= 0 && first + count <= header_.cols, "columns [", first, ", ", first + count, ") of ",
            header_.cols);
  const auto rows = static_cast<hsize_t>(header_.rows);
  std::vector<float> out(rows * static_cast<hsize_t>(count));
  if (count == 0) return out;
  {
    std::lock_guard lock(detail::hdf5_mutex());
    detail::silence_hdf5_errors();
    Handle file = h5_open_file(path_);
    Handle x = h5_open_dataset(file.get(), "X", path_);
    const auto dims = h5_dims_of(x.get(), "X", path_);
    if (dims.size() != 2 || dims[0] != rows || dims[1] != static_cast<hsize_t>(header_.cols))
      throw InputError(detail::concat(path_, ": /X changed shape since the file was opened"));
    Handle space = h5_checked(H5Dget_space(x.get()), H5Sclose, path_, "get the dataspace of /X");
    const auto width = static_cast<hsize_t>(count);
    const hsize_t strip = strip_rows(x.get(), width);
    std::vector<float> buffer(std::min(strip, rows) * width);
    for (hsize_t row = 0; row < rows; row += strip) {
      const hsize_t take = std::min(strip, rows - row);
      Handle mem = select_block(space.get(), row, take, static_cast<hsize_t>(first), width, path_);
      h5_check(H5Dread(x.get(), H5T_NATIVE_FLOAT, mem.get(), space.get(), H5P_DEFAULT, buffer.data()), path_,
               detail::concat("read rows [", row, ", ", row + take, ") of columns [", first, ", ", first + count,
                              ") of /X"));
      for (hsize_t r = 0; r < take; ++r)  // row-major strip → column-major block
        for (hsize_t c = 0; c < width; ++c) out[c * rows + row + r] = buffer[r * width + c];
    }
  }
  detail::check_logged_values(header_, out.data(), first, count);
  return out;
}

/// /categorical, /category_labels and /category_offsets (all optional).
void read_categories(hid_t f, const std::string& path, LoggedHeader& h) {
  const auto cols = static_cast<hsize_t>(h.cols);
  h.categorical.assign(cols, 0);
  h.category_labels.assign(cols, {});
  if (h5_has_dataset(f, "categorical")) {
    const auto flags = h5_read_1d<std::int32_t>(f, "categorical", H5T_NATIVE_INT32, path, Count::exactly, cols,
                                                detail::concat("/X has ", cols, " columns"));
    for (hsize_t j = 0; j < cols; ++j) {
      if (flags[j] != 0 && flags[j] != 1)
        throw InputError(detail::concat(path, ": /categorical[", j, "] is ", flags[j], ", not 0 or 1"));
      h.categorical[j] = static_cast<std::uint8_t>(flags[j]);
    }
  }
  const bool has_labels = h5_has_dataset(f, "category_labels"), has_offsets = h5_has_dataset(f, "category_offsets");
  if (has_labels != has_offsets) {
    throw InputError(detail::concat(path, ": /", has_labels ? "category_labels" : "category_offsets", " needs /",
                                    has_labels ? "category_offsets" : "category_labels", " beside it"));
  }
  if (!has_labels) return;
  const auto labels = h5_read_strings(f, "category_labels", path, Count::at_most, kMostCategoryLabels,
                                      "the most category labels a log may hold");
  const auto offsets = h5_read_1d<std::int64_t>(f, "category_offsets", H5T_NATIVE_INT64, path, Count::exactly, cols + 1,
                                                detail::concat("/X has ", cols, " columns (plus one expected)"));
  if (offsets[0] != 0 || offsets[cols] != static_cast<std::int64_t>(labels.size()))
    throw InputError(detail::concat(path, ": /category_offsets must run from 0 to ", labels.size(),
                                    " (the number of /category_labels)"));
  // Every offset first: a later one could point past /category_labels (found by fuzz_logged_hdf5).
  for (hsize_t j = 0; j < cols; ++j)
    if (offsets[j + 1] < offsets[j])
      throw InputError(detail::concat(path, ": /category_offsets decreases at column ", j));
  for (hsize_t j = 0; j < cols; ++j) {
    if (offsets[j + 1] > offsets[j] && h.categorical[j] == 0)
      throw InputError(detail::concat(path, ": column ", j, " ('", printable(h.feature_names[j]),
                                      "') has category labels but /categorical does not flag it"));
    h.category_labels[j].assign(labels.begin() + offsets[j], labels.begin() + offsets[j + 1]);
  }
}

/// /arm against /arm_labels (each code a label), the reward 0/1.
void read_arms_and_rewards(hid_t f, const std::string& path, LoggedHeader& h) {
  const auto rows = static_cast<hsize_t>(h.rows);
  const std::string row_count = detail::concat("/X has ", rows, " rows");
  h.arm = h5_read_1d<std::int32_t>(f, "arm", H5T_NATIVE_INT32, path, Count::exactly, rows, row_count);
  h.arm_labels = h5_read_strings(f, "arm_labels", path, Count::at_most, rows,  // more labels than rows is corrupt
                                 "every arm needs a row of /X");
  const auto k = static_cast<std::int32_t>(h.arm_labels.size());
  std::unordered_set<std::string> distinct;
  for (const auto& label : h.arm_labels) {
    if (!distinct.insert(label).second)
      throw InputError(detail::concat(path, ": /arm_labels holds '", printable(label), "' twice"));
  }
  for (hsize_t i = 0; i < rows; ++i) {
    if (h.arm[i] < 0 || h.arm[i] >= k) {
      throw InputError(detail::concat(path, ": /arm row ", i, " is ", h.arm[i], ", outside /arm_labels (", k,
                                      " labels: codes 0 to ", k - 1, ")"));
    }
  }
  const auto reward = h5_read_1d<double>(f, "reward", H5T_NATIVE_DOUBLE, path, Count::exactly, rows, row_count);
  h.reward = rewards_of(reward, path, "/reward");
}

/// data.arms given: the arms in its order. Every arm with rows must be in it, and every arm in it must have rows;
/// a label of /arm_labels without rows and not in data.arms is dropped.
void reorder_arms(const std::string& path, const std::vector<std::string>& arms, LoggedHeader& h) {
  if (arms.empty()) return;
  std::unordered_set<std::string> seen;
  for (const auto& label : arms) {
    if (!seen.insert(label).second)
      throw InputError(detail::concat(path, ": data.arms lists '", printable(label), "' twice"));
  }
  std::vector<std::int64_t> first_row(h.arm_labels.size(), -1);
  for (std::size_t i = 0; i < h.arm.size(); ++i) {
    auto& first = first_row[static_cast<std::size_t>(h.arm[i])];
    if (first < 0) first = static_cast<std::int64_t>(i);
  }
  std::vector<std::int32_t> remap(h.arm_labels.size(), -1);
  for (std::size_t a = 0; a < h.arm_labels.size(); ++a) {
    const auto at = std::find(arms.begin(), arms.end(), h.arm_labels[a]);
    if (at == arms.end() && first_row[a] >= 0) {
      throw InputError(detail::concat(path, ": /arm row ", first_row[a], ": arm '", printable(h.arm_labels[a]),
                                      "' is not in data.arms (", detail::join_labels(arms), ")"));
    }
    if (at != arms.end()) remap[a] = static_cast<std::int32_t>(at - arms.begin());
  }
  for (const auto& label : arms) {
    const auto at = std::find(h.arm_labels.begin(), h.arm_labels.end(), label);
    if (at == h.arm_labels.end() || first_row[static_cast<std::size_t>(at - h.arm_labels.begin())] < 0)
      throw InputError(
          detail::concat(path, ": arm '", printable(label), "' is declared in data.arms but has no rows in /arm"));
  }
  for (auto& a : h.arm) a = remap[static_cast<std::size_t>(a)];
  h.arm_labels = arms;
}

LoggedHeader read_header(const std::string& path, const std::vector<std::string>& arms) {
  Handle file = h5_open_file(path);
  const hid_t f = file.get();
  LoggedHeader h;
  h.origin = path;
  {
    Handle x = h5_open_dataset(f, "X", path);
    const auto dims = h5_dims_of(x.get(), "X", path);
    if (dims.size() != 2)
      throw InputError(detail::concat(path, ": /X must be 2-D but has ", dims.size(), " dimensions"));
    detail::h5_require_numeric(H5Dget_type(x.get()), "X", path, false);
    if (dims[0] > (hsize_t{1} << 40) || dims[1] > (hsize_t{1} << 31))
      throw InputError(detail::concat(path, ": /X has an impossible shape ", dims[0], " x ", dims[1]));
    h.rows = static_cast<Index>(dims[0]);
    h.cols = static_cast<Index>(dims[1]);
  }
  if (h.cols == 0) throw InputError(detail::concat(path, ": p = 0 (/X has no feature columns)"));
  if (h.rows < 2) throw InputError(detail::concat(path, ": n = ", h.rows, " rows in /X; a log needs at least 2"));
  detail::h5_check_fits_in_memory(path, "arm", static_cast<hsize_t>(h.rows), 13.0);  // arm, reward as read and as kept
  const auto cols = static_cast<hsize_t>(h.cols);
  // Per column: a name, a categorical flag and a label list, before any is built.
  detail::h5_check_fits_in_memory(path, "X", cols, sizeof(std::string) + 8.0 + 1.0 + sizeof(std::vector<std::string>));
  if (h5_has_dataset(f, "feature_names")) {
    h.feature_names =
        h5_read_strings(f, "feature_names", path, Count::exactly, cols, detail::concat("/X has ", cols, " columns"));
  } else {
    h.feature_names = default_feature_names(h.cols);
  }
  read_arms_and_rewards(f, path, h);
  read_categories(f, path, h);
  if (h5_has_dataset(f, "truth")) {
    const auto truth = h5_read_1d<std::int32_t>(f, "truth", H5T_NATIVE_INT32, path, Count::at_most, cols,
                                                "at most one per column of /X");
    h.truth.assign(truth.begin(), truth.end());
    h.has_truth = true;
  }
  const auto correlational = detail::h5_read_int_attribute(f, "correlational", path, cols);
  h.correlational.assign(correlational.begin(), correlational.end());
  reorder_arms(path, arms, h);
  check_logged_header(h);
  return h;
}

/// /X [n, p] in chunks of min(65536, n) × min(64, p), written from blocks of 64 columns in strips of chunk rows.
void write_x(hid_t f, const std::string& path, const LoggedSource& source) {
  const LoggedHeader& h = source.header();
  const auto rows = static_cast<hsize_t>(h.rows), cols = static_cast<hsize_t>(h.cols);
  const hsize_t dims[2] = {rows, cols};
  const hsize_t chunk[2] = {std::min(kChunkRows, rows), std::min(kChunkCols, cols)};
  Handle space = h5_checked(H5Screate_simple(2, dims, nullptr), H5Sclose, path, "create a dataspace");
  Handle dcpl = h5_checked(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, path, "create a property list");
  h5_check(H5Pset_chunk(dcpl.get(), 2, chunk), path, "set the chunk shape of /X");
  Handle x = h5_checked(H5Dcreate2(f, "X", H5T_IEEE_F32LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT), H5Dclose,
                        path, "create /X");
  std::vector<float> strip;
  for (hsize_t first = 0; first < cols; first += kChunkCols) {
    const hsize_t width = std::min(kChunkCols, cols - first);
    const std::vector<float> block = source.columns(static_cast<Index>(first), static_cast<Index>(width));
    BFS_CHECK(block.size() == rows * width, "columns() returned ", block.size(), " values");
    strip.resize(chunk[0] * width);
    for (hsize_t row = 0; row < rows; row += chunk[0]) {
      const hsize_t take = std::min(chunk[0], rows - row);
      for (hsize_t r = 0; r < take; ++r)  // column-major block → row-major strip
        for (hsize_t c = 0; c < width; ++c) strip[r * width + c] = block[c * rows + row + r];
      Handle mem = select_block(space.get(), row, take, first, width, path);
      h5_check(H5Dwrite(x.get(), H5T_NATIVE_FLOAT, mem.get(), space.get(), H5P_DEFAULT, strip.data()), path,
               detail::concat("write columns [", first, ", ", first + width, ") of /X"));
    }
  }
}

void write_categories(hid_t f, const std::string& path, const LoggedHeader& h) {
  if (std::none_of(h.categorical.begin(), h.categorical.end(), [](std::uint8_t c) { return c != 0; })) return;
  const std::vector<std::int32_t> flags(h.categorical.begin(), h.categorical.end());
  h5_write_1d(f, "categorical", H5T_STD_I32LE, H5T_NATIVE_INT32, flags, path);
  std::vector<std::string> labels;
  std::vector<std::int64_t> offsets{0};
  for (const auto& column : h.category_labels) {
    labels.insert(labels.end(), column.begin(), column.end());
    offsets.push_back(static_cast<std::int64_t>(labels.size()));
  }
  if (labels.empty()) return;
  detail::h5_write_strings(f, "category_labels", labels, path);
  h5_write_1d(f, "category_offsets", H5T_STD_I64LE, H5T_NATIVE_INT64, offsets, path);
}

void write_correlational(hid_t f, const std::string& path, const std::vector<FeatureId>& features) {
  if (features.empty()) return;
  const std::vector<std::int32_t> values(features.begin(), features.end());
  const hsize_t count = values.size();
  Handle space = h5_checked(H5Screate_simple(1, &count, nullptr), H5Sclose, path, "create a dataspace");
  Handle attr = h5_checked(H5Acreate2(f, "correlational", H5T_STD_I32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                           H5Aclose, path, "create attribute correlational");
  h5_check(H5Awrite(attr.get(), H5T_NATIVE_INT32, values.data()), path, "write attribute correlational");
}

void write_file(const std::string& tmp, const std::string& path, const LoggedSource& source) {
  const LoggedHeader& h = source.header();
  check_logged_header(h);
  Handle file = h5_checked(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, path,
                           "create the file " + tmp);
  const hid_t f = file.get();
  write_x(f, path, source);
  h5_write_1d(f, "arm", H5T_STD_I32LE, H5T_NATIVE_INT32, h.arm, path);
  detail::h5_write_strings(f, "arm_labels", h.arm_labels, path);
  const std::vector<double> reward(h.reward.begin(), h.reward.end());
  h5_write_1d(f, "reward", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, reward, path);
  detail::h5_write_strings(f, "feature_names", h.feature_names, path);
  write_categories(f, path, h);
  if (h.has_truth) {
    const std::vector<std::int32_t> truth(h.truth.begin(), h.truth.end());
    h5_write_1d(f, "truth", H5T_STD_I32LE, H5T_NATIVE_INT32, truth, path);
  }
  write_correlational(f, path, h.correlational);
  h5_check(H5Fflush(f, H5F_SCOPE_GLOBAL), path, "flush the file");
  h5_check(file.close(), path, "close the file");
}

}  // namespace

std::unique_ptr<LoggedSource> open_logged_hdf5(const std::string& path, const std::vector<std::string>& arms) {
  std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
  LoggedHeader header = read_header(path, arms);
  return std::make_unique<Hdf5LoggedSource>(path, std::move(header));
}

void write_logged_hdf5(const std::string& path, const LoggedSource& source) {
  std::lock_guard lock(detail::hdf5_mutex());
  detail::silence_hdf5_errors();
  detail::atomic_write(path, [&](const std::string& tmp) { write_file(tmp, path, source); });
}

}  // namespace bfs
