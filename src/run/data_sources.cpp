// The [data] section → a DataSource (docs/design.md §4): simulated batches, an HDF5 file (read a period at a time), or
// a CSV loaded into memory. The data seed (simulation, knockoffs, noise features) is data.seed, or run.seed when it is
// 0. data.task / data.positive_label go down as a LabelSpec: every source validates and maps a binary target when it
// opens (data/labels.hpp), and the simulator draws 0/1 labels itself.
// data.knockoffs = "gaussian" wraps the source (data/knockoffs.hpp): every loaded period gets the knockoffs of its
// data columns, fitted on its rows and drawn from the data seed, between the data columns and the noise columns
// (which stay last: the tuning drops them by position, methods/bandit/round_driver.cpp).
#include "run/data_sources.hpp"

#include "core/error.hpp"
#include "data/csv_reader.hpp"
#include "data/knockoffs.hpp"
#include "simulate/cmab_hte.hpp"
#include "simulate/dgp.hpp"

namespace bfs {

namespace {

/// The source of data.source, with its noise columns; the knockoffs are added around it by make_data_source.
std::unique_ptr<DataSource> make_plain_source(const DataConfig& config, std::uint64_t seed, bool online,
                                              std::shared_ptr<const Dataset> given) {
  if (config.noise_features < 0) {
    throw ConfigError(detail::concat("data.noise_features = ", config.noise_features, " must be >= 0"));
  }
  if (!config.features.empty() && config.source != SourceKind::Csv) {
    throw ConfigError(detail::concat("data.features selects CSV columns and needs data.source = \"csv\", not \"",
                                     name_of(config.source), "\""));
  }
  for (const auto& [key, given_key] :
       {std::pair{"exclude", !config.exclude.empty()}, std::pair{"categorical", !config.categorical.empty()}}) {
    if (given_key && config.source != SourceKind::Csv) {
      throw ConfigError(detail::concat("data.", key, " names CSV columns and needs data.source = \"csv\", not \"",
                                       name_of(config.source),
                                       "\" (an HDF5 file flags its categorical columns in "
                                       "/categorical)"));
    }
  }
  const LabelSpec labels{config.task, config.positive_label};
  const TableRules rules = table_rules(config);
  if (given) return make_memory_source(std::move(given), online, config.noise_features, seed, labels, rules);
  if (config.source == SourceKind::Simulate) {
    if (config.positive_label) {
      // A simulated binary target is 0/1 by construction; a positive_label could only flip the classes silently.
      throw ConfigError(
          "data.positive_label is not used with data.source = \"simulate\" (simulated binary targets "
          "are already 0/1)");
    }
    // One period is in memory at a time (all of them offline, where there is one); knockoffs double the data columns.
    const std::int64_t knockoff_cols = config.knockoffs != Knockoffs::None ? config.p : 0;
    check_simulation_fits(config.n, config.p + knockoff_cols + config.noise_features,
                          knockoff_cols > 0 ? "data.n, data.p, data.knockoffs, data.noise_features"
                                            : "data.n, data.p, data.noise_features");
    SimulateSpec spec;
    spec.dgp = config.dgp;
    spec.n = config.n;
    spec.p = config.p;
    spec.rho = config.rho;
    spec.seed = seed;
    spec.binary = config.task == Task::Binary;
    return make_simulated_source(spec, config.periods, online, config.noise_features);
  }
  if (config.source == SourceKind::Hdf5) {
    if (config.path.empty()) throw ConfigError("data.path is required when data.source = \"hdf5\"");
    return make_hdf5_source(config.path, online, config.noise_features, seed, labels, rules);
  }
  if (config.source == SourceKind::Csv) {
    if (config.path.empty()) throw ConfigError("data.path is required when data.source = \"csv\"");
    if (config.target.empty()) {
      throw ConfigError("data.target (the name of the target column) is required when data.source = \"csv\"");
    }
    CsvOptions options;
    options.features = config.features;
    options.exclude = config.exclude;
    options.categorical = config.categorical;
    options.na_values = config.na_values;
    options.rules = rules;
    options.labels = labels;
    // The reader maps a binary target itself (a text label column can only be mapped there): y is 0/1 after it.
    return make_memory_source(read_csv(config.path, config.target, options), online, config.noise_features, seed,
                              LabelSpec{config.task, std::nullopt}, rules);
  }
  throw InternalError("make_data_source: a data.source without a reader");
}

}  // namespace

TableRules table_rules(const DataConfig& config) {
  return TableRules{config.min_level_count, config.max_levels, config.missing == MissingRule::Error};
}

std::unique_ptr<DataSource> make_data_source(const DataConfig& config, std::uint64_t run_seed, bool online,
                                             std::shared_ptr<const Dataset> given) {
  const std::uint64_t seed = config.seed != 0 ? config.seed : run_seed;
  std::unique_ptr<DataSource> source = make_plain_source(config, seed, online, std::move(given));
  if (config.knockoffs != Knockoffs::None)
    source = with_gaussian_knockoffs(
        std::move(source), config.noise_features, seed,
        config.knockoffs == Knockoffs::GaussianSdp ? KnockoffConstruction::Sdp : KnockoffConstruction::Equicorrelated);
  return source;
}

std::unique_ptr<LoggedSource> make_logged_source(const DataConfig& config, std::uint64_t run_seed) {
  switch (config.source) {
    case SourceKind::Csv:
      return open_logged_csv(
          config.path, LoggedCsvSpec{config.arm, config.reward, config.features, config.categorical, config.arms});
    case SourceKind::Hdf5:
      return open_logged_hdf5(config.path, config.arms);
    case SourceKind::Simulate:
      break;
  }
  return simulate_cmab_hte(static_cast<Index>(config.n), static_cast<Index>(config.p),
                           config.seed != 0 ? config.seed : run_seed);
}

}  // namespace bfs
