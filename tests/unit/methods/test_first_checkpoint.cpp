// FIRST's checkpoint and resume: a run stopped after a forward step and resumed from the written
// checkpoint gives exactly the uninterrupted outcome (full and FAST, with and without an N_O subsample); the file
// round-trips; another job's, other data's or a non-checkpoint file is refused with a message naming it.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "methods/first/first.hpp"
#include "methods/first/first_checkpoint.hpp"
#include "scratch_file.hpp"

using namespace bfs;
using namespace bfs::first;
namespace fs = std::filesystem;

namespace {

/// Y = 2 X1 + 1.5 X2 + X3 + sin(X4) + 0.3 ε on eight N(0,1) columns: four forward steps or so.
TotalIndex eight_columns(std::size_t n) {
  Rng rng(17);
  first::detail::Columns x;
  x.rows = n;
  x.cols = 8;
  x.values.resize(n * 8);
  for (double& v : x.values) v = rng.normal();
  std::vector<double> y(n);
  for (std::size_t i = 0; i < n; ++i)
    y[i] = 2.0 * x.values[i] + 1.5 * x.values[n + i] + x.values[2 * n + i] + std::sin(x.values[3 * n + i]) +
           0.3 * rng.normal();
  return TotalIndex(std::move(x), std::move(y), 2);
}

struct ScratchFile : test::ScratchFile {
  ScratchFile() : test::ScratchFile("banditfs_first_ckpt") {}
};

void expect_same(const FirstOutcome& a, const FirstOutcome& b) {
  BOOST_TEST(a.forward == b.forward);
  BOOST_TEST(a.forward_explained == b.forward_explained);  // exact: same estimates in the same order
  BOOST_TEST(a.psi == b.psi);
  BOOST_TEST(a.backward.dropped_in == b.backward.dropped_in);
  BOOST_TEST(a.backward.noise_var == b.backward.noise_var);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(first_checkpoint)

BOOST_AUTO_TEST_CASE(a_resumed_run_equals_an_uninterrupted_one) {
  const TotalIndex t = eight_columns(500);
  LocalExecutor executor(2);
  for (const bool fast : {false, true}) {
    for (const std::size_t n_outer : {std::size_t{0}, std::size_t{200}}) {
      FirstSettings settings;
      settings.fast = fast;
      settings.n_outer = n_outer;
      settings.seed = 5;
      const FirstOutcome whole = run_first(t, settings, executor);
      BOOST_TEST_REQUIRE(whole.forward.size() >= 3u);  // enough steps to stop in the middle

      for (std::int32_t stop_at = 1; stop_at < static_cast<std::int32_t>(whole.forward.size()); ++stop_at) {
        ForwardState saved;
        const FirstOutcome cut = run_first(t, settings, executor, [&](const ForwardState& s) {
          saved = s;
          return s.step == stop_at;
        });
        BOOST_TEST(cut.interrupted);
        BOOST_TEST(cut.steps == stop_at);
        BOOST_TEST(cut.psi.empty());

        ScratchFile file;
        write_first_checkpoint(file.path.string(), {{"job text", "hash", "data"}, saved});
        const FirstCheckpoint read = read_first_checkpoint(file.path.string());
        BOOST_TEST(read.state.step == saved.step);
        BOOST_TEST(read.state.forward == saved.forward);
        BOOST_TEST(read.state.explained == saved.explained);
        BOOST_TEST(read.state.candidates == saved.candidates);
        const ForwardState sent = deserialize_forward_state(serialize(read.state));
        BOOST_TEST(sent.candidates == saved.candidates);

        expect_same(run_first(t, settings, executor, {}, sent), whole);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(another_jobs_or_datas_checkpoint_is_refused) {
  const methods::ResumeKey saved{"[method]\nname = \"first\"\ninner_samples = 2\n", "h1", "d1"};
  methods::check_resumable(saved, "ck.h5", {"", "h1", "d1"});  // the same job and data: accepted
  try {
    methods::check_resumable(saved, "ck.h5", {"[method]\nname = \"first\"\ninner_samples = 3\n", "h2", "d1"});
    BOOST_FAIL("another job's checkpoint was accepted");
  } catch (const InputError& e) {
    const std::string what = e.what();
    BOOST_TEST(what.find("ck.h5 was written by a different job") != std::string::npos);
    BOOST_TEST(what.find("method.inner_samples (checkpoint 2, this job 3)") != std::string::npos, what);
  }
  BOOST_CHECK_THROW(methods::check_resumable(saved, "ck.h5", {"", "h1", "d2"}), InputError);
}

BOOST_AUTO_TEST_CASE(a_file_that_is_not_a_first_checkpoint_is_refused) {
  ScratchFile file;
  BOOST_CHECK_THROW(read_first_checkpoint(file.path.string()), InputError);  // missing
  std::ofstream(file.path) << "not hdf5\n";
  try {
    read_first_checkpoint(file.path.string());
    BOOST_FAIL("a text file was read as a checkpoint");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find(file.path.string()) != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(a_truncated_state_message_is_an_internal_error) {
  ForwardState state;
  state.step = 2;
  state.forward = {3, 1};
  state.explained = {0.5, 0.7};
  state.candidates = {0, 2, 4};
  const std::string bytes = serialize(state);
  BOOST_CHECK_THROW(deserialize_forward_state(bytes.substr(0, bytes.size() - 3)), InternalError);
}

BOOST_AUTO_TEST_SUITE_END()
