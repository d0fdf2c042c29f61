#pragma once
// Builds a run's DataSource from the [data] section (every method reads its data through it).
#include <memory>

#include "config/job_config.hpp"
#include "data/categorical.hpp"
#include "data/logged_data.hpp"
#include "data/source.hpp"

namespace bfs {

/// source = simulate | hdf5 | csv. `online` = bandit.mode == Mode::Online. The data seed is data.seed, or run_seed
/// when data.seed is 0. Errors name the key (data.source, data.path, ...) or the file. `given` (the library API's
/// in-memory data) replaces the data set data.source names; every other [data] key applies to it as to a file.
/// The [data] keys that shape a table's features (data.min_level_count, data.max_levels, data.missing = "error"):
/// what every table reader and the library API's in-memory tables are coded with.
TableRules table_rules(const DataConfig& config);

std::unique_ptr<DataSource> make_data_source(const DataConfig& config, std::uint64_t run_seed, bool online,
                                             std::shared_ptr<const Dataset> given = nullptr);

/// The contextual-bandit log [data] names (a method whose description says logged_data): a CSV or HDF5 log, or
/// cmab-hte simulated with data.n rows and data.p features from the data seed (data.seed, or run_seed when 0).
std::unique_ptr<LoggedSource> make_logged_source(const DataConfig& config, std::uint64_t run_seed);

}  // namespace bfs
