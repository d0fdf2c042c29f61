#pragma once
// Exact fast paths of permutation importance ([Wu Alg. 3], docs/design.md §3). Each one uses the same
// permutations as the general path (importance_permutations) and the same R² arithmetic, and only avoids
// re-predicting what a permutation cannot change:
//
//  - Tree ensembles (Model::trees()): per-tree predictions of the test rows are computed once; for a group, only the
//    (row, tree) pairs whose original path meets a node splitting on one of its columns are looked at, and a row is
//    re-walked only below the first such node where its permuted value turns the other way (tree_importance.cpp);
//    the prediction of an affected row is then re-summed from its first changed
//    tree on, in exactly the model's own summation (double for predict_ensemble, float32 in tree order for XGBoost:
//    which one is found by checking the unpermuted predictions bit for bit, else the general path runs). So the
//    permuted predictions, and hence the R² drops, are bit-identical to brute force. A column no test row's path
//    meets has importance exactly 0 at no cost.
//  - Linear models (Model::linear()), identity link: ŷ' = ŷ + Σ_{j∈group} coef_j·(x_perm(i),j − x_ij), O(n) per
//    repeat; zero coefficients give exactly 0 at no cost. Equal to brute force up to rounding (~1e-16 relative in ŷ').
//  - Linear models, logistic link (binary lasso): ŷ' = σ(m') on the margin m = intercept + Σ_j coef_j·x_j, with σ =
//    detail::logistic, the function predict() applies. The margin update m' = m + Σ_{j∈group} coef_j·(x_perm − x)
//    would be exact only up to rounding, and AUC and accuracy are step functions of the margins: rows whose
//    permuted margins tie exactly under predict (a discrete or 0/1 column) would be ordered by rounding noise. So
//    the update instead resumes predict's own sum (intercept first, nonzero coefficients in ascending column) from
//    the first coefficient of the group: the prefix before it is computed once per group and shared by the repeats,
//    the tail is re-summed with the permuted values, O(n·(tail length)) per repeat. The margins, probabilities and
//    hence every metric are BIT-IDENTICAL to brute force. The unpermuted margins are checked to give back predict's
//    probabilities bit for bit (never by inverting σ); a model that does not (another summation) takes the general
//    path.
//  - MLP (MlpModel with first_layer()): Z' = Z + W[:,j]·(x_perm − x)ᵀ on the first-layer pre-activations Z = W x + b,
//    then the rest of the network (MlpModel::predict_from_first_preactivation, output σ included for a binary MLP).
//    Equal to brute force up to rounding (~1e-15 relative in the output margin), so R² and log-loss agree to
//    ~1e-12; AUC and accuracy agree unless two rows' outputs are within rounding of each other (or of 0.5).
//
// Groups run in parallel over request.threads OpenMP threads; a group's score depends only on its own permutations
// and is reduced over repeats in order, so results do not depend on the thread count.
#include <optional>

#include "core/types.hpp"
#include "estimators/estimator.hpp"
#include "importance/permutation.hpp"

namespace bfs {

class MlpModel;

/// The model's exact fast path, or nullopt when it has none (then the caller takes the general path).
/// y_hat = request.model->predict(*request.X_test), computed once by the caller.
std::optional<ImportanceResult> fast_permutation_importance(const ImportanceRequest& request, const Vector& y_hat);

/// The individual paths (fast_permutation_importance dispatches to them). tree_permutation_importance returns
/// nullopt when the ensemble does not reproduce y_hat bit for bit in either known summation.
std::optional<ImportanceResult> tree_permutation_importance(const ImportanceRequest& request,
                                                            const TreeEnsemble& ensemble, const Vector& y_hat);
ImportanceResult linear_permutation_importance(const ImportanceRequest& request, const LinearStructure& linear,
                                               const Vector& y_hat);
/// The logistic-link path; nullopt when the margins summed in predict's order do not reproduce y_hat bit for bit.
std::optional<ImportanceResult> logistic_linear_permutation_importance(const ImportanceRequest& request,
                                                                       const LinearStructure& linear,
                                                                       const Vector& y_hat);
ImportanceResult mlp_permutation_importance(const ImportanceRequest& request, const MlpModel& model,
                                            const Vector& y_hat);

namespace detail {
/// One term of Algorithm 3: the drop from `baseline` (the metric on ŷ) to the metric on ŷ with the group permuted
/// (the segment at offset of y_permuted), computed exactly as the general path does.
double metric_drop(const ImportanceRequest& request, double baseline, const Vector& y_permuted, Index offset = 0);
}  // namespace detail

}  // namespace bfs
