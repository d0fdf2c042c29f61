#pragma once
// Where a method gets its rows from. Offline runs see one period (the whole data set); online runs see the
// periods in order and never load a later period early. A panel source reads only the current period's rows.
#include <memory>
#include <string>
#include <vector>

#include "data/dataset.hpp"
#include "data/labels.hpp"

namespace bfs {

class DataSource {
 public:
  virtual ~DataSource() = default;
  virtual int num_periods() const = 0;
  virtual Index num_features() const = 0;
  virtual const std::vector<std::string>& feature_names() const = 0;
  virtual const std::vector<FeatureId>& truth() const = 0;
  virtual bool has_truth() const = 0;
  /// The rows of period k (0-based) with all features, noise features appended. X, y, names filled;
  /// period_offsets empty.
  virtual Dataset load_period(int k) = 0;
  /// Human-readable description for logs and errors.
  virtual std::string describe() const = 0;
};

/// A data set already in memory. online: one period per entry of data.period_offsets (or one period if it has
/// none); offline: one period holding every row. A binary `labels` maps y (all rows) once, here (data/labels.hpp).
std::unique_ptr<DataSource> make_memory_source(Dataset data, bool online, std::int64_t noise_features,
                                               std::uint64_t noise_seed, const LabelSpec& labels = {});
/// The same on a data set shared with its owner (the library API's in-memory data): read, never changed, so one data
/// set serves several runs without a copy; each period loaded is copied out of it as above.
std::unique_ptr<DataSource> make_memory_source(std::shared_ptr<const Dataset> data, bool online,
                                               std::int64_t noise_features, std::uint64_t noise_seed,
                                               const LabelSpec& labels = {});
/// An HDF5 file in our schema, read one period at a time (hyperslab of the period's rows) when online. A binary
/// `labels` reads all of /y once at open, validates it, and maps y of every loaded period the same way.
std::unique_ptr<DataSource> make_hdf5_source(const std::string& path, bool online, std::int64_t noise_features,
                                             std::uint64_t noise_seed, const LabelSpec& labels = {});

/// Appends `count` N(0,1) columns named noise1..noiseN to `data`; entry (row, j) comes from the stream
/// (seed, period, row, column) so every reader and rank produces identical values.
void append_noise_features(Dataset& data, std::int64_t count, std::uint64_t seed, int period, std::int64_t first_row);
/// Name of the j-th appended noise feature (1-based): "noise<j>".
std::string noise_feature_name(std::int64_t j);

}  // namespace bfs
