#pragma once
// FIRST's checkpoint: the forward selection's state after a step, written by rank 0 to the run's
// checkpoint.h5 every run.checkpoint_every steps and when a stop signal ends the run. A resumed run starts the
// next step from it; every step's outer rows come from the stream (seed, phase, step), so the result is the one
// an uninterrupted run gives. NANNE-BE, which follows the forward selection, is not checkpointed (it re-estimates
// only subsets of A, far fewer estimates than a forward step).
#include <string>

#include "methods/common/checkpointing.hpp"
#include "methods/first/first.hpp"

namespace bfs::first {

struct FirstCheckpoint {
  methods::ResumeKey key;  ///< the job and data it belongs to (methods/common/checkpointing.hpp)
  ForwardState state;
};

/// Writes the checkpoint atomically (path.tmp, then renamed): a failure leaves the previous one.
void write_first_checkpoint(const std::string& path, const FirstCheckpoint& checkpoint);
/// Reads it; InputError naming the file for a missing, corrupt or other method's checkpoint.
FirstCheckpoint read_first_checkpoint(const std::string& path);

/// The state as bytes (a broadcast from rank 0 to the others) and back.
std::string serialize(const ForwardState& state);
ForwardState deserialize_forward_state(const std::string& bytes);

}  // namespace bfs::first
