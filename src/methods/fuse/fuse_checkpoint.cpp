#include "methods/fuse/fuse_checkpoint.hpp"

#include <hdf5.h>

#include <string_view>

#include "data/detail/h5_result_reader.hpp"
#include "data/detail/h5_result_write.hpp"

namespace bfs::fuse {
namespace {

constexpr std::string_view kKind = "fuse search checkpoint";

}  // namespace

void write_fuse_checkpoint(const std::string& path, const FuseCheckpoint& checkpoint) {
  methods::write_checkpoint(path, {kKind, "fuse", checkpoint.key}, [&](hid_t root) {
    using namespace bfs::detail::h5w;
    write_attr(root, "iterations_done", static_cast<std::int64_t>(checkpoint.reward.size()));
    write_1d(root, "reward", checkpoint.reward);
  });
}

FuseCheckpoint read_fuse_checkpoint(const std::string& path) {
  bfs::detail::silence_hdf5_errors();
  const methods::CheckpointReader reader(path);
  FuseCheckpoint checkpoint;
  checkpoint.key = methods::read_checkpoint_key(reader, kKind, "FUSE");
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
