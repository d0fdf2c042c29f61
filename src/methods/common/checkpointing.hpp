#pragma once
// Checkpoint plumbing shared by every method's checkpoint (each writes its own body):
//  - the ResumeKey a checkpoint must match to be resumed: the job's canonical text, the hash of the keys that decide
//    the numbers (run/job_identity.hpp) and the data's fingerprint (source description, shape and feature names),
//    stored as root attributes of checkpoint.h5;
//  - the stop-and-checkpoint decision after a round, made by rank 0 and broadcast.
#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

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

/// What a method's checkpoint.h5 says of itself: its kind (refused by another method), the method and the key.
struct CheckpointHeader {
  std::string_view kind;    ///< e.g. "fuse search checkpoint"
  std::string_view method;  ///< the method's name
  ResumeKey key;
};

/// Writes checkpoint.h5 atomically (path.tmp, then renamed: a failure leaves the previous one): the header as root
/// attributes (kind, method, job, resume_job_hash, resume_data_fingerprint), then `write_body(root)`.
void write_checkpoint(const std::string& path, const CheckpointHeader& header,
                      const std::function<void(hid_t root)>& write_body);
/// The key of an open checkpoint whose root attribute kind is `kind`; the reader's InputError naming the file
/// ("not a `title` checkpoint") otherwise, or for a missing or mistyped attribute.
ResumeKey read_checkpoint_key(const bfs::detail::Reader& reader, std::string_view kind, std::string_view title);
/// InputError naming `path` when the checkpoint's key is another job's (naming the keys that differ) or other data's.
void check_resumable(const ResumeKey& saved, const std::string& path, const ResumeKey& current);

/// After round `round` (1-based), on the process that decides: asks `control` whether a stop was requested and calls
/// `write` (which writes the checkpoint) when stopping or every control.checkpoint_every rounds, when there is a
/// checkpoint path. Returns true when the run must stop.
bool stop_after_round(const RunControl& control, std::int64_t round, const std::function<void()>& write);
/// The same decision made by rank 0 of run.comm and broadcast, so every rank leaves the loop after the same round.
bool stop_after_round(const MethodRun& run, std::int64_t round, const std::function<void()>& write);

}  // namespace bfs::methods
