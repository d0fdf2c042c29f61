#pragma once
// What is being learned (docs/design.md §3 "Task"): a regression target or a binary one, and the out-of-sample metric
// that scores a fit. Both are decided once, at the config boundary (data.task, reward.metric), and everything below
// follows them: estimators fit in regression or classification mode, importance measures the drop in the metric.
#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "core/enum_names.hpp"

namespace bfs {

/// data.task. Binary targets hold 0/1 after label validation (data/labels.hpp); a binary model predicts P(y = 1).
enum class Task { Regression, Binary };

/// data.positive_label: the value of a binary y that is class 1, a number (a numeric target column) or a text (a
/// target column of labels such as "up"/"down"; data/labels.hpp).
using ClassLabel = std::variant<double, std::string>;

/// reward.metric: R² (regression), AUC, log-loss, accuracy (binary). Higher is better for all but log-loss.
enum class Metric { R2, Auc, LogLoss, Accuracy };

/// The names of the values (declared once; core/enum_names.hpp turns them into name_of / enum_from_name).
constexpr std::array<std::pair<Task, std::string_view>, 2> enum_table(Task) {
  return {{{Task::Regression, "regression"}, {Task::Binary, "binary"}}};
}
constexpr std::array<std::pair<Metric, std::string_view>, 4> enum_table(Metric) {
  return {{{Metric::R2, "r2"}, {Metric::Auc, "auc"}, {Metric::LogLoss, "log_loss"}, {Metric::Accuracy, "accuracy"}}};
}

/// The default metric of a task: R² for regression, AUC for binary targets.
constexpr Metric default_metric(Task task) {
  return task == Task::Binary ? Metric::Auc : Metric::R2;
}
/// True when the metric scores predictions of this task (R² only regression; AUC, log-loss, accuracy only binary).
constexpr bool metric_fits_task(Metric metric, Task task) {
  return (metric == Metric::R2) == (task == Task::Regression);
}

}  // namespace bfs
