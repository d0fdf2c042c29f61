// cmab-scores' checkpoint file: the task results round-trip exactly; lengths that do not add up to the values, and
// another method's checkpoint, are refused with a message naming the file.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <string>

#include "core/error.hpp"
#include "data/detail/h5_result_write.hpp"
#include "methods/cmab/cmab_checkpoint.hpp"
#include "scratch_file.hpp"

using namespace bfs;
namespace fs = std::filesystem;

namespace {

struct ScratchFile : test::ScratchFile {
  ScratchFile() : test::ScratchFile("banditfs_cmab_ckpt") {}
};

template <class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cmab_checkpoint)

BOOST_AUTO_TEST_CASE(task_results_round_trip) {
  const ScratchFile file;
  cmab::CmabCheckpoint saved;
  saved.key = {"[method]\nname = \"cmab-scores\"\n", "0123abcd", "log.h5|rows=9"};
  saved.scored = {{0.25, -1e-300, 3.0}, {}, {1.0 / 3.0, 7.0}};
  cmab::write_cmab_checkpoint(file.path.string(), saved);
  const cmab::CmabCheckpoint read = cmab::read_cmab_checkpoint(file.path.string());
  BOOST_TEST(read.key.job_text == saved.key.job_text);
  BOOST_TEST(read.key.job_hash == saved.key.job_hash);
  BOOST_TEST(read.key.data_fingerprint == saved.key.data_fingerprint);
  BOOST_TEST_REQUIRE(read.scored.size() == 3u);
  for (std::size_t j = 0; j < 3; ++j) BOOST_TEST(read.scored[j] == saved.scored[j], boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(inconsistent_or_foreign_checkpoints_are_refused) {
  const ScratchFile file;
  const std::string path = file.path.string();
  methods::write_checkpoint(path, {"cmab-scores checkpoint", "cmab-scores", {"job", "hash", "data"}}, [](hid_t root) {
    using namespace bfs::detail::h5w;
    write_attr(root, "features_done", std::int64_t{2});
    write_1d(root, "task_length", std::vector<std::int64_t>{2, 5});
    write_1d(root, "task_values", std::vector<double>{1, 2, 3});
  });
  const std::string short_values = message_of([&] { cmab::read_cmab_checkpoint(path); });
  BOOST_TEST(short_values.find(path) != std::string::npos, short_values);
  BOOST_TEST(short_values.find("task lengths exceed the 3 values") != std::string::npos, short_values);

  methods::write_checkpoint(path, {"fuse search checkpoint", "fuse", {"job", "hash", "data"}}, [](hid_t) {});
  const std::string foreign = message_of([&] { cmab::read_cmab_checkpoint(path); });
  BOOST_TEST(foreign.find("not a cmab-scores checkpoint") != std::string::npos, foreign);

  fs::remove(path);
  const std::string missing = message_of([&] { cmab::read_cmab_checkpoint(path); });
  BOOST_TEST(missing.find("no such file") != std::string::npos, missing);
}

BOOST_AUTO_TEST_CASE(the_fingerprint_tells_logs_apart) {
  LoggedHeader a;
  a.origin = "log.h5";
  a.rows = 10;
  a.cols = 2;
  a.feature_names = {"x1", "x2"};
  a.arm_labels = {"a", "b"};
  LoggedHeader b = a;
  b.feature_names = {"x1", "x3"};
  LoggedHeader c = a;
  c.arm_labels = {"a", "c"};
  BOOST_TEST(cmab::logged_fingerprint(a) == cmab::logged_fingerprint(LoggedHeader(a)));
  BOOST_TEST(cmab::logged_fingerprint(a) != cmab::logged_fingerprint(b));
  BOOST_TEST(cmab::logged_fingerprint(a) != cmab::logged_fingerprint(c));
}

BOOST_AUTO_TEST_SUITE_END()
