#pragma once
// Out-of-sample metrics (docs/design.md §3 "Task"). Binary metrics take 0/1 labels y and predicted probabilities P(y =
// 1).
#include "core/task.hpp"
#include "core/types.hpp"

namespace bfs {

/// Coefficient of determination R² = 1 − SSE/SST with SST about the mean of y (scikit-learn's r2_score).
/// A constant y (SST = 0) gives 1 for a perfect prediction and 0 otherwise, as scikit-learn does.
double r2_score(const Vector& y, const Vector& y_hat);
/// Same, on the segment [offset, offset + y.size()) of a stacked prediction vector.
double r2_score(const Vector& y, const Vector& y_hat, Index offset);

/// Area under the ROC curve = P(score of a random positive > score of a random negative), ties counting ½
/// (the Mann–Whitney U statistic / (n₊ n₋), scikit-learn's roc_auc_score). One class only: 0.5 (no ranking to judge).
double auc_score(const Vector& y, const Vector& p_hat, Index offset = 0);
/// Mean binary cross-entropy −(1/n) Σ y log p + (1−y) log(1−p), p clipped to [1e-15, 1 − 1e-15] (scikit-learn).
double log_loss_score(const Vector& y, const Vector& p_hat, Index offset = 0);
/// Share of rows whose predicted class equals y: class 1 when p > 0.5 (scikit-learn's predict: argmax, ties
/// to class 0).
double accuracy_score(const Vector& y, const Vector& p_hat, Index offset = 0);

/// The metric's value on y and the segment of y_hat at offset.
double metric_score(Metric metric, const Vector& y, const Vector& y_hat, Index offset = 0);
/// Skill lost from `baseline` to `permuted`: baseline − permuted, or permuted − baseline for log-loss (a loss).
/// Permutation importance is the mean of this over repeats ([Wu Alg. 3] with R² in place of the metric).
inline double metric_drop(Metric metric, double baseline, double permuted) {
  return metric == Metric::LogLoss ? permuted - baseline : baseline - permuted;
}

}  // namespace bfs
