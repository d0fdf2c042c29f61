#pragma once
// The progress record a method hands its caller after each unit of its work (the CLI prints it as a progress line).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

namespace bfs {

/// What a method has after a unit of its work — a bandit round, a FIRST forward step, a FUSE batch of iterations, a
/// wave of features scored by cmab-scores — each field the method's own at that point.
struct RoundReport {
  std::int32_t round = 0;         ///< units done (a resumed run reports from where it resumed)
  std::int32_t total_rounds = 0;  ///< units scheduled (a method may stop earlier)
  /// What one unit is, singular, for the progress line ("iteration 3/40", "step 2/10", "feature 12/50").
  std::string_view unit = "iteration";
  /// The name of `value`, the method's progress quantity: the bandit's last evaluation's test metric ("r2", "auc"),
  /// FIRST's explained variance of the forward set, FUSE's last reward, the fraction cmab-scores has scored.
  std::string_view label;
  double value = 0.0;
  /// The features the method selects at this point; none while it has no selection yet (FUSE and cmab-scores select
  /// once their search or scoring is done, and say so in their last report).
  std::optional<std::size_t> selected;
  std::int32_t period = -1;             ///< the data period of the unit, for a method that walks periods; -1 none
  std::optional<std::size_t> set_size;  ///< the size of the feature set the unit evaluated (the bandit's |S|)
  bool last = false;                    ///< the method's last report of a finished run: `selected` is its result's
};

using RoundCallback = std::function<void(const RoundReport&)>;

}  // namespace bfs
