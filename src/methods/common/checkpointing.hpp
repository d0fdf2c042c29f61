#pragma once
// Checkpoint plumbing shared by every method's checkpoint (each writes its own body):
//  - the ResumeKey a checkpoint must match to be resumed: the job's canonical text, the hash of the keys that decide
//    the numbers (run/job_identity.hpp) and the data's fingerprint (source description, shape and feature names),
//    stored as root attributes of checkpoint.h5;
//  - the seal (checkpoint_seal.hpp): every checkpoint written here carries its size and digest, and is only read
//    through a CheckpointReader, which verifies them first;
//  - the stop-and-checkpoint decision after a round, made by rank 0 and broadcast;
//  - Checkpointing, the shape of a method's run state around its rounds: rank 0 reads and checks the checkpoint,
//    every rank gets its state as bytes.
#include <hdf5.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "data/detail/h5_result_reader.hpp"
#include "methods/method.hpp"

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

/// Writes checkpoint.h5 atomically (path.tmp, sealed, then renamed: a failure leaves the previous one): the header
/// as root attributes (kind, method, job, resume_job_hash, resume_data_fingerprint), then `write_body(root)`.
void write_checkpoint(const std::string& path, const CheckpointHeader& header,
                      const std::function<void(hid_t root)>& write_body);

/// A checkpoint opened for reading after its seal was verified (verify_checkpoint: InputError naming the file when
/// it is missing, truncated or corrupted). Methods open their checkpoints only this way, so nothing of a damaged
/// file is read.
class CheckpointReader : public bfs::detail::Reader {
 public:
  explicit CheckpointReader(const std::string& path);
};

/// The key of an open checkpoint whose root attribute kind is `kind`; the reader's InputError naming the file
/// ("not a `title` checkpoint") otherwise, or for a missing or mistyped attribute.
ResumeKey read_checkpoint_key(const CheckpointReader& reader, std::string_view kind, std::string_view title);
/// InputError naming `path` when the checkpoint's key is another job's (naming the keys that differ) or other data's.
void check_resumable(const ResumeKey& saved, const std::string& path, const ResumeKey& current);

/// After round `round` (1-based), on the process that decides: asks `control` whether a stop was requested and calls
/// `write` (which writes the checkpoint) when stopping or every control.checkpoint_every rounds, when there is a
/// checkpoint path. Returns true when the run must stop.
bool stop_after_round(const RunControl& control, std::int64_t round, const std::function<void()>& write);
/// The same decision made by rank 0 of run.comm and broadcast, so every rank leaves the loop after the same round.
bool stop_after_round(const MethodRun& run, std::int64_t round, const std::function<void()>& write);

/// A method's run state around its rounds: this run's ResumeKey; on --resume, the checkpoint read and checked by
/// rank 0 and its state broadcast to every rank; after each round, the stop-or-checkpoint decision.
class Checkpointing {
 public:
  /// `data_fingerprint`: describe_source(...).fingerprint of the data the method reads.
  Checkpointing(const MethodRun& run, std::string data_fingerprint);

  const ResumeKey& key() const { return key_; }
  const std::string& path() const { return run_.control.checkpoint_path; }

  /// Without --resume: nullopt. With it, rank 0 calls read(path()) for the checkpoint (anything with a `key`),
  /// refuses another job's or data's (check_resumable), then calls encode(checkpoint) — the method's own checks of
  /// it, then its state as bytes —; every rank returns those bytes. Errors are thrown on rank 0.
  template <class Read, class Encode>
  std::optional<std::string> resume(const Read& read, const Encode& encode) const {
    if (!run_.control.resume) return std::nullopt;
    std::string bytes;
    if (run_.comm.rank() == 0) {
      const auto checkpoint = read(path());
      check_resumable(checkpoint.key, path(), key_);
      bytes = encode(checkpoint);
    }
    return run_.comm.broadcast(bytes, 0);
  }
  /// Logs "resuming from <path> after <position>" (e.g. "forward step 3").
  void log_resume(const std::string& position) const;

  /// After round `round` (1-based): stop_after_round, `write` writing the checkpoint to path().
  bool stop_after(std::int64_t round, const std::function<void()>& write) const {
    return stop_after_round(run_, round, write);
  }

 private:
  const MethodRun& run_;
  ResumeKey key_;
};

}  // namespace bfs::methods
