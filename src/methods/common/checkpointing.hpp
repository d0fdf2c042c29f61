#pragma once
// Checkpoint plumbing shared by FIRST's and FUSE's checkpoints (the bandit's is the engine's):
//  - the ResumeKey a checkpoint must match to be resumed: the job's canonical text, the hash of the keys that decide
//    the numbers (engine job_hash) and the data's fingerprint (source description, shape and feature names), stored
//    as root attributes of checkpoint.h5;
//  - the stop-and-checkpoint decision after a round, made by rank 0 and broadcast.
#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <string>

#include "methods/method.hpp"

namespace bfs::detail {
class Reader;
}

namespace bfs::methods {

struct ResumeKey {
  std::string job_text;
  std::string job_hash;
  std::string data_fingerprint;
};

/// Writes the key as root attributes (job, resume_job_hash, resume_data_fingerprint) of an open file.
void write_resume_key(hid_t root, const ResumeKey& key);
/// Reads them back (the reader names the file on a missing or mistyped attribute).
ResumeKey read_resume_key(const bfs::detail::Reader& reader);
/// InputError naming `path` when the checkpoint's key is another job's (naming the keys that differ) or other data's.
void check_resumable(const ResumeKey& saved, const std::string& path, const ResumeKey& current);

/// After round `round` (1-based): rank 0 asks run.control whether a stop was requested and calls `write` (which
/// writes the checkpoint) when stopping or every run.checkpoint_every rounds. The decision is broadcast, so every
/// rank leaves the loop after the same round. Returns true when the run must stop.
bool stop_after_round(const MethodRun& run, std::int64_t round, const std::function<void()>& write);

}  // namespace bfs::methods
