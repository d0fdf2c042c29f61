#include "methods/bandit/coordinator_state.hpp"

#include <algorithm>

namespace bfs {

CoordinatorState::CoordinatorState(Index p, const BanditConfig& bandit, std::uint64_t seed, FeatureSet truth,
                                   bool has_truth)
    : posterior_(p, bandit.prior_alpha, bandit.prior_beta),
      policy_(PolicySettings::from(bandit)),
      selection_(SelectionRule::from(bandit)),
      stopping_(bandit.stop, bandit.stop_window, truth, has_truth, selection_),
      seed_(seed),
      arms_per_round_(bandit.arms_per_round),
      unplayed_as_failures_(bandit.unplayed_as_failures),
      truth_(std::move(truth)),
      has_truth_(has_truth) {}

std::vector<ArmDraw> CoordinatorState::draw_round(std::int32_t round) const {
  std::vector<ArmDraw> draws;
  draws.reserve(static_cast<std::size_t>(arms_per_round_));
  for (int slot = 0; slot < arms_per_round_; ++slot)
    draws.push_back(
        policy_.choose(posterior_, seed_, static_cast<std::uint64_t>(round), static_cast<std::uint64_t>(slot)));
  return draws;
}

void CoordinatorState::apply(const FeatureSet& arm, const std::vector<std::uint8_t>& rewards,
                             const EvaluationRecord& record) {
  posterior_.update(arm, rewards, unplayed_as_failures_);
  records_.push_back(record);
}

bool CoordinatorState::end_round(std::int32_t round, std::int32_t period) {
  rounds_done_ = round;
  const std::vector<double> means = posterior_.means();
  for (double m : means) trajectory_.push_back(static_cast<float>(m));
  round_period_.push_back(period);
  if (has_truth_ && separation_round_ < 0 && separates(means, truth_, selection_)) separation_round_ = round;
  return stopping_.observe(means);
}

void CoordinatorState::restore(const RunResult& checkpoint) {
  posterior_ = BetaPosterior(checkpoint.alpha, checkpoint.beta);
  trajectory_ = checkpoint.trajectory;
  round_period_ = checkpoint.iteration_period;
  records_ = checkpoint.evaluations;
  rounds_done_ = checkpoint.iterations;
  separation_round_ = checkpoint.resume.separation_round;
  stopping_.last_key = checkpoint.resume.stop_key;
  stopping_.stable_count = checkpoint.resume.stable_count;
}

void CoordinatorState::fill_result(RunResult& result) const {
  result.alpha = posterior_.alphas();
  result.beta = posterior_.betas();
  result.trajectory = trajectory_;
  result.iteration_period = round_period_;
  result.evaluations = records_;
  result.iterations = rounds_done_;
  result.selected = selected_set(posterior_.means(), selection_);
  result.resume.stop_key = stopping_.last_key;
  result.resume.stable_count = stopping_.stable_count;
  result.resume.separation_round = separation_round_;
  if (has_truth_) {
    FeatureSet truth = truth_;
    std::sort(truth.begin(), truth.end());
    result.truth = truth;
    result.metrics = truth_metrics(result.selected, truth);
    result.metrics.separation_iteration = separation_round_;
  }
}

}  // namespace bfs
