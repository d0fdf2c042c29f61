#include "methods/first/first_checkpoint.hpp"

#include <hdf5.h>

#include <cstdint>
#include <vector>

#include "core/byte_codec.hpp"
#include "core/error.hpp"
#include "data/detail/h5_result_reader.hpp"
#include "data/detail/h5_result_write.hpp"

namespace bfs::first {
namespace {

constexpr std::string_view kKind = "first forward-selection checkpoint";

std::vector<std::int64_t> to_int64(const std::vector<std::size_t>& values) {
  return {values.begin(), values.end()};
}

std::vector<std::size_t> to_indices(const std::vector<std::int64_t>& values, const bfs::detail::Reader& reader,
                                    const char* name) {
  std::vector<std::size_t> out;
  out.reserve(values.size());
  for (const std::int64_t v : values) {
    if (v < 0) reader.fail(bfs::detail::concat("/", name, " holds a negative feature index"));
    out.push_back(static_cast<std::size_t>(v));
  }
  return out;
}

}  // namespace

void write_first_checkpoint(const std::string& path, const FirstCheckpoint& checkpoint) {
  methods::write_checkpoint(path, {kKind, "first", checkpoint.key}, [&](hid_t root) {
    using namespace bfs::detail::h5w;
    const ForwardState& s = checkpoint.state;
    write_attr(root, "step", s.step);
    write_1d(root, "forward", to_int64(s.forward));
    write_1d(root, "forward_explained", s.explained);
    write_1d(root, "candidates", to_int64(s.candidates));
  });
}

FirstCheckpoint read_first_checkpoint(const std::string& path) {
  bfs::detail::silence_hdf5_errors();
  const methods::CheckpointReader reader(path);
  FirstCheckpoint checkpoint;
  checkpoint.key = methods::read_checkpoint_key(reader, kKind, "FIRST");
  ForwardState& s = checkpoint.state;
  s.step = reader.attr<std::int32_t>("step");
  s.forward = to_indices(reader.read_1d<std::int64_t>("forward"), reader, "forward");
  s.explained = reader.read_1d<double>("forward_explained");
  s.candidates = to_indices(reader.read_1d<std::int64_t>("candidates"), reader, "candidates");
  if (s.step < 0 || s.explained.size() != s.forward.size() || s.forward.size() > static_cast<std::size_t>(s.step))
    reader.fail(bfs::detail::concat("inconsistent state: step ", s.step, ", ", s.forward.size(), " forward features, ",
                                    s.explained.size(), " explained variances"));
  return checkpoint;
}

std::string serialize(const ForwardState& state) {
  ByteWriter w;
  w.put(state.step);
  w.put_vector(to_int64(state.forward));
  w.put_vector(state.explained);
  w.put_vector(to_int64(state.candidates));
  return w.take();
}

ForwardState deserialize_forward_state(const std::string& bytes) {
  ByteReader r(bytes, "FIRST forward state");
  ForwardState state;
  state.step = r.get<std::int32_t>();
  for (const std::int64_t v : r.get_vector<std::int64_t>()) state.forward.push_back(static_cast<std::size_t>(v));
  state.explained = r.get_vector<double>();
  for (const std::int64_t v : r.get_vector<std::int64_t>()) state.candidates.push_back(static_cast<std::size_t>(v));
  r.finish();
  return state;
}

}  // namespace bfs::first
