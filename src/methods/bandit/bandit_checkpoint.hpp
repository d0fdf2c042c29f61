#pragma once
// The bandit's checkpoint: methods/common's checkpoint.h5 (its header: kind, method and the resume key) whose body is
// the run state after a round (run_result_h5.hpp: the posterior, trajectory, evaluations, the stopping rule's state
// and the tuning choice). Every random draw derives from (seed, round, …), so a run resumed from it gives the result
// of an uninterrupted run. `inspect` reads it as a result of the pre-layout form (output/result_h5_read.cpp).
#include <string>

#include "methods/bandit/run_result.hpp"
#include "methods/common/checkpointing.hpp"

namespace bfs {

struct BanditCheckpoint {
  methods::ResumeKey key;  ///< the job and data it belongs to
  RunResult state;         ///< the result so far, with its ResumeState
};

/// Writes `state` (resume.present, its key `key`) atomically to `path`; safe while the prefetch thread reads HDF5.
void write_bandit_checkpoint(const std::string& path, const methods::ResumeKey& key, const RunResult& state);
/// Reads it back; InputError naming the file for a missing or corrupt file, another method's checkpoint, or a state
/// whose parts disagree (rows of the trajectory, periods, posterior).
BanditCheckpoint read_bandit_checkpoint(const std::string& path);

}  // namespace bfs
