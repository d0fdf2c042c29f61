#pragma once
// FUSE's checkpoint: the rewards of the iterations done, written by rank 0 to the run's checkpoint.h5
// every run.checkpoint_every rounds and when a stop signal ends the run. The tree is not stored: it is a
// deterministic function of the job, the seed and the rewards (every descent draws from (seed, iteration, Search)),
// so a resumed run replays the done rounds' descents and back-ups with the stored rewards instead of computing them
// — the expensive part — and continues from there. result.h5 is then the uninterrupted run's, bit for bit.
#include <cstdint>
#include <string>
#include <vector>

#include "methods/common/checkpointing.hpp"

namespace bfs::fuse {

struct FuseCheckpoint {
  methods::ResumeKey key;
  std::vector<double> reward;  ///< V(F) of each iteration done, in iteration order
};

/// Writes the checkpoint atomically (path.tmp, then renamed): a failure leaves the previous one.
void write_fuse_checkpoint(const std::string& path, const FuseCheckpoint& checkpoint);
/// Reads it; InputError naming the file for a missing, corrupt or other method's checkpoint, or a reward outside
/// [0, 1].
FuseCheckpoint read_fuse_checkpoint(const std::string& path);

}  // namespace bfs::fuse
