// FUSE's checkpoint and resume: a run stopped after any round and resumed gives the uninterrupted run's
// result bit for bit (the tree is replayed from the stored rewards); another job's checkpoint, a corrupt one and a
// partial round are refused naming the file.
#include <unistd.h>

#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <vector>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "methods/comm.hpp"
#include "methods/executor.hpp"
#include "methods/fuse/fuse_checkpoint.hpp"
#include "methods/registry.hpp"
#include "scratch_file.hpp"

namespace fs = std::filesystem;
using namespace bfs;

namespace {

struct ScratchFile : test::ScratchFile {
  ScratchFile() : test::ScratchFile("banditfs_fuse_ckpt") {}
};

JobConfig fuse_job(int batch, const std::string& extra = "") {
  const std::string text =
      "[method]\nname = \"fuse\"\niterations = 90\nreward_subsample = 30\ntop = 10\nbatch = " + std::to_string(batch) +
      "\n" + extra + "[data]\nsource = \"simulate\"\ndgp = \"friedman1\"\nn = 120\np = 10\n[run]\nseed = 3\n";
  return parse_job(methods::catalog(), text, "job.toml");
}

std::optional<MethodResult> run_fuse(const JobConfig& job, const RunControl& control, int threads = 1) {
  Context context;
  context.seed = job.run.seed;
  context.threads = threads;
  SoloComm comm;
  LocalExecutor executor(threads);
  const std::string job_text = dump_job(job);
  return methods::find("fuse").run(MethodRun{job, job_text, context, comm, executor, control, {}});
}

void expect_same_result(const MethodResult& a, const MethodResult& b) {
  BOOST_TEST(a.importance == b.importance);
  BOOST_TEST(a.rank == b.rank);
  BOOST_TEST(a.selected == b.selected);
  BOOST_REQUIRE(a.datasets.size() == b.datasets.size());
  for (std::size_t i = 0; i < a.datasets.size(); ++i) {
    BOOST_TEST_CONTEXT("dataset " << a.datasets[i].name) {
      BOOST_TEST((a.datasets[i].values == b.datasets[i].values));
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fuse_resume)

// The iterations done after `rounds` rounds of `batch` with the default two searches of 45 (a round never spans two).
std::size_t done_after(int rounds, int batch) {
  const int per_search = (45 + batch - 1) / batch;
  if (rounds <= per_search) return static_cast<std::size_t>(std::min(rounds * batch, 45));
  return 45 + static_cast<std::size_t>((rounds - per_search) * batch);
}

BOOST_AUTO_TEST_CASE(a_run_resumed_after_any_round_equals_the_uninterrupted_run) {
  // 90 iterations in two searches of 45 (select = "shadow"): stops within search 0, at its end (round 45 of batch 1,
  // 12 of batch 4) and within search 1.
  for (int batch : {1, 4}) {
    const JobConfig job = fuse_job(batch);
    const MethodResult whole = *run_fuse(job, {});
    const std::vector<int> stops = batch == 1 ? std::vector<int>{1, 5, 17, 45, 46} : std::vector<int>{1, 5, 12, 13, 17};
    for (int stop_after : stops) {
      BOOST_TEST_CONTEXT("batch " << batch << ", stopped after round " << stop_after) {
        ScratchFile file;
        RunControl control;
        control.checkpoint_path = file.path.string();
        int rounds = 0;
        control.stop_requested = [&] { return ++rounds >= stop_after; };
        const MethodResult cut = *run_fuse(job, control);
        BOOST_TEST(interrupted(cut));
        const fuse::FuseCheckpoint saved = fuse::read_fuse_checkpoint(file.path.string());
        BOOST_TEST(saved.reward.size() == done_after(stop_after, batch));
        control.stop_requested = {};
        control.resume = true;
        const MethodResult resumed = *run_fuse(job, control, 2);
        BOOST_TEST(!interrupted(resumed));
        expect_same_result(resumed, whole);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(periodic_checkpoints_hold_whole_rounds) {
  ScratchFile file;
  RunControl control;
  control.checkpoint_path = file.path.string();
  control.checkpoint_every = 4;
  run_fuse(fuse_job(4), control);
  // Two searches of 45 iterations in rounds of 4 (11 of 4 and one of 1 each): the last periodic checkpoint is after
  // round 20, search 1's eighth, iteration 45 + 32 = 77.
  BOOST_TEST(fuse::read_fuse_checkpoint(file.path.string()).reward.size() == 77u);
  // One search: 90 iterations in rounds of 4, the last periodic checkpoint after round 20, iteration 80.
  run_fuse(fuse_job(4, "searches = 1\n"), control);
  BOOST_TEST(fuse::read_fuse_checkpoint(file.path.string()).reward.size() == 80u);
}

BOOST_AUTO_TEST_CASE(another_jobs_or_a_broken_checkpoint_is_refused) {
  ScratchFile file;
  RunControl control;
  control.checkpoint_path = file.path.string();
  control.stop_requested = [] { return true; };
  run_fuse(fuse_job(1), control);
  control.stop_requested = {};
  control.resume = true;
  try {
    run_fuse(fuse_job(1, "k = 3\n"), control);
    BOOST_FAIL("another job's checkpoint was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("method.k (checkpoint 5, this job 3)") != std::string::npos, e.what());
  }
  // A reward that is not an AUC.
  fuse::FuseCheckpoint bad = fuse::read_fuse_checkpoint(file.path.string());
  bad.reward = {0.5, 1.5};
  fuse::write_fuse_checkpoint(file.path.string(), bad);
  BOOST_CHECK_THROW(fuse::read_fuse_checkpoint(file.path.string()), InputError);
  // Rewards that are not whole rounds of the job's batch (the job's own key, so only the count is wrong).
  control.resume = false;
  control.stop_requested = [] { return true; };
  run_fuse(fuse_job(4), control);
  fuse::FuseCheckpoint partial = fuse::read_fuse_checkpoint(file.path.string());
  partial.reward = {0.5, 0.6, 0.7};
  fuse::write_fuse_checkpoint(file.path.string(), partial);
  control.resume = true;
  control.stop_requested = {};
  try {
    run_fuse(fuse_job(4), control);
    BOOST_FAIL("a partial round was accepted");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("not whole rounds of method.batch = 4") != std::string::npos, e.what());
  }
  // Not a checkpoint at all.
  fs::remove(file.path);
  BOOST_CHECK_THROW(run_fuse(fuse_job(1), control), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
