#include "stability/detail/checkpoint.hpp"

#include <hdf5.h>

#include <string_view>

#include "data/detail/h5_result_reader.hpp"
#include "data/detail/h5_result_write.hpp"

namespace bfs::stability::detail {
namespace {

constexpr std::string_view kKind = "stability selection checkpoint";

}  // namespace

void write_stability_checkpoint(const std::string& path, const std::string& method,
                                const StabilityCheckpoint& checkpoint) {
  methods::write_checkpoint(path, {kKind, method, checkpoint.key}, [&](hid_t root) {
    using namespace bfs::detail::h5w;
    write_attr(root, "runs_done", checkpoint.done);
    write_attr(root, "importance_meaning", checkpoint.facts.importance_meaning);
    write_attr(root, "group", checkpoint.facts.group);
    write_attr(root, "task", checkpoint.facts.task);
    write_strings(root, "feature_names", checkpoint.facts.feature_names);
    write_1d(root, "outcomes", checkpoint.outcomes);
  });
}

StabilityCheckpoint read_stability_checkpoint(const std::string& path) {
  bfs::detail::silence_hdf5_errors();
  const methods::CheckpointReader reader(path);
  StabilityCheckpoint c;
  c.key = methods::read_checkpoint_key(reader, kKind, "stability selection");
  c.done = reader.attr<std::int64_t>("runs_done");
  c.facts.importance_meaning = reader.string_attr("importance_meaning");
  c.facts.group = reader.string_attr("group");
  c.facts.task = reader.string_attr("task");
  c.facts.feature_names = reader.read_strings("feature_names");
  c.outcomes = reader.read_1d<double>("outcomes");
  const std::size_t p = c.facts.feature_names.size();
  if (c.done < 1 || p == 0 || c.outcomes.size() != static_cast<std::size_t>(c.done) * 3 * p)
    reader.fail(bfs::detail::concat("inconsistent state: ", c.done, " runs done, ", p, " features and ",
                                    c.outcomes.size(), " outcome values (want runs × 3 × features)"));
  return c;
}

}  // namespace bfs::stability::detail
