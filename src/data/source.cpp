// Data sources for the methods (docs/design.md §4): an in-memory data set and an HDF5 file read one period at a time,
// both with optional N(0,1) noise features appended on the fly.
//
// Noise entry (row, j) is drawn from its own stream (seed, period, row, Noise, j), so any block of rows gives the
// same values as the whole. Memory and HDF5 sources pass period 0 and the row's index in the full data set: a noise
// column is then a fixed column of the data, identical offline and online and whichever period reads the row.
#include "data/source.hpp"

#include <cmath>
#include <optional>
#include <unordered_set>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "data/hdf5_io.hpp"

namespace bfs {

std::string noise_feature_name(std::int64_t j) {
  std::string name = "noise";  // not "noise" + to_string(j): GCC 12 warns falsely on that (-Wrestrict)
  name += std::to_string(j);
  return name;
}

void append_noise_features(Dataset& data, std::int64_t count, std::uint64_t seed, int period, std::int64_t first_row) {
  if (count < 0) throw ConfigError(detail::concat("data.noise_features = ", count, " must be >= 0"));
  if (count == 0) return;
  const Index n = data.X.rows(), p = data.X.cols();
  Matrix X(n, p + count);
  X.leftCols(p) = data.X;
  // Every entry has its own stream, so rows can be filled in parallel with identical results (at the study's scale,
  // 5 000 × 5 000 draws a period, this is most of loading a period).
  // Entry (i, j) is Rng::stream(seed, period, row, Noise, j).normal(), its key derived in two halves: the row's part
  // once per row and the column's part once per column (Rng::stream_prefix), the same numbers at a third of the cost.
  std::vector<std::uint64_t> mixed_column(static_cast<std::size_t>(count));
  for (std::int64_t j = 0; j < count; ++j)
    mixed_column[static_cast<std::size_t>(j)] = Rng::mixed_feature(static_cast<std::uint64_t>(j));
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < n; ++i) {
    const std::uint64_t prefix = Rng::stream_prefix(seed, static_cast<std::uint64_t>(period),
                                                    static_cast<std::uint64_t>(first_row + i), Purpose::Noise);
    Rng::normals_from_prefix(prefix, mixed_column, X.data() + i * X.cols() + p);
  }
  data.X = std::move(X);
  for (std::int64_t j = 1; j <= count; ++j) data.feature_names.push_back(noise_feature_name(j));
  data.layout.append_numeric(p, count);
  if (!data.missing.empty()) data.missing.resize(data.missing.size() + static_cast<std::size_t>(count), 0);
}

namespace {

/// The data's names plus noise1..noiseN; InputError when a data column already has one of the noise names.
std::vector<std::string> with_noise_names(std::vector<std::string> names, std::int64_t count,
                                          const std::string& origin) {
  std::unordered_set<std::string> taken(names.begin(), names.end());
  for (std::int64_t j = 1; j <= count; ++j) {
    std::string name = noise_feature_name(j);
    if (taken.count(name) != 0) {
      throw InputError(detail::concat(origin, ": column '", name,
                                      "' clashes with the name of an appended noise feature"
                                      " (data.noise_features = ",
                                      count, ")"));
    }
    names.push_back(std::move(name));
  }
  return names;
}

void check_noise_count(std::int64_t count) {
  if (count < 0) throw ConfigError(detail::concat("data.noise_features = ", count, " must be >= 0"));
}

void check_period(int k, int periods, const std::string& what) {
  if (k < 0 || k >= periods) {
    throw InternalError(detail::concat(what, ": period ", k, " requested but there are ", periods));
  }
}

class MemorySource final : public DataSource {
 public:
  MemorySource(std::shared_ptr<const Dataset> data, bool online, std::int64_t noise, std::uint64_t seed,
               const LabelSpec& labels, const TableRules& rules)
      : data_(std::move(data)), y_(data_->y), online_(online), noise_(noise), seed_(seed) {
    check_noise_count(noise_);
    validate_dataset(*data_);  // first: NaN in y is reported as such, not as a class
    if (rules.refuse_missing) refuse_missing(data_->missing, data_->feature_names, data_->origin);
    map_labels(y_, labels, data_->origin);
    names_ = with_noise_names(data_->feature_names, noise_, data_->origin);
    layout_ = data_->layout;
    layout_.append_numeric(data_->cols(), noise_);
    if (!data_->missing.empty()) {
      missing_ = data_->missing;
      missing_.resize(missing_.size() + static_cast<std::size_t>(noise_), 0);
    }
  }
  int num_periods() const override { return online_ ? data_->num_periods() : 1; }
  Index num_features() const override { return data_->features() + noise_; }
  FeatureLayout layout() const override { return layout_; }
  std::vector<std::int64_t> missing() const override { return missing_; }
  std::int64_t rows_without_target() const override { return data_->rows_without_target; }
  const std::vector<std::string>& feature_names() const override { return names_; }
  const std::vector<FeatureId>& truth() const override { return data_->truth; }
  bool has_truth() const override { return data_->has_truth; }

  Dataset load_period(int k) override {
    check_period(k, num_periods(), describe());
    Index first = 0, count = data_->rows();
    if (online_ && !data_->period_offsets.empty()) {
      first = data_->period_offsets[k];
      count = data_->period_offsets[k + 1] - first;
    }
    Dataset out;
    out.X = data_->X.middleRows(first, count);
    out.y = y_.segment(first, count);
    out.feature_names = data_->feature_names;
    out.layout = data_->layout;
    if (count == data_->rows()) {  // every row: the data's own counts
      out.missing = data_->missing;
      out.rows_without_target = data_->rows_without_target;
    }
    out.truth = data_->truth;
    out.has_truth = data_->has_truth;
    out.origin = data_->origin;
    append_noise_features(out, noise_, seed_, 0, first);
    return out;
  }

  std::string describe() const override {
    const std::int64_t dropped = data_->rows_without_target;
    return detail::concat(data_->origin, " (", data_->rows(), " rows, ", data_->features(), " features",
                          noise_ > 0 ? detail::concat(" + ", noise_, " noise") : std::string(), ", ", num_periods(),
                          num_periods() == 1 ? " period" : " periods", ", in memory",
                          dropped > 0 ? detail::concat("; ", dropped, " rows without a target dropped") : std::string(),
                          ")");
  }

 private:
  std::shared_ptr<const Dataset> data_;  ///< shared, never changed: several runs may read one data set
  Vector y_;                             ///< data_->y, binary labels mapped to 0/1
  bool online_;
  std::int64_t noise_;
  std::uint64_t seed_;
  std::vector<std::string> names_;
  FeatureLayout layout_;               ///< the data's, noise features appended
  std::vector<std::int64_t> missing_;  ///< the data's counts, 0 for the noise features
};

/// An HDF5 file's columns and rows (those with a target: a row whose /y is NaN is dropped, as the CSV reader drops
/// it; the header maps the kept rows to the file's, so a period is still one read). Offline, the file is read whole at
/// open (its one period is every row), so its counts and codes are known before any output and the period costs no
/// second read. Online, a file with categorical columns is read once at open in blocks to fix their levels over every
/// row (a level first seen in a later period still has its column in every period); one without is read a period at a
/// time only.
class Hdf5Source final : public DataSource {
 public:
  Hdf5Source(std::string path, bool online, std::int64_t noise, std::uint64_t seed, const LabelSpec& labels,
             const TableRules& rules)
      : path_(std::move(path)),
        header_(read_hdf5_header(path_)),
        online_(online),
        noise_(noise),
        seed_(seed),
        rules_(rules) {
    check_noise_count(noise_);
    names_ = with_noise_names(header_.feature_names, noise_, path_);
    if (!online_) {
      whole_ = read_hdf5_rows(path_, header_, 0, header_.rows);
      coding_ = code_hdf5_columns(path_, header_, rules_, &whole_->X);
    } else if (header_.has_categorical()) {
      coding_ = code_hdf5_columns(path_, header_, rules_, nullptr);
    } else {
      coding_.codings.resize(static_cast<std::size_t>(header_.cols));
    }
    if (rules_.refuse_missing) {
      refuse_missing({rows_without_target()}, {"/y"}, path_);
      refuse_missing(coding_.missing, header_.feature_names, path_);
    }
    base_layout_ = layout_of(coding_.codings);
    layout_ = base_layout_;
    layout_.append_numeric(base_layout_.one_column_each() ? header_.cols : base_layout_.offsets.back(), noise_);
    if (!coding_.missing.empty()) coding_.missing.resize(coding_.missing.size() + static_cast<std::size_t>(noise_), 0);
    if (labels.task == Task::Binary) {
      // Over every row, not period by period: one mapping for all periods, and a third value in a late period fails
      // now rather than after results have been written.
      const Vector y = read_hdf5_y(path_, header_);
      labels_ = validate_binary_labels(std::span<const double>(y.data(), static_cast<std::size_t>(y.size())),
                                       labels.positive_label, path_);
    }
  }
  int num_periods() const override {
    return online_ && !header_.period_offsets.empty() ? static_cast<int>(header_.period_offsets.size()) - 1 : 1;
  }
  Index num_features() const override { return header_.cols + noise_; }
  const std::vector<std::string>& feature_names() const override { return names_; }
  const std::vector<FeatureId>& truth() const override { return header_.truth; }
  bool has_truth() const override { return header_.has_truth; }
  FeatureLayout layout() const override { return layout_; }
  std::vector<std::int64_t> missing() const override { return coding_.missing; }
  std::int64_t rows_without_target() const override { return static_cast<std::int64_t>(header_.dropped_rows.size()); }

  Dataset load_period(int k) override {
    check_period(k, num_periods(), describe());
    Index first = 0, count = header_.rows;
    if (online_ && !header_.period_offsets.empty()) {
      first = header_.period_offsets[k];
      count = header_.period_offsets[k + 1] - first;
    }
    Dataset out;
    if (whole_) {  // offline: the rows read at open, handed over once
      out = std::move(*whole_);
      whole_.reset();
    } else {
      out = read_hdf5_rows(path_, header_, first, count);
    }
    if (rules_.refuse_missing && coding_.missing.empty())
      refuse_missing(count_missing(out.X), header_.feature_names, detail::concat(path_, ", period ", k));
    if (labels_) apply_binary_labels(out.y, *labels_);
    out.layout = base_layout_;
    out.X = expand_columns(std::move(out.X), coding_.codings, out.layout);
    if (count == header_.rows) out.rows_without_target = rows_without_target();  // every row: the file's count
    if (!online_) out.missing.assign(coding_.missing.begin(), coding_.missing.end() - noise_);
    append_noise_features(out, noise_, seed_, 0, first);
    return out;
  }

  std::string describe() const override {
    return detail::concat(path_, " (", header_.rows, " rows, ", header_.cols, " features",
                          noise_ > 0 ? detail::concat(" + ", noise_, " noise") : std::string(), ", ", num_periods(),
                          num_periods() == 1 ? " period" : " periods", ", HDF5",
                          rows_without_target() > 0
                              ? detail::concat("; ", rows_without_target(), " rows without a target dropped")
                              : std::string(),
                          ")");
  }

 private:
  std::string path_;
  Hdf5Header header_;
  bool online_;
  std::int64_t noise_;
  std::uint64_t seed_;
  TableRules rules_;
  std::vector<std::string> names_;
  std::optional<BinaryLabels> labels_;  ///< set for a binary target
  std::optional<Dataset> whole_;        ///< offline: every row, read at open, until the period is loaded
  Hdf5Coding coding_;                   ///< the columns' codings; missing counts (noise included) when known
  FeatureLayout base_layout_;           ///< the file's columns
  FeatureLayout layout_;                ///< with the noise features
};

}  // namespace

std::unique_ptr<DataSource> make_memory_source(Dataset data, bool online, std::int64_t noise_features,
                                               std::uint64_t noise_seed, const LabelSpec& labels,
                                               const TableRules& rules) {
  return make_memory_source(std::make_shared<const Dataset>(std::move(data)), online, noise_features, noise_seed,
                            labels, rules);
}

std::unique_ptr<DataSource> make_memory_source(std::shared_ptr<const Dataset> data, bool online,
                                               std::int64_t noise_features, std::uint64_t noise_seed,
                                               const LabelSpec& labels, const TableRules& rules) {
  return std::make_unique<MemorySource>(std::move(data), online, noise_features, noise_seed, labels, rules);
}

std::unique_ptr<DataSource> make_hdf5_source(const std::string& path, bool online, std::int64_t noise_features,
                                             std::uint64_t noise_seed, const LabelSpec& labels,
                                             const TableRules& rules) {
  return std::make_unique<Hdf5Source>(path, online, noise_features, noise_seed, labels, rules);
}

}  // namespace bfs
