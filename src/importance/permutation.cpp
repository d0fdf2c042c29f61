#include "importance/permutation.hpp"

#include <omp.h>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "estimators/missing.hpp"
#include "importance/fast_paths.hpp"
#include "importance/metrics.hpp"

namespace bfs {

std::vector<std::vector<Index>> singleton_groups(Index k) {
  std::vector<std::vector<Index>> groups(static_cast<std::size_t>(k));
  for (Index j = 0; j < k; ++j) groups[static_cast<std::size_t>(j)] = {j};
  return groups;
}

ImportanceResult unscored_result(const ImportanceRequest& request, const Vector& y_hat, ImportanceMethod method) {
  ImportanceResult result;
  result.method = method;
  result.baseline = metric_score(request.metric, *request.y_test, y_hat);
  result.scores.assign(request.groups.size(), 0.0);
  result.drops.assign(request.groups.size() * static_cast<std::size_t>(request.repeats), 0.0);
  return result;
}

void finish_scores(ImportanceResult& result, int repeats) {
  for (std::size_t g = 0; g < result.scores.size(); ++g) {
    double total = 0.0;
    for (double drop : result.drops_of(g, repeats)) total += drop;
    result.scores[g] = total / repeats;
  }
}

std::vector<std::vector<std::int64_t>> importance_permutations(const ImportanceRequest& request, std::size_t group) {
  Rng rng = Rng::stream(request.seed, request.round, request.slot, Purpose::Permutation, request.stream_ids[group]);
  std::vector<std::vector<std::int64_t>> perms;
  perms.reserve(static_cast<std::size_t>(request.repeats));
  for (int b = 0; b < request.repeats; ++b) perms.push_back(rng.permutation(request.X_test->rows()));
  return perms;
}

namespace {

/// The B metric drops of one group: B permuted copies stacked in `stacked` (reused across groups of one thread).
void group_drops(const ImportanceRequest& request, std::size_t group, double baseline, Matrix& stacked,
                 std::span<double> drops) {
  const Matrix& X = *request.X_test;
  const Index n = X.rows();
  const auto perms = importance_permutations(request, group);
  for (int b = 0; b < request.repeats; ++b) {
    auto block = stacked.middleRows(static_cast<Index>(b) * n, n);
    block = X;
    for (Index col : request.groups[group])
      for (Index i = 0; i < n; ++i) block(i, col) = X(perms[static_cast<std::size_t>(b)][i], col);
  }
  const Vector y_hat = request.model->predict(stacked);
  for (int b = 0; b < request.repeats; ++b)
    drops[static_cast<std::size_t>(b)] =
        metric_drop(request.metric, baseline, metric_score(request.metric, *request.y_test, y_hat, b * n));
}

}  // namespace

ImportanceResult permutation_importance(const ImportanceRequest& request) {
  BFS_CHECK(request.model && request.X_test && request.y_test);
  BFS_CHECK(request.groups.size() == request.stream_ids.size());
  BFS_CHECK(request.repeats >= 1);
  const Matrix& X = *request.X_test;
  // A model behind a fitted imputation (estimators/missing.hpp): its inner model's paths run on the filled test rows.
  // A column's missing cells all take its one fill value wherever a permutation moves them, so filling commutes with
  // permuting: every path gives the numbers the general path gives on the raw rows through the imputing model.
  if (const Imputation* imputation = request.model->imputation();
      imputation != nullptr && request.path == ImportancePath::Auto) {
    ImportanceRequest inner = request;
    inner.model = imputation->model;
    if (!has_missing(X)) return permutation_importance(inner);
    const Matrix filled = impute(X, imputation->fill);
    inner.X_test = &filled;
    return permutation_importance(inner);
  }
  const Vector y_hat = request.model->predict(X);  // the baseline, once per arm, shared by every path
  if (request.path == ImportancePath::Auto) {
    if (auto fast = fast_permutation_importance(request, y_hat)) return std::move(*fast);
  }
  ImportanceResult result = unscored_result(request, y_hat, ImportanceMethod::Generic);
  const auto groups = static_cast<std::int64_t>(request.groups.size());
  // NOLINTNEXTLINE(clang-analyzer-deadcode.DeadStores): read by the omp pragma below, which clang-tidy skips.
  const bool parallel = request.model->supports_concurrent_predict() && request.threads > 1 && groups > 1;

#pragma omp parallel num_threads(parallel ? request.threads : 1)
  {
    Matrix stacked(X.rows() * request.repeats, X.cols());
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t g = 0; g < groups; ++g) {
      const auto group = static_cast<std::size_t>(g);
      group_drops(request, group, result.baseline, stacked, result.drops_of(group, request.repeats));
    }
  }
  finish_scores(result, request.repeats);
  return result;
}

}  // namespace bfs
