#include "methods/common/checkpointing.hpp"

#include "core/error.hpp"
#include "data/detail/h5_result_reader.hpp"
#include "data/detail/h5_result_write.hpp"
#include "engine/round_driver.hpp"  // differing_keys

namespace bfs::methods {

void write_resume_key(hid_t root, const ResumeKey& key) {
  using namespace bfs::detail::h5w;
  write_attr(root, "job", key.job_text);
  write_attr(root, "resume_job_hash", key.job_hash);
  write_attr(root, "resume_data_fingerprint", key.data_fingerprint);
}

ResumeKey read_resume_key(const bfs::detail::Reader& reader) {
  return {reader.string_attr("job"), reader.string_attr("resume_job_hash"),
          reader.string_attr("resume_data_fingerprint")};
}

void check_resumable(const ResumeKey& saved, const std::string& path, const ResumeKey& current) {
  if (saved.job_hash != current.job_hash)
    throw InputError(path + " was written by a different job: " + differing_keys(saved.job_text, current.job_text) +
                     "; refusing to resume. Resume with the same job and --set overrides (the checkpoint's job is "
                     "its 'job' attribute), or start over with --force, which deletes the checkpoint.");
  if (saved.data_fingerprint != current.data_fingerprint)
    throw InputError(path +
                     " was written for different data (source, shape or feature names differ); refusing to "
                     "resume.");
}

bool stop_after_round(const MethodRun& run, std::int64_t round, const std::function<void()>& write) {
  const RunControl& control = run.control;
  bool stop = false;
  if (run.comm.rank() == 0) {
    stop = control.stop_requested && control.stop_requested();
    const bool periodic = control.checkpoint_every > 0 && round % control.checkpoint_every == 0;
    if ((stop || periodic) && !control.checkpoint_path.empty()) write();
  }
  if (run.comm.size() > 1) stop = run.comm.broadcast(stop ? "1" : "0", 0) == "1";
  return stop;
}

}  // namespace bfs::methods
