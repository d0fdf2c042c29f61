#include "methods/bandit/bandit_source.hpp"

#include "data/batches.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "run/data_sources.hpp"

namespace bfs {

std::unique_ptr<DataSource> make_bandit_source(const JobConfig& job, std::uint64_t run_seed,
                                               std::shared_ptr<const Dataset> given) {
  const bool online = bandit_config(job).mode == Mode::Online;
  std::unique_ptr<DataSource> source = make_data_source(job.data, run_seed, online, std::move(given));
  if (!online) return source;
  if (job.data.batch_size > 0) source = with_batches(std::move(source), job.data.batch_size);
  if (bandit_config(job).rebatch == Rebatch::Bootstrap) {
    const std::uint64_t seed = job.data.seed != 0 ? job.data.seed : run_seed;
    source = with_bootstrap_passes(std::move(source), bandit_config(job).passes, seed);
  }
  return source;
}

}  // namespace bfs
