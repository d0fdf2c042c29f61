// The distributed protocol's messages (src/methods/bandit/messages.hpp): every encoding round-trips exactly, and a
// truncated or padded message is rejected instead of being read past its end.
#include <boost/test/unit_test.hpp>
#include <cstring>

#include "core/error.hpp"
#include "methods/bandit/messages.hpp"

using namespace bfs;
using namespace bfs::bandit;

BOOST_AUTO_TEST_CASE(bits_pack_and_unpack_for_every_length_around_word_boundaries) {
  for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 130u}) {
    std::vector<std::uint8_t> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<std::uint8_t>((i * 7 + 3) % 3 == 0);
    const auto words = pack_bits(values);
    BOOST_TEST(words.size() == (n + 63) / 64);
    BOOST_TEST(unpack_bits(words, n) == values);
  }
  BOOST_TEST(pack_bits({1, 0, 1}) == std::vector<std::uint64_t>{5});
}

BOOST_AUTO_TEST_CASE(round_commands_round_trip) {
  RoundCommand command;
  command.round = 17;
  command.period = 3;
  command.arms = {{0, 4, 9}, {}, {2}};
  const RoundCommand back = decode_command(encode(command));
  BOOST_TEST((back.kind == RoundCommand::Kind::Evaluate));
  BOOST_TEST(back.round == 17);
  BOOST_TEST(back.period == 3);
  BOOST_TEST(back.arms == command.arms);
  RoundCommand finish;
  finish.kind = RoundCommand::Kind::Finish;
  BOOST_TEST((decode_command(encode(finish)).kind == RoundCommand::Kind::Finish));
}

BOOST_AUTO_TEST_CASE(model_messages_round_trip_binary_bytes) {
  ModelMessage message;
  message.model = std::string("\0\x01\xff model", 9);
  message.blocks = {{0, 2}, {}, {1, 3, 4}};
  const ModelMessage back = decode_model_message(encode(message));
  BOOST_TEST(back.model == message.model);
  BOOST_TEST(back.blocks == message.blocks);
}

BOOST_AUTO_TEST_CASE(worker_reports_round_trip) {
  WorkerReport report;
  report.bytes_sent = 1234;
  ArmPiece piece;
  piece.slot = 2;
  piece.from_leader = true;
  piece.test_score = -0.125;
  piece.fit_seconds = 1.5;
  piece.columns = {0, 5, 7};
  piece.reward_bits = pack_bits({1, 0, 1});
  report.pieces = {piece, ArmPiece{}};
  const WorkerReport back = decode_report(encode(report));
  BOOST_TEST(back.bytes_sent == 1234);
  BOOST_REQUIRE(back.pieces.size() == 2u);
  BOOST_TEST(back.pieces[0].slot == 2);
  BOOST_TEST(back.pieces[0].from_leader);
  BOOST_TEST(back.pieces[0].test_score == -0.125);
  BOOST_TEST(back.pieces[0].fit_seconds == 1.5);
  BOOST_TEST(back.pieces[0].columns == piece.columns);
  BOOST_TEST(unpack_bits(back.pieces[0].reward_bits, 3) == (std::vector<std::uint8_t>{1, 0, 1}));
  BOOST_TEST(!back.pieces[1].from_leader);
}

BOOST_AUTO_TEST_CASE(truncated_padded_and_malformed_messages_are_rejected) {
  RoundCommand command;
  command.arms = {{1, 2, 3}};
  const std::string bytes = encode(command);
  for (std::size_t cut = 0; cut < bytes.size(); ++cut)
    BOOST_CHECK_THROW(decode_command(bytes.substr(0, cut)), InternalError);
  BOOST_CHECK_THROW(decode_command(bytes + "x"), InternalError);
  std::string bad_kind = bytes;
  bad_kind[0] = 7;
  BOOST_CHECK_THROW(decode_command(bad_kind), InternalError);
  // An element count whose byte size wraps around 2^64 (2^62 four-byte ids) is refused before anything is allocated.
  std::string wrapping = bytes;
  const std::uint64_t huge = std::uint64_t{1} << 62;
  std::memcpy(wrapping.data() + 1 + 4 + 4 + 8, &huge, sizeof huge);  // kind, round, period, arm count, first arm
  BOOST_CHECK_THROW(decode_command(wrapping), InternalError);

  WorkerReport report;
  ArmPiece piece;
  piece.columns = {1, 2};
  piece.reward_bits = {};  // two columns need one word of bits
  report.pieces = {piece};
  BOOST_CHECK_THROW(decode_report(encode(report)), InternalError);
}
