#pragma once
// The bandit's data source: [data]'s, cut into the periods its online schedule walks.
#include <cstdint>
#include <memory>

#include "config/job_config.hpp"
#include "data/dataset.hpp"
#include "data/source.hpp"

namespace bfs {

/// make_data_source, then online batches of data.batch_size rows and, with bandit.rebatch = "bootstrap",
/// bandit.passes passes re-cut by bootstrap (data/batches.hpp; the round driver then runs one pass over passes × K
/// periods, driver_passes()). `given`: data held in memory (the library API) instead of [data]'s source.
std::unique_ptr<DataSource> make_bandit_source(const JobConfig& job, std::uint64_t run_seed,
                                               std::shared_ptr<const Dataset> given = nullptr);

}  // namespace bfs
