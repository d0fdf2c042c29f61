#pragma once
// The messages of the distributed round protocol (docs/design.md §2) as plain byte strings, so that the MPI layer only
// moves bytes and every encoding is testable without MPI. All integers are little-endian fixed width; a decoder checks
// sizes and throws InternalError on a truncated or malformed message rather than reading past its end.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"

namespace bfs::bandit {

/// Rank 0 → all, once per round: evaluate these super-arms (slot order) on `period`, or finish.
struct RoundCommand {
  enum class Kind : std::uint8_t { Evaluate = 0, Finish = 1 };
  Kind kind = Kind::Evaluate;
  std::int32_t round = 0;
  std::int32_t period = 0;
  std::vector<FeatureSet> arms;
};

/// Group leader → its members, once per arm: the fitted model's bytes and each member's block of importance groups.
struct ModelMessage {
  std::string model;
  std::vector<std::vector<std::size_t>> blocks;  ///< blocks[member] = importance-group indices, ascending
};

/// One member's share of one arm: reward bits for some of the arm's features.
struct ArmPiece {
  std::int32_t slot = 0;
  bool from_leader = false;  ///< the leader's piece carries r2 and the fit/split times
  double test_score = 0.0;
  double fit_seconds = 0.0;
  double split_seconds = 0.0;
  double importance_seconds = 0.0;
  double broadcast_seconds = 0.0;          ///< time in the model broadcast
  std::vector<std::uint32_t> columns;      ///< positions in the arm of its features, ascending
  std::vector<std::uint64_t> reward_bits;  ///< bit i = reward of columns[i]
};

/// Worker → rank 0, once per round: the pieces of every arm it worked on, and the bytes it sent in the round.
struct WorkerReport {
  std::vector<ArmPiece> pieces;
  double bytes_sent = 0.0;
};

std::string encode(const RoundCommand& command);
RoundCommand decode_command(std::string_view bytes);
std::string encode(const ModelMessage& message);
ModelMessage decode_model_message(std::string_view bytes);
std::string encode(const WorkerReport& report);
WorkerReport decode_report(std::string_view bytes);

/// 0/1 values packed 64 per word (bit i of word i/64), and back.
std::vector<std::uint64_t> pack_bits(const std::vector<std::uint8_t>& values);
std::vector<std::uint8_t> unpack_bits(const std::vector<std::uint64_t>& words, std::size_t count);

}  // namespace bfs::bandit
