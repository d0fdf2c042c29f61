#include "methods/fuse/fuse_checkpoint.hpp"

#include <hdf5.h>

#include "data/detail/atomic_write.hpp"
#include "data/detail/h5_handle.hpp"
#include "data/detail/h5_result_reader.hpp"
#include "data/detail/h5_result_write.hpp"

namespace bfs::fuse {
namespace {

constexpr const char* kKind = "fuse search checkpoint";

void write_file(const FuseCheckpoint& checkpoint, const std::string& tmp) {
  using namespace bfs::detail::h5w;
  bfs::detail::H5Handle file = bfs::detail::h5_file(bfs::detail::check_id(
      H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), bfs::detail::concat("create ", tmp)));
  const hid_t root = file.get();
  write_attr(root, "kind", std::string(kKind));
  write_attr(root, "method", std::string("fuse"));
  methods::write_resume_key(root, checkpoint.key);
  write_attr(root, "iterations_done", static_cast<std::int64_t>(checkpoint.reward.size()));
  write_1d(root, "reward", checkpoint.reward);
  bfs::detail::check(file.close(), bfs::detail::concat("close ", tmp));
}

}  // namespace

void write_fuse_checkpoint(const std::string& path, const FuseCheckpoint& checkpoint) {
  bfs::detail::silence_hdf5_errors();
  bfs::detail::atomic_write(path, [&](const std::string& tmp) { write_file(checkpoint, tmp); });
}

FuseCheckpoint read_fuse_checkpoint(const std::string& path) {
  bfs::detail::silence_hdf5_errors();
  const bfs::detail::Reader reader(path);
  if (!reader.has_attr("kind") || reader.string_attr("kind") != kKind)
    reader.fail("not a FUSE checkpoint (another method's, or not a checkpoint); cannot --resume from it");
  FuseCheckpoint checkpoint;
  checkpoint.key = methods::read_resume_key(reader);
  const auto done = reader.attr<std::int64_t>("iterations_done");
  checkpoint.reward = reader.read_1d<double>("reward");
  if (done < 0 || static_cast<std::size_t>(done) != checkpoint.reward.size())
    reader.fail(bfs::detail::concat("inconsistent state: iterations_done ", done, " but ", checkpoint.reward.size(),
                                    " rewards"));
  for (std::size_t i = 0; i < checkpoint.reward.size(); ++i) {
    const double v = checkpoint.reward[i];
    if (!(v >= 0.0 && v <= 1.0)) reader.fail(bfs::detail::concat("/reward[", i, "] = ", v, " is not an AUC in [0, 1]"));
  }
  return checkpoint;
}

}  // namespace bfs::fuse
