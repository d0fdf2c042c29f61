#include "methods/bandit/protocol.hpp"

#include <chrono>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/stopwatch.hpp"
#include "estimators/estimator.hpp"
#include "methods/bandit/arm_evaluation.hpp"
#include "methods/bandit/bandit_params.hpp"
#include "methods/bandit/bandit_source.hpp"
#include "methods/bandit/messages.hpp"
#include "methods/bandit/partitioning.hpp"
#include "methods/bandit/period_prefetcher.hpp"
#include "methods/bandit/round_driver.hpp"
#include "methods/fit_group.hpp"
#include "methods/registry.hpp"

namespace bfs::bandit {

namespace {

using Clock = std::chrono::steady_clock;
constexpr int kCoordinator = 0;

/// Rank 0's evaluator: one broadcast of the round's arms, one gather of every worker's reward bits.
class CoordinatorEvaluator final : public RoundEvaluator {
 public:
  explicit CoordinatorEvaluator(const Comm& world) : world_(world) {}

  std::vector<ArmOutcome> evaluate(std::int32_t round, int period, const std::vector<ArmDraw>& draws,
                                   Timings& timings) override {
    RoundCommand command;
    command.round = round;
    command.period = period;
    for (const auto& draw : draws) command.arms.push_back(draw.arm);
    auto start = Clock::now();
    const std::string bytes = encode(command);
    world_.broadcast(bytes, kCoordinator);
    timings.broadcast_seconds += seconds_since(start);
    timings.bytes_sent += static_cast<double>(bytes.size()) * (world_.size() - 1);

    start = Clock::now();
    const std::vector<std::string> reports = world_.gather(std::string(), kCoordinator);
    timings.gather_seconds += seconds_since(start);

    std::vector<ArmOutcome> outcomes(draws.size());
    std::vector<int> leader_pieces(draws.size(), 0);
    for (std::size_t s = 0; s < draws.size(); ++s) {
      outcomes[s].arm = draws[s].arm;
      outcomes[s].rewards.assign(draws[s].arm.size(), 0);
    }
    double slowest_model_broadcast = 0.0;
    for (const std::string& raw : reports) {
      if (raw.empty()) continue;
      timings.bytes_sent += static_cast<double>(raw.size());
      const WorkerReport report = decode_report(raw);
      timings.bytes_sent += report.bytes_sent;
      for (const ArmPiece& piece : report.pieces) {
        BFS_CHECK(piece.slot >= 0 && static_cast<std::size_t>(piece.slot) < draws.size());
        ArmOutcome& outcome = outcomes[static_cast<std::size_t>(piece.slot)];
        const auto rewards = unpack_bits(piece.reward_bits, piece.columns.size());
        for (std::size_t i = 0; i < piece.columns.size(); ++i) {
          BFS_CHECK(piece.columns[i] < outcome.rewards.size());
          outcome.rewards[piece.columns[i]] = rewards[i];
        }
        outcome.importance_seconds = std::max(outcome.importance_seconds, piece.importance_seconds);
        slowest_model_broadcast = std::max(slowest_model_broadcast, piece.broadcast_seconds);
        if (piece.from_leader) {
          ++leader_pieces[static_cast<std::size_t>(piece.slot)];
          outcome.test_score = piece.test_score;
          outcome.fit_seconds = piece.fit_seconds;
          outcome.split_seconds = piece.split_seconds;
        }
      }
    }
    timings.broadcast_seconds += slowest_model_broadcast;
    for (std::size_t s = 0; s < draws.size(); ++s)
      if (!draws[s].arm.empty() && leader_pieces[s] != 1)
        throw InternalError("round " + std::to_string(round) + ": arm slot " + std::to_string(s) + " got " +
                            std::to_string(leader_pieces[s]) + " leader reports instead of 1");
    return outcomes;
  }

  void finish() override {
    RoundCommand command;
    command.kind = RoundCommand::Kind::Finish;
    world_.broadcast(encode(command), kCoordinator);
  }

 private:
  const Comm& world_;
};

/// A worker rank: waits for round commands, evaluates its group's arms, reports reward bits to rank 0.
class Worker {
 public:
  Worker(const Comm& world, const JobConfig& job, const Context& context)
      : world_(world),
        job_(job),
        context_(context),
        layout_(make_group_layout(world.size(), bandit_config(job).arms_per_round, job.run.group_size)),
        group_(layout_.group_of(world.rank())),
        group_comm_(world.split(group_)),
        fit_group_(*group_comm_),
        source_(make_bandit_source(job, context.seed)),
        description_(source_->describe()),  // the prefetch thread owns the source from now on
        periods_(bandit_config(job).mode == Mode::Online ? source_->num_periods() : 1),
        estimator_(make_estimator(job.estimator, job.data.task, job.data.missing)),
        settings_(make_evaluation_settings(job, source_->feature_names(), context.threads)),
        prefetcher_(*source_, leader() || fit_together() ? estimator_.get() : nullptr,  // who fits prepares
                    context.threads) {}

  void run() {
    for (;;) {
      const RoundCommand command = decode_command(world_.broadcast(std::string(), kCoordinator));
      if (command.kind == RoundCommand::Kind::Finish) return;
      load_period(command.round, command.period);
      WorkerReport report;
      for (int slot : arms_of_group(layout_, group_, bandit_config(job_).arms_per_round)) {
        const FeatureSet& arm = command.arms.at(static_cast<std::size_t>(slot));
        if (!arm.empty()) evaluate_slot(command.round, slot, arm, report);
      }
      world_.gather(encode(report), kCoordinator);
    }
  }

 private:
  bool leader() const { return group_comm_->rank() == 0; }

  /// The members fit each arm together when the estimator can split its fit (random_forest, hgb) and
  /// the rewards come from importance; otherwise the leader fits alone and broadcasts the model.
  bool fit_together() const {
    return group_comm_->size() > 1 && estimator_->fits_in_group() && !evaluated_whole(settings_);
  }

  /// The round's period, then the schedule's next one loaded in the background while this one's rounds run
  /// (methods/bandit/period_prefetcher.hpp): every worker knows the schedule from the job, as rank 0 does.
  void load_period(std::int32_t round, int period) {
    if (period == prefetcher_.current_period()) return;
    const Dataset& data = prefetcher_.get(period, next_period_after(job_, periods_, round));
    check_period(data, job_,
                 bandit_config(job_).mode == Mode::Online ? "period " + std::to_string(period) + " of " + description_
                                                          : description_);
  }

  void evaluate_slot(std::int32_t round, int slot, const FeatureSet& arm, WorkerReport& report) {
    const auto seed = context_.seed;
    const auto r = static_cast<std::uint64_t>(round);
    const auto s = static_cast<std::uint64_t>(slot);
    ArmPiece piece;
    piece.slot = slot;
    piece.from_leader = leader();
    // A group of one, or a model-read reward (no importance to share): the leader evaluates the arm as the local
    // runner does.
    if (evaluated_whole(settings_) || group_comm_->size() == 1) {
      if (!leader()) return;
      const ArmOutcome outcome = evaluate_arm(prefetcher_.current(), arm, *estimator_, settings_, seed, r, s,
                                              prefetcher_.current_prepared(), prefetcher_.current_has_missing());
      piece.test_score = outcome.test_score;
      piece.fit_seconds = outcome.fit_seconds;
      piece.split_seconds = outcome.split_seconds;
      piece.importance_seconds = outcome.importance_seconds;
      for (std::size_t i = 0; i < arm.size(); ++i) piece.columns.push_back(static_cast<std::uint32_t>(i));
      piece.reward_bits = pack_bits(outcome.rewards);
      report.pieces.push_back(std::move(piece));
      return;
    }
    const ArmData arm_data =
        prepare_arm_data(prefetcher_.current(), arm, settings_, seed, r, s, /*with_train=*/leader() || fit_together());
    const ImportancePlan plan =
        make_importance_plan(arm, settings_, prefetcher_.current().layout, arm_data.shadow_source);
    piece.split_seconds = arm_data.split_seconds;
    ModelMessage message;
    const std::unique_ptr<Model> model = group_model(arm_data, arm, plan, r, s, piece, report, message);
    const auto& block = message.blocks.at(static_cast<std::size_t>(group_comm_->rank()));
    // The leader always scores (maybe an empty block): it reports R²_test, which any member computes identically.
    if (block.empty() && !leader()) return;
    BlockOutcome scored = score_block(*model, arm_data, arm, plan, block, settings_, seed, r, s);
    piece.test_score = scored.test_score;
    piece.importance_seconds = scored.importance_seconds;
    for (std::size_t i : scored.features) piece.columns.push_back(static_cast<std::uint32_t>(i));
    piece.reward_bits = pack_bits(scored.rewards);
    report.pieces.push_back(std::move(piece));
  }

  /// The arm's model on every member of the group, with the importance blocks of the members: fitted together, or
  /// fitted by the leader and broadcast (its fit and transfer times go into the leader's piece).
  std::unique_ptr<Model> group_model(const ArmData& arm_data, const FeatureSet& arm, const ImportancePlan& plan,
                                     std::uint64_t r, std::uint64_t s, ArmPiece& piece, WorkerReport& report,
                                     ModelMessage& message) {
    const auto fit = [&](const FitGroup* group) {
      const auto start = Clock::now();
      FitOptions options = fit_options_for(settings_, context_.seed, r, s, prefetcher_.current_has_missing());
      options.origin = fit_origin(arm_data, prefetcher_.current_prepared());
      options.group = group;
      std::unique_ptr<Model> model = estimator_->fit(arm_data.X_train, arm_data.y_train, options);
      piece.fit_seconds = seconds_since(start);
      message.blocks = partition_by_cost(importance_costs(*model, plan), group_comm_->size());
      return model;
    };
    if (fit_together()) {
      std::unique_ptr<Model> model = fit(&fit_group_);  // every member: the same model and blocks
      report.bytes_sent += fit_group_.take_bytes_sent();
      return model;
    }
    std::unique_ptr<Model> model;
    std::string bytes;
    if (leader()) {
      model = fit(nullptr);
      message.model = model->serialize();
      bytes = encode(message);
    }
    const auto broadcast_start = Clock::now();
    bytes = group_comm_->broadcast(std::move(bytes), 0);
    if (leader()) {
      // Only the leader's time is the transfer: a member's also includes waiting for the leader's fit.
      piece.broadcast_seconds = seconds_since(broadcast_start);
      report.bytes_sent += static_cast<double>(bytes.size()) * (group_comm_->size() - 1);
      return model;
    }
    message = decode_model_message(bytes);
    return estimator_->deserialize(message.model);
  }

  const Comm& world_;
  const JobConfig& job_;
  const Context& context_;
  GroupLayout layout_;
  int group_;
  std::unique_ptr<Comm> group_comm_;
  CommFitGroup fit_group_;  ///< the group as the estimators see it
  std::unique_ptr<DataSource> source_;
  std::string description_;
  int periods_;
  std::unique_ptr<Estimator> estimator_;
  EvaluationSettings settings_;
  PeriodPrefetcher prefetcher_;  ///< after source_: destroyed (joined) before it
};

}  // namespace

std::optional<RunResult> run_distributed(const Comm& world, const JobConfig& job, const std::string& job_text,
                                         Context& context, const RunControl& control, const RoundCallback& on_round) {
  if (world.size() == 1) return run_local(job, job_text, context, control, on_round);
  if (world.rank() != kCoordinator) {
    JobConfig tuned = job;
    if (tuning_config(job).enabled) {
      // Rank 0 tunes (or restores its checkpoint's choice) and sends the tuned estimator section; all ranks then
      // fit the same.
      tuned.estimator =
          parse_job(methods::catalog(), world.broadcast(std::string(), kCoordinator), "the tuned job").estimator;
    }
    // The coordinator is not in any group: it splits off alone (colour = groups) so the split is collective.
    Worker worker(world, tuned, context);
    worker.run();
    return std::nullopt;
  }
  const auto start = Clock::now();
  auto source = make_bandit_source(job, context.seed);
  const SourceInfo info = describe_source(*source, bandit_config(job).mode == Mode::Online);
  check_online_iterations(job, info.periods);
  JobConfig tuned = job;
  const TuningReport tuning = tune_job(tuned, *source, control, context);  // loads one period only when tuning
  if (tuning_config(job).enabled) world.broadcast(dump_job(tuned), kCoordinator);
  source.reset();  // from here on the coordinator holds no rows
  const GroupLayout layout = make_group_layout(world.size(), bandit_config(job).arms_per_round, job.run.group_size);
  const std::unique_ptr<Comm> own = world.split(layout.groups);  // collective with the workers' split
  CoordinatorEvaluator evaluator(world);
  RunResult result = drive_rounds(tuned, job_text, context, info, evaluator, on_round, control, tuning, start);
  result.ranks = world.size();
  return result;
}

}  // namespace bfs::bandit
