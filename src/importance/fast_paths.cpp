// Dispatch to the exact fast paths, and the two closed-form ones: linear models and the MLP's first layer
// (see fast_paths.hpp; the tree path is in tree_importance.cpp).
#include "importance/fast_paths.hpp"

#include <cstdint>

#include "core/error.hpp"
#include "estimators/detail/binary.hpp"
#include "estimators/mlp.hpp"
#include "importance/metrics.hpp"

namespace bfs {

namespace detail {
double metric_drop(const ImportanceRequest& request, double baseline, const Vector& y_permuted, Index offset) {
  return bfs::metric_drop(request.metric, baseline, metric_score(request.metric, *request.y_test, y_permuted, offset));
}
}  // namespace detail

std::optional<ImportanceResult> fast_permutation_importance(const ImportanceRequest& request, const Vector& y_hat) {
  if (request.X_test->rows() == 0) return std::nullopt;
  if (const TreeEnsemble* trees = request.model->trees()) return tree_permutation_importance(request, *trees, y_hat);
  if (const LinearStructure* linear = request.model->linear()) {
    if (linear->link == Link::Logistic) return logistic_linear_permutation_importance(request, *linear, y_hat);
    return linear_permutation_importance(request, *linear, y_hat);
  }
  if (request.model->first_layer() != nullptr) {
    if (const auto* mlp = dynamic_cast<const MlpModel*>(request.model)) {
      return mlp_permutation_importance(request, *mlp, y_hat);
    }
  }
  return std::nullopt;
}

ImportanceResult linear_permutation_importance(const ImportanceRequest& request, const LinearStructure& linear,
                                               const Vector& y_hat) {
  const Matrix& X = *request.X_test;
  const Index n = X.rows(), p = X.cols();
  BFS_CHECK(linear.coef.size() == p);
  ImportanceResult result = unscored_result(request, y_hat, ImportanceMethod::Linear);
  const auto groups = static_cast<std::int64_t>(request.groups.size());

#pragma omp parallel num_threads(request.threads > 1 && groups > 1 ? request.threads : 1)
  {
    Vector y_perm(n);
    std::vector<Index> active;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t g = 0; g < groups; ++g) {
      const auto group = static_cast<std::size_t>(g);
      active.clear();
      for (Index j : request.groups[group]) {
        if (linear.coef[j] != 0.0) active.push_back(j);
      }
      if (active.empty()) continue;  // the prediction ignores these columns: exactly 0
      const auto perms = importance_permutations(request, group);
      const std::span<double> drops = result.drops_of(group, request.repeats);
      for (std::size_t b = 0; b < perms.size(); ++b) {
        const auto& perm = perms[b];
        for (Index i = 0; i < n; ++i) {
          const float* row = X.data() + i * p;
          const float* src = X.data() + perm[static_cast<std::size_t>(i)] * p;
          double delta = 0.0;
          for (Index j : active) {
            delta += linear.coef[j] * (static_cast<double>(src[j]) - static_cast<double>(row[j]));
          }
          y_perm[i] = y_hat[i] + delta;
        }
        drops[b] = detail::metric_drop(request, result.baseline, y_perm);
      }
    }
  }
  finish_scores(result, request.repeats);
  return result;
}

namespace {

/// The margins m_i = intercept + Σ_{t<k} coef_{nz[t]}·x_{i,nz[t]} of the first k nonzero coefficients, in
/// LassoModel::predict's order (intercept first, ascending column).
void margin_prefix(const Matrix& X, const LinearStructure& linear, const std::vector<Index>& nz, std::size_t k,
                   Vector& out) {
  const Index p = X.cols();
  for (Index i = 0; i < X.rows(); ++i) {
    const float* row = X.data() + i * p;
    double sum = linear.intercept;
    for (std::size_t t = 0; t < k; ++t) sum += linear.coef[nz[t]] * static_cast<double>(row[nz[t]]);
    out[i] = sum;
  }
}

}  // namespace

std::optional<ImportanceResult> logistic_linear_permutation_importance(const ImportanceRequest& request,
                                                                       const LinearStructure& linear,
                                                                       const Vector& y_hat) {
  const Matrix& X = *request.X_test;
  const Index n = X.rows(), p = X.cols();
  BFS_CHECK(linear.coef.size() == p);
  std::vector<Index> nz;
  for (Index j = 0; j < p; ++j) {
    if (linear.coef[j] != 0.0) nz.push_back(j);
  }
  {  // The margins, summed as predict sums them, must give back predict's probabilities bit for bit.
    Vector m(n);
    margin_prefix(X, linear, nz, nz.size(), m);
    for (Index i = 0; i < n; ++i) {
      if (detail::logistic(m[i]) != y_hat[i]) return std::nullopt;
    }
  }
  ImportanceResult result = unscored_result(request, y_hat, ImportanceMethod::Linear);
  const auto groups = static_cast<std::int64_t>(request.groups.size());

#pragma omp parallel num_threads(request.threads > 1 && groups > 1 ? request.threads : 1)
  {
    Vector prefix(n), y_perm(n);
    std::vector<char> in_group(static_cast<std::size_t>(p), 0);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t g = 0; g < groups; ++g) {
      const auto group = static_cast<std::size_t>(g);
      for (Index j : request.groups[group]) in_group[static_cast<std::size_t>(j)] = 1;
      std::size_t first = 0;  // position in nz of the first coefficient the permutation can change
      while (first < nz.size() && !in_group[static_cast<std::size_t>(nz[first])]) ++first;
      if (first < nz.size()) {
        margin_prefix(X, linear, nz, first, prefix);  // the unchanged part of the sum, shared by the B repeats
        const auto perms = importance_permutations(request, group);
        const std::span<double> drops = result.drops_of(group, request.repeats);
        for (std::size_t b = 0; b < perms.size(); ++b) {
          const auto& perm = perms[b];
          for (Index i = 0; i < n; ++i) {
            const float* row = X.data() + i * p;
            const float* src = X.data() + perm[static_cast<std::size_t>(i)] * p;
            double sum = prefix[i];
            for (std::size_t t = first; t < nz.size(); ++t) {
              const Index j = nz[t];
              sum += linear.coef[j] * static_cast<double>(in_group[static_cast<std::size_t>(j)] ? src[j] : row[j]);
            }
            y_perm[i] = detail::logistic(sum);
          }
          drops[b] = detail::metric_drop(request, result.baseline, y_perm);
        }
      }  // else the prediction ignores these columns: exactly 0
      for (Index j : request.groups[group]) in_group[static_cast<std::size_t>(j)] = 0;
    }
  }
  finish_scores(result, request.repeats);
  return result;
}

ImportanceResult mlp_permutation_importance(const ImportanceRequest& request, const MlpModel& model,
                                            const Vector& y_hat) {
  const Matrix& X = *request.X_test;
  const Index n = X.rows(), p = X.cols();
  const FirstLayer& first = *model.first_layer();
  const Eigen::MatrixXd& W = first.weights;
  const Index h = W.rows();
  BFS_CHECK(W.cols() == p);
  ImportanceResult result = unscored_result(request, y_hat, ImportanceMethod::Mlp);

  // Z = W x + b for every test row (h × n), by explicit loops: Eigen's GEMM may split over OpenMP threads, which
  // would make the rounding of Z depend on the thread count.
  Eigen::MatrixXd Z(h, n);
  for (Index i = 0; i < n; ++i) {
    auto z = Z.col(i);
    z = first.bias;
    const float* row = X.data() + i * p;
    for (Index j = 0; j < p; ++j) {
      const double x = row[j];
      if (x != 0.0) z += W.col(j) * x;
    }
  }

  const auto groups = static_cast<std::int64_t>(request.groups.size());
#pragma omp parallel num_threads(request.threads > 1 && groups > 1 ? request.threads : 1)
  {
    // The B permuted copies side by side (h × B·n), finished in one call: one pass of the later layers per group.
    Eigen::MatrixXd Z_perm(h, n * request.repeats);
    std::vector<Index> active;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t g = 0; g < groups; ++g) {
      const auto group = static_cast<std::size_t>(g);
      active.clear();
      for (Index j : request.groups[group]) {
        if (!W.col(j).isZero(0.0)) active.push_back(j);
      }
      if (active.empty()) continue;  // the network ignores these inputs: exactly 0
      const auto perms = importance_permutations(request, group);
      for (int b = 0; b < request.repeats; ++b) {
        const auto& perm = perms[static_cast<std::size_t>(b)];
        auto block = Z_perm.middleCols(static_cast<Index>(b) * n, n);
        block = Z;
        for (Index i = 0; i < n; ++i) {
          const float* row = X.data() + i * p;
          const float* src = X.data() + perm[static_cast<std::size_t>(i)] * p;
          for (Index j : active) {
            const double dx = static_cast<double>(src[j]) - static_cast<double>(row[j]);
            if (dx != 0.0) block.col(i) += W.col(j) * dx;
          }
        }
      }
      const Vector y_perm = model.predict_from_first_preactivation(Z_perm);
      const std::span<double> drops = result.drops_of(group, request.repeats);
      for (int b = 0; b < request.repeats; ++b) {
        drops[static_cast<std::size_t>(b)] =
            detail::metric_drop(request, result.baseline, y_perm, static_cast<Index>(b) * n);
      }
    }
  }
  finish_scores(result, request.repeats);
  return result;
}

}  // namespace bfs
