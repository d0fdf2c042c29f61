#pragma once
// cmab-scores' checkpoint: the task results of the features scored so far, written by rank 0 to the run's
// checkpoint.h5 at a wave boundary, every run.checkpoint_every waves and when a stop signal ends the run. A feature's
// scores depend on its own column only, so a resumed run scores the remaining features and its result.h5 is the
// uninterrupted run's, bit for bit, at any rank or thread count (waves may then be cut differently).
#include <string>
#include <vector>

#include "data/logged_data.hpp"
#include "methods/common/checkpointing.hpp"

namespace bfs::cmab {

struct CmabCheckpoint {
  methods::ResumeKey key;
  std::vector<std::vector<double>> scored;  ///< the task results of features 0 .. scored.size() − 1, in order
};

/// Writes the checkpoint atomically (path.tmp, then renamed): a failure leaves the previous one.
void write_cmab_checkpoint(const std::string& path, const CmabCheckpoint& checkpoint);
/// Reads it; InputError naming the file for a missing, corrupt or other method's checkpoint, or task lengths that do
/// not add up to the values stored.
CmabCheckpoint read_cmab_checkpoint(const std::string& path);

/// The log's identity for a checkpoint: origin, shape, arm labels and a hash of the feature names.
std::string logged_fingerprint(const LoggedHeader& header);

}  // namespace bfs::cmab
