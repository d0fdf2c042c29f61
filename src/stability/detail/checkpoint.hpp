#pragma once
// Stability selection's checkpoint.h5 (docs/design.md §7): the header and seal of methods/common/checkpointing, and
// as body the outcomes of the finished runs (runs 0..done−1: every wave finishes whole) and what the result needs of
// the runs besides their numbers (feature names, the importance's meaning, the method's group, the task).
#include <cstdint>
#include <string>
#include <vector>

#include "methods/common/checkpointing.hpp"

namespace bfs::stability::detail {

/// What a run's task returns besides its numbers, the same for every run of one job.
struct RunFacts {
  std::vector<std::string> feature_names;
  std::string importance_meaning;
  std::string group;
  std::string task;
};

struct StabilityCheckpoint {
  methods::ResumeKey key;
  std::int64_t done = 0;         ///< runs finished (0..done−1)
  std::vector<double> outcomes;  ///< done × 3p: each run's importance, selected flags (0/1) and rank
  RunFacts facts;
};

/// Writes `checkpoint` for `method` atomically and sealed (methods::write_checkpoint).
void write_stability_checkpoint(const std::string& path, const std::string& method,
                                const StabilityCheckpoint& checkpoint);
/// Reads a checkpoint written by write_stability_checkpoint, refusing a damaged one or another kind (InputError
/// naming the file).
StabilityCheckpoint read_stability_checkpoint(const std::string& path);

}  // namespace bfs::stability::detail
