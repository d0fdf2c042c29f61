#include "methods/bandit/messages.hpp"

#include <cstring>
#include <type_traits>

#include "core/byte_codec.hpp"
#include "core/error.hpp"

namespace bfs::bandit {

using Writer = ByteWriter;
using Reader = ByteReader;

std::string encode(const RoundCommand& command) {
  Writer w;
  w.put(static_cast<std::uint8_t>(command.kind));
  w.put(command.round);
  w.put(command.period);
  w.put_vectors(command.arms);
  return w.take();
}

RoundCommand decode_command(std::string_view bytes) {
  Reader r(bytes, "round command");
  RoundCommand command;
  const auto kind = r.get<std::uint8_t>();
  if (kind > 1) throw InternalError("round command of unknown kind " + std::to_string(kind));
  command.kind = static_cast<RoundCommand::Kind>(kind);
  command.round = r.get<std::int32_t>();
  command.period = r.get<std::int32_t>();
  command.arms = r.get_vectors<FeatureId>("arm");
  r.finish();
  return command;
}

std::string encode(const ModelMessage& message) {
  Writer w;
  w.put_string(message.model);
  w.put_vectors(message.blocks);
  return w.take();
}

ModelMessage decode_model_message(std::string_view bytes) {
  Reader r(bytes, "model");
  ModelMessage message;
  message.model = r.get_string();
  message.blocks = r.get_vectors<std::size_t>("block");
  r.finish();
  return message;
}

std::string encode(const WorkerReport& report) {
  Writer w;
  w.put(report.bytes_sent);
  w.put<std::uint64_t>(report.pieces.size());
  for (const auto& piece : report.pieces) {
    w.put(piece.slot);
    w.put<std::uint8_t>(piece.from_leader ? 1 : 0);
    w.put(piece.test_score);
    w.put(piece.fit_seconds);
    w.put(piece.split_seconds);
    w.put(piece.importance_seconds);
    w.put(piece.broadcast_seconds);
    w.put_vector(piece.columns);
    w.put_vector(piece.reward_bits);
  }
  return w.take();
}

WorkerReport decode_report(std::string_view bytes) {
  Reader r(bytes, "worker report");
  WorkerReport report;
  report.bytes_sent = r.get<double>();
  report.pieces.resize(r.get_count("piece"));
  for (auto& piece : report.pieces) {
    piece.slot = r.get<std::int32_t>();
    piece.from_leader = r.get<std::uint8_t>() != 0;
    piece.test_score = r.get<double>();
    piece.fit_seconds = r.get<double>();
    piece.split_seconds = r.get<double>();
    piece.importance_seconds = r.get<double>();
    piece.broadcast_seconds = r.get<double>();
    piece.columns = r.get_vector<std::uint32_t>();
    piece.reward_bits = r.get_vector<std::uint64_t>();
    if (piece.reward_bits.size() != (piece.columns.size() + 63) / 64)
      throw InternalError("worker report: reward bits do not match the column count");
  }
  r.finish();
  return report;
}

std::vector<std::uint64_t> pack_bits(const std::vector<std::uint8_t>& values) {
  std::vector<std::uint64_t> words((values.size() + 63) / 64, 0);
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] != 0) words[i / 64] |= std::uint64_t{1} << (i % 64);
  return words;
}

std::vector<std::uint8_t> unpack_bits(const std::vector<std::uint64_t>& words, std::size_t count) {
  BFS_CHECK(words.size() * 64 >= count);
  std::vector<std::uint8_t> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<std::uint8_t>((words[i / 64] >> (i % 64)) & 1U);
  return values;
}

}  // namespace bfs::bandit
