#pragma once
// The output directory of one run: nothing lost, nothing mixed.
//  * A run holds an exclusive lock on the directory (flock on OUT/.banditfs.lock) for its lifetime; a second run
//    into the same directory is refused with a message naming the holder (pid, host, start, job).
//  * result.h5, summary.csv and run.json are written as a set: all three are staged first — a failure leaves the
//    previous set untouched — and then renamed, run.json last. run.json carries the size and FNV-1a digest of the
//    other two, so a set torn by a kill between the renames is recognised (`inspect` refuses it).
//  * An input file that is one of the directory's outputs is refused before anything is written.
#include <cstdint>
#include <string>
#include <vector>

#include "methods/result.hpp"
#include "output/result_io.hpp"  // FileDigest

namespace bfs {

/// The digest of the file at `path` (InputError when it cannot be read).
FileDigest digest_file(const std::string& path, const std::string& name);

class RunDirectory {
 public:
  /// Creates `dir` when needed and locks it for this process. InputError naming run.out and the holder when another
  /// run holds it, or when the directory cannot be created or locked.
  RunDirectory(std::string dir, const std::string& job_path);
  ~RunDirectory();
  RunDirectory(const RunDirectory&) = delete;
  RunDirectory& operator=(const RunDirectory&) = delete;

  const std::string& dir() const { return dir_; }
  std::string path(const std::string& name) const;
  /// Every file a run writes into its directory (results, checkpoint, log, lock).
  static const std::vector<std::string>& output_names();
  /// InputError naming `key` when `input` is one of this directory's outputs.
  void refuse_input_among_outputs(const std::string& input, const std::string& key) const;
  /// Writes result.h5, summary.csv and run.json as one set (see above). With the environment variable
  /// BANDITFS_TEST_FAULT=kill-between-renames the process kills itself after the first rename (the e2e test's hook).
  void commit(const MethodResult& result) const;
  /// The job text stored in the directory's result.h5 ("" when there is none, or it stores no job text).
  std::string result_job_text() const;

 private:
  std::string dir_;
  int lock_fd_ = -1;
};

/// Checks the result.h5 at `result_path` against the run.json beside it, when that run.json pins it: InputError
/// "the output set is torn" when the size or digest differ. A result without such a run.json passes.
void check_result_set(const std::string& result_path);

}  // namespace bfs
