#include "methods/cmab/cmab_checkpoint.hpp"

#include <hdf5.h>

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "core/fnv1a.hpp"
#include "data/detail/h5_result_reader.hpp"
#include "data/detail/h5_result_write.hpp"

namespace bfs::cmab {
namespace {

constexpr std::string_view kKind = "cmab-scores checkpoint";

}  // namespace

void write_cmab_checkpoint(const std::string& path, const CmabCheckpoint& checkpoint) {
  std::vector<std::int64_t> lengths;
  std::vector<double> values;
  for (const std::vector<double>& task : checkpoint.scored) {
    lengths.push_back(static_cast<std::int64_t>(task.size()));
    values.insert(values.end(), task.begin(), task.end());
  }
  methods::write_checkpoint(path, {kKind, "cmab-scores", checkpoint.key}, [&](hid_t root) {
    using namespace bfs::detail::h5w;
    write_attr(root, "features_done", static_cast<std::int64_t>(lengths.size()));
    write_1d(root, "task_length", lengths);
    write_1d(root, "task_values", values);
  });
}

CmabCheckpoint read_cmab_checkpoint(const std::string& path) {
  bfs::detail::silence_hdf5_errors();
  const methods::CheckpointReader reader(path);
  CmabCheckpoint checkpoint;
  checkpoint.key = methods::read_checkpoint_key(reader, kKind, "cmab-scores");
  const auto done = reader.attr<std::int64_t>("features_done");
  const std::vector<std::int64_t> lengths = reader.read_1d<std::int64_t>("task_length");
  const std::vector<double> values = reader.read_1d<double>("task_values");
  if (done < 0 || static_cast<std::size_t>(done) != lengths.size())
    reader.fail(
        bfs::detail::concat("inconsistent state: features_done ", done, " but ", lengths.size(), " task lengths"));
  std::size_t offset = 0;
  for (const std::int64_t length : lengths) {
    if (length < 0 || static_cast<std::size_t>(length) > values.size() - offset)
      reader.fail(bfs::detail::concat("inconsistent state: the task lengths exceed the ", values.size(),
                                      " values of /task_values"));
    const auto begin = values.begin() + static_cast<std::ptrdiff_t>(offset);
    checkpoint.scored.emplace_back(begin, begin + static_cast<std::ptrdiff_t>(length));
    offset += static_cast<std::size_t>(length);
  }
  if (offset != values.size())
    reader.fail(
        bfs::detail::concat("inconsistent state: /task_values holds ", values.size(), " values, the lengths ", offset));
  return checkpoint;
}

std::string logged_fingerprint(const LoggedHeader& header) {
  std::string names;
  for (const std::string& name : header.feature_names) names += name + "|";
  std::string arms;
  for (const std::string& label : header.arm_labels) arms += "|" + label;
  return header.origin + "|rows=" + std::to_string(header.rows) + "|cols=" + std::to_string(header.cols) + "|arms" +
         arms + "|names=" + fnv1a_hex(names);
}

}  // namespace bfs::cmab
