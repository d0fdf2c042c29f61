#include "methods/common/checkpointing.hpp"

#include "core/error.hpp"
#include "data/detail/atomic_write.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_result_write.hpp"
#include "methods/common/checkpoint_seal.hpp"
#include "run/job_identity.hpp"

namespace bfs::methods {

void write_checkpoint(const std::string& path, const CheckpointHeader& header,
                      const std::function<void(hid_t root)>& write_body) {
  using namespace bfs::detail::h5w;
  bfs::detail::silence_hdf5_errors();
  bfs::detail::atomic_write(path, [&](const std::string& tmp) {
    bfs::detail::H5Handle creation =
        bfs::detail::h5_plist(bfs::detail::check_id(H5Pcreate(H5P_FILE_CREATE), "create file properties"));
    bfs::detail::check(H5Pset_userblock(creation.get(), kSealBytes), "reserve the checkpoint's seal");
    bfs::detail::H5Handle file = bfs::detail::h5_file(bfs::detail::check_id(
        H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, creation.get(), H5P_DEFAULT), bfs::detail::concat("create ", tmp)));
    const hid_t root = file.get();
    write_attr(root, "kind", std::string(header.kind));
    write_attr(root, "method", std::string(header.method));
    write_attr(root, "job", header.key.job_text);
    write_attr(root, "resume_job_hash", header.key.job_hash);
    write_attr(root, "resume_data_fingerprint", header.key.data_fingerprint);
    write_body(root);
    bfs::detail::check(file.close(), bfs::detail::concat("close ", tmp));
    seal_checkpoint(tmp);
  });
}

CheckpointReader::CheckpointReader(const std::string& path) : Reader((verify_checkpoint(path), path)) {}

ResumeKey read_checkpoint_key(const CheckpointReader& reader, std::string_view kind, std::string_view title) {
  reader.refuse_a_result_as_checkpoint();
  if (!reader.has_attr("kind") || reader.string_attr("kind") != kind)
    reader.fail(bfs::detail::concat("not a ", title,
                                    " checkpoint (another method's, or not a checkpoint); cannot --resume from it"));
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

bool stop_after_round(const RunControl& control, std::int64_t round, const std::function<void()>& write) {
  const bool stop = control.stop_requested && control.stop_requested();
  const bool periodic = control.checkpoint_every > 0 && round % control.checkpoint_every == 0;
  if ((stop || periodic) && !control.checkpoint_path.empty()) write();
  return stop;
}

bool stop_after_round(const MethodRun& run, std::int64_t round, const std::function<void()>& write) {
  bool stop = false;
  if (run.comm.rank() == 0) stop = stop_after_round(run.control, round, write);
  if (run.comm.size() > 1) stop = run.comm.broadcast(stop ? "1" : "0", 0) == "1";
  return stop;
}

Checkpointing::Checkpointing(const MethodRun& run, std::string data_fingerprint)
    : run_(run), key_{run.job_text, job_hash(run.job), std::move(data_fingerprint)} {}

void Checkpointing::log_resume(const std::string& position) const {
  if (run_.context.log) run_.context.log->info("resuming from {} after {}", path(), position);
}

}  // namespace bfs::methods
