#pragma once
// Permutation importance, [Wu Alg. 3]: π_k = (1/B) Σ_b [R²(y, M(D_out)) − R²(y, M(D_out with feature k
// permuted))], with R² replaced by the request's metric for binary targets (the drop in AUC or accuracy, the rise
// in log-loss; importance/metrics.hpp metric_drop). A group of columns (a bundle of correlated features) is permuted
// together with one row permutation.
//
// Permutations are drawn from the stream (seed, round, slot, Permutation, stream_id) of each group, B in a row, so
// every path — the general one and the exact fast paths of fast_paths.hpp — sees the same permutations and gives
// the same numbers, whatever the thread count.
#include <cstdint>
#include <span>
#include <vector>

#include "core/task.hpp"
#include "core/types.hpp"
#include "estimators/estimator.hpp"

namespace bfs {

/// Which path permutation_importance() may take: Auto uses the model's exact fast path when it has one (trees,
/// linear, MLP first layer; see fast_paths.hpp), Generic always re-predicts permuted copies (tests, benchmarks).
enum class ImportancePath { Auto, Generic };

/// The path that actually ran.
enum class ImportanceMethod { Generic, Trees, Linear, Mlp };

struct ImportanceRequest {
  const Model* model = nullptr;
  const Matrix* X_test = nullptr;  ///< test rows × the model's columns
  const Vector* y_test = nullptr;
  /// Column groups of X_test to permute; each group gets one score. Usually singletons {j}.
  std::vector<std::vector<Index>> groups;
  /// Stream id of each group (the global feature id of its first column), for the permutation streams.
  std::vector<std::uint64_t> stream_ids;
  int repeats = 10;
  /// The metric whose drop is scored (R² for regression; AUC, log-loss or accuracy on P(y = 1) for binary).
  Metric metric = Metric::R2;
  std::uint64_t seed = 0;
  std::uint64_t round = 0;
  std::uint64_t slot = 0;
  int threads = 1;
  ImportancePath path = ImportancePath::Auto;
};

struct ImportanceResult {
  double baseline = 0.0;       ///< the metric on the unpermuted test set
  std::vector<double> scores;  ///< mean drop in the metric per group (metric_drop: skill lost)
  /// The B drops of each group, group-major (drops[g·B + b]); scores[g] is their sum in repeat order over B. A group
  /// no test row's prediction depends on has B exact zeros. (reward.null = "paired" tests them.)
  std::vector<double> drops;
  ImportanceMethod method = ImportanceMethod::Generic;

  /// The B drops of group g.
  std::span<double> drops_of(std::size_t g, int repeats) {
    return {drops.data() + g * static_cast<std::size_t>(repeats), static_cast<std::size_t>(repeats)};
  }
  std::span<const double> drops_of(std::size_t g, int repeats) const {
    return {drops.data() + g * static_cast<std::size_t>(repeats), static_cast<std::size_t>(repeats)};
  }
};

/// A result of `method` before any group is scored: the metric on the unpermuted predictions y_hat as the baseline
/// and zero drops (every path, general or fast, starts from this, fills `drops` and ends with finish_scores).
ImportanceResult unscored_result(const ImportanceRequest& request, const Vector& y_hat, ImportanceMethod method);

/// scores[g] = (Σ_b drops[g·B + b]) / B, summed in repeat order: the same arithmetic on every path.
void finish_scores(ImportanceResult& result, int repeats);

/// The B permutations of the test rows for one group, in order.
std::vector<std::vector<std::int64_t>> importance_permutations(const ImportanceRequest& request, std::size_t group);

/// Predicts the unpermuted test set once, then takes the model's exact fast path (request.path == Auto and the
/// model has one) or else the general path: for each group the B permuted copies of the test set are stacked into
/// one matrix and predicted in one call; groups run in parallel when the model allows concurrent predictions.
ImportanceResult permutation_importance(const ImportanceRequest& request);

/// Singleton groups {0}, {1}, ..., {k−1}.
std::vector<std::vector<Index>> singleton_groups(Index k);

}  // namespace bfs
