#pragma once
// Where a method gets its rows from. Offline runs see one period (the whole data set); online runs see the
// periods in order and never load a later period early. A panel source reads only the current period's rows.
#include <memory>
#include <string>
#include <vector>

#include "data/categorical.hpp"
#include "data/dataset.hpp"
#include "data/labels.hpp"

namespace bfs {

class DataSource {
 public:
  virtual ~DataSource() = default;
  virtual int num_periods() const = 0;
  /// p: the number of features, one per name; a categorical feature is one feature of several columns (layout()).
  virtual Index num_features() const = 0;
  virtual const std::vector<std::string>& feature_names() const = 0;
  virtual const std::vector<FeatureId>& truth() const = 0;
  virtual bool has_truth() const = 0;
  /// The columns of each feature, noise features included; empty (the default) = one column each.
  virtual FeatureLayout layout() const { return {}; }
  /// Missing cells per feature over every row (0 for noise features); empty (the default) = not counted: simulated
  /// data, and an online HDF5 panel without categorical columns, which is never read ahead of its periods.
  virtual std::vector<std::int64_t> missing() const { return {}; }
  /// Rows dropped by the reader because their target was missing.
  virtual std::int64_t rows_without_target() const { return 0; }
  /// The rows of period k (0-based) with all features, noise features appended. X, y, names and layout filled
  /// (missing and rows_without_target too when the period is every row); period_offsets empty.
  virtual Dataset load_period(int k) = 0;
  /// Human-readable description for logs and errors.
  virtual std::string describe() const = 0;
};

/// A data set already in memory. online: one period per entry of data.period_offsets (or one period if it has
/// none); offline: one period holding every row. A binary `labels` maps y (all rows) once, here (data/labels.hpp).
/// rules.refuse_missing: InputError for the first feature with a missing cell (data.missing = "error").
std::unique_ptr<DataSource> make_memory_source(Dataset data, bool online, std::int64_t noise_features,
                                               std::uint64_t noise_seed, const LabelSpec& labels = {},
                                               const TableRules& rules = {});
/// The same on a data set shared with its owner (the library API's in-memory data): read, never changed, so one data
/// set serves several runs without a copy; each period loaded is copied out of it as above.
std::unique_ptr<DataSource> make_memory_source(std::shared_ptr<const Dataset> data, bool online,
                                               std::int64_t noise_features, std::uint64_t noise_seed,
                                               const LabelSpec& labels = {}, const TableRules& rules = {});
/// An HDF5 file in our schema, read one period at a time (hyperslab of the period's rows) when online. A binary
/// `labels` reads all of /y once at open, validates it, and maps y of every loaded period the same way. Categorical
/// columns (/categorical) get their levels from every row at open, so every period expands them alike; offline, the
/// file is read whole at open. `rules` as for a CSV table (data/categorical.hpp).
std::unique_ptr<DataSource> make_hdf5_source(const std::string& path, bool online, std::int64_t noise_features,
                                             std::uint64_t noise_seed, const LabelSpec& labels = {},
                                             const TableRules& rules = {});

/// Appends `count` N(0,1) columns named noise1..noiseN to `data` (numeric features of the layout, 0 missing each);
/// entry (row, j) comes from the stream (seed, period, row, column) so every reader and rank produces identical
/// values.
void append_noise_features(Dataset& data, std::int64_t count, std::uint64_t seed, int period, std::int64_t first_row);
/// Name of the j-th appended noise feature (1-based): "noise<j>".
std::string noise_feature_name(std::int64_t j);

}  // namespace bfs
