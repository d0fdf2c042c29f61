#pragma once
// The coordinator's side of the round protocol (docs/design.md §2) as a pure object: the posterior, the policy and the
// stopping rule, plus the trajectory so far. A round draws G = arms_per_round super-arms from the same posterior
// (slots 0..G−1), all are evaluated, then every reward is applied in slot order and one trajectory row recorded.
// The local runner and the MPI coordinator (protocol.cpp) drive the same object, which is what makes them agree bit for
// bit.
#include <cstdint>
#include <vector>

#include "config/job_config.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/beta_posterior.hpp"
#include "methods/bandit/policy.hpp"
#include "methods/bandit/run_result.hpp"
#include "methods/bandit/stopping.hpp"
#include "run/truth_metrics.hpp"

namespace bfs {

class CoordinatorState {
 public:
  CoordinatorState(Index p, const BanditConfig& bandit, std::uint64_t seed, FeatureSet truth, bool has_truth);

  /// The G super-arms of `round` (1-based).
  std::vector<ArmDraw> draw_round(std::int32_t round) const;
  /// Applies one evaluated arm's rewards (call in slot order).
  void apply(const FeatureSet& arm, const std::vector<std::uint8_t>& rewards, const EvaluationRecord& record);
  /// Records an evaluation that updates no posterior (discarded by reward.min_r2).
  void record(const EvaluationRecord& record) { records_.push_back(record); }
  /// Closes the round: records the trajectory row, updates truth separation; true when the stopping rule fires.
  bool end_round(std::int32_t round, std::int32_t period);

  const BetaPosterior& posterior() const { return posterior_; }
  const StoppingRule& stopping() const { return stopping_; }
  /// What makes a feature selected (0.5, or TVS's C̃ and q): the selected set, stopping and truth metrics use it.
  const SelectionRule& selection() const { return selection_; }
  /// Continues from a checkpoint written by fill_result (with its resume state).
  void restore(const RunResult& checkpoint);
  /// Moves the accumulated trajectory and records into `result` (posterior, selected set, truth metrics).
  void fill_result(RunResult& result) const;

 private:
  BetaPosterior posterior_;
  Policy policy_;
  SelectionRule selection_;
  StoppingRule stopping_;
  std::uint64_t seed_;
  int arms_per_round_;
  bool unplayed_as_failures_;
  FeatureSet truth_;
  bool has_truth_;
  std::int32_t rounds_done_ = 0;
  std::int32_t separation_round_ = -1;
  std::vector<float> trajectory_;
  std::vector<std::int32_t> round_period_;
  std::vector<EvaluationRecord> records_;
};

}  // namespace bfs
