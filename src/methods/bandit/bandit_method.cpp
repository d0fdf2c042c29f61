// The bandit of [Wu] (TS / TTTS over Beta posteriors, model-agnostic permutation rewards; TVS's oracles of
// [TVS] as policies) as a method: its keys are the [reward], [bandit] and [tuning] sections, its run is the
// round driver (round_driver.hpp) — in this process, or as the coordinator/worker protocol of protocol.cpp when the job
// has several ranks — and its result is the run state seen through bandit_result.hpp.
#include "config/schema.hpp"
#include "core/error.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/bandit_result.hpp"
#include "methods/bandit/bandit_source.hpp"
#include "methods/bandit/protocol.hpp"
#include "methods/method.hpp"

namespace bfs {
namespace {

/// In-memory data (MethodRun::data): this process alone, on a source made from it as run_local makes one from [data].
RunResult run_on_given_data(const MethodRun& run) {
  BFS_CHECK(run.comm.size() == 1, "in-memory data on ", run.comm.size(), " ranks");
  const auto source = make_bandit_source(run.job, run.context.seed, run.data);
  return run_local(run.job, run.job_text, run.context, *source, run.on_round, run.control);
}

class BanditMethod final : public Method {
 public:
  MethodDescription describe() const override { return bandit_description(); }

  void validate(const JobConfig& job) const override { validate_bandit_sections(job); }

  std::optional<MethodResult> run(const MethodRun& run) const override {
    std::optional<RunResult> state =
        run.data ? run_on_given_data(run)
                 : bandit::run_distributed(run.comm, run.job, run.job_text, run.context, run.control, run.on_round);
    if (!state) return std::nullopt;
    MethodResult result = bandit::to_method_result(*state);
    bandit::add_credible_interval(*state, run.job.run.interval, result);
    if (run.job.data.knockoffs != Knockoffs::None) bandit::add_knockoff_facts(result);
    return result;
  }
};

}  // namespace

std::unique_ptr<Method> make_bandit_method() {
  return std::make_unique<BanditMethod>();
}

}  // namespace bfs
