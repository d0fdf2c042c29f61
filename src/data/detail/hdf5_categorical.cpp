// Categorical columns of the HDF5 input schema (see hdf5_categorical.hpp). The flags and labels are those of a
// bandit log's file (logged_data_hdf5.cpp), so one writer serves both; the levels follow data/categorical.hpp.
#include "data/detail/hdf5_categorical.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "data/csv_lines.hpp"
#include "data/detail/h5_read.hpp"

namespace bfs::detail {

namespace {

constexpr hsize_t kMostCategoryLabels = hsize_t{1} << 40;
/// Codes are stored in X as float: exact up to 2^24.
constexpr double kMostCodes = 16777216.0;

std::string number_text(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

}  // namespace

void read_hdf5_categories(hid_t f, const std::string& path, Hdf5Header& h) {
  const auto cols = static_cast<hsize_t>(h.cols);
  h.categorical.assign(cols, 0);
  h.category_labels.assign(cols, {});
  if (h5_has_dataset(f, "categorical")) {
    const auto flags = h5_read_1d<std::int32_t>(f, "categorical", H5T_NATIVE_INT32, path, Count::exactly, cols,
                                                concat("/X has ", cols, " columns"));
    for (hsize_t j = 0; j < cols; ++j) {
      if (flags[j] != 0 && flags[j] != 1)
        throw InputError(concat(path, ": /categorical[", j, "] is ", flags[j], ", not 0 or 1"));
      h.categorical[j] = static_cast<std::uint8_t>(flags[j]);
    }
  }
  const bool has_labels = h5_has_dataset(f, "category_labels"), has_offsets = h5_has_dataset(f, "category_offsets");
  if (has_labels != has_offsets) {
    throw InputError(concat(path, ": /", has_labels ? "category_labels" : "category_offsets", " needs /",
                            has_labels ? "category_offsets" : "category_labels", " beside it"));
  }
  if (!has_labels) return;
  const auto labels = h5_read_strings(f, "category_labels", path, Count::at_most, kMostCategoryLabels,
                                      "the most category labels a file may hold");
  const auto offsets = h5_read_1d<std::int64_t>(f, "category_offsets", H5T_NATIVE_INT64, path, Count::exactly, cols + 1,
                                                concat("/X has ", cols, " columns (plus one expected)"));
  if (offsets[0] != 0 || offsets[cols] != static_cast<std::int64_t>(labels.size()))
    throw InputError(
        concat(path, ": /category_offsets must run from 0 to ", labels.size(), " (the number of /category_labels)"));
  for (hsize_t j = 0; j < cols; ++j)  // every offset first: a later one could point past /category_labels
    if (offsets[j + 1] < offsets[j]) throw InputError(concat(path, ": /category_offsets decreases at column ", j));
  for (hsize_t j = 0; j < cols; ++j) {
    if (offsets[j + 1] > offsets[j] && h.categorical[j] == 0)
      throw InputError(concat(path, ": column ", j, " ('", printable(h.feature_names[j]),
                              "') has category labels but /categorical does not flag it"));
    h.category_labels[j].assign(labels.begin() + offsets[j], labels.begin() + offsets[j + 1]);
  }
}

void check_hdf5_codes(const Matrix& raw, const Hdf5Header& header, const std::string& path, Index first_row) {
  if (!header.has_categorical()) return;
  const Index n = raw.rows(), p = raw.cols();
  for (Index j = 0; j < p; ++j) {
    const auto c = static_cast<std::size_t>(j);
    if (header.categorical[c] == 0) continue;
    const std::size_t labels = header.category_labels[c].size();
    const double limit = labels > 0 ? static_cast<double>(labels) : kMostCodes;
    for (Index i = 0; i < n; ++i) {
      const float v = raw(i, j);
      if (std::isnan(v) || (v >= 0.0f && v < limit && v == std::floor(v))) continue;
      throw InputError(concat(path, ": /X has ", v, " at row ", first_row + i, ", column '",
                              printable(header.feature_names[c]), "', which /categorical flags: its values must be ",
                              "codes 0 to ", static_cast<std::int64_t>(limit) - 1, " (NaN = missing)"));
    }
  }
}

Hdf5CodeCounter::Hdf5CodeCounter(const Hdf5Header& header)
    : categorical_(header.categorical),
      counts_(static_cast<std::size_t>(header.cols)),
      missing_(static_cast<std::size_t>(header.cols), 0) {}

void Hdf5CodeCounter::add(const Matrix& raw) {
  const Index n = raw.rows(), p = raw.cols();
  for (Index i = 0; i < n; ++i) {
    const float* row = raw.data() + i * p;
    for (Index j = 0; j < p; ++j) {
      const auto c = static_cast<std::size_t>(j);
      if (std::isnan(row[j])) {
        ++missing_[c];
      } else if (categorical_[c] != 0) {
        const auto code = static_cast<std::size_t>(row[j]);
        if (code >= counts_[c].size()) counts_[c].resize(code + 1, 0);
        ++counts_[c][code];
      }
    }
  }
  rows_ += n;
}

Hdf5Coding Hdf5CodeCounter::codings(const Hdf5Header& header, const TableRules& rules, const std::string& path) const {
  Hdf5Coding out;
  out.missing = missing_;
  out.codings.resize(static_cast<std::size_t>(header.cols));
  for (std::size_t c = 0; c < out.codings.size(); ++c) {
    if (missing_[c] == rows_) {
      throw InputError(concat(path, ": column '", printable(header.feature_names[c]), "' is empty: all of its ", rows_,
                              " values are missing"));
    }
    if (header.categorical[c] == 0) continue;
    std::vector<std::string> labels = header.category_labels[c];
    std::vector<std::int64_t> counts = counts_[c];
    if (labels.empty())
      for (std::size_t code = 0; code < counts.size(); ++code) labels.push_back(number_text(static_cast<double>(code)));
    counts.resize(labels.size(), 0);
    out.codings[c] = code_levels(labels, counts, missing_[c], rules, path, header.feature_names[c]);
  }
  return out;
}

RawTable raw_table_of(const Dataset& data) {
  const FeatureLayout& layout = data.layout;
  const Index n = data.rows(), p = data.features();
  RawTable out;
  out.X.resize(n, p);
  out.offsets.push_back(0);
  for (Index f = 0; f < p; ++f) {
    const auto id = static_cast<FeatureId>(f);
    const Index begin = layout.column_begin(id), width = layout.column_end(id) - begin;
    const bool categorical = layout.is_categorical(id);
    out.categorical.push_back(categorical ? 1 : 0);
    std::int64_t missing_level = -1;
    if (categorical) {
      const auto& levels = layout.levels[static_cast<std::size_t>(f)];
      for (std::size_t l = 0; l < levels.size(); ++l) {
        if (levels[l] == "missing") missing_level = static_cast<std::int64_t>(l);
        out.labels.push_back(levels[l]);
      }
    }
    out.offsets.push_back(static_cast<std::int64_t>(out.labels.size()));
    for (Index i = 0; i < n; ++i) {
      if (!categorical) {
        out.X(i, f) = data.X(i, begin);
        continue;
      }
      Index level = 0;
      while (level + 1 < width && data.X(i, begin + level) == 0.0f) ++level;
      out.X(i, f) = level == missing_level ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(level);
    }
  }
  return out;
}

}  // namespace bfs::detail
