#pragma once
// What is being learned (DESIGN §4 "Task"): a regression target or a binary one, and the out-of-sample metric that
// scores a fit. Both are decided once, at the config boundary (data.task, reward.metric), and everything below
// follows them: estimators fit in regression or classification mode, importance measures the drop in the metric.
#include <array>
#include <string_view>

namespace bfs {

/// data.task. Binary targets hold 0/1 after label validation (data/labels.hpp); a binary model predicts P(y = 1).
enum class Task { Regression, Binary };

/// reward.metric: R² (regression), AUC, log-loss, accuracy (binary). Higher is better for all but log-loss.
enum class Metric { R2, Auc, LogLoss, Accuracy };

/// The name ↔ enum tables used by the config parser, result attributes and messages (declared once).
inline constexpr std::array<std::pair<Task, std::string_view>, 2> kTaskNames = {
    {{Task::Regression, "regression"}, {Task::Binary, "binary"}}};
inline constexpr std::array<std::pair<Metric, std::string_view>, 4> kMetricNames = {
    {{Metric::R2, "r2"}, {Metric::Auc, "auc"}, {Metric::LogLoss, "log_loss"}, {Metric::Accuracy, "accuracy"}}};

constexpr std::string_view name_of(Task task) {
  for (const auto& [value, name] : kTaskNames)
    if (value == task) return name;
  return "?";
}
constexpr std::string_view name_of(Metric metric) {
  for (const auto& [value, name] : kMetricNames)
    if (value == metric) return name;
  return "?";
}

/// The default metric of a task: R² for regression, AUC for binary targets.
constexpr Metric default_metric(Task task) { return task == Task::Binary ? Metric::Auc : Metric::R2; }
/// True when the metric scores predictions of this task (R² only regression; AUC, log-loss, accuracy only binary).
constexpr bool metric_fits_task(Metric metric, Task task) { return (metric == Metric::R2) == (task == Task::Regression); }

}  // namespace bfs
