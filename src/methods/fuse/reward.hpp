#pragma once
// FUSE's instant reward ([FUSE §6.1, eqs. 10–11]). L = the training rows (standardised by the caller
// when method.standardize, §7.1); each iteration draws a fresh stratified validation subsample 𝒱 ⊂ L. For z ∈ 𝒱,
// s_F(z) = the number of positives among the k nearest neighbours of z in L∖{z}, Euclidean on the columns of the
// features F (a categorical feature is all its indicator columns, data/feature_layout.hpp).
// Readings: leave-one-out — z is not its own neighbour (the paper is silent, and z would leak its
// label); distance ties go to the lower row index; the squared distances are summed over F in ascending column
// order, so the order F was built in cannot change a bit. V(F) = the AUC of s_F on 𝒱 (eq. 11 with footnote 1:
// ties count ½); V(∅) = ½. s_F is an integer, so how the work is split cannot change V.
//
// Cost: brute force, O(|𝒱|·|L|·|F|) per reward (≈ 100 × 2080 × 20 ≈ 4·10⁶ multiply-adds for madelon's folds) —
// the paper's Õ(mnd) (§6.1) without its log factor. detail/knn_screen.hpp does it as one float multiply-add per
// row × column × validation row, and the exact double distance only for the rows that float screen cannot rule
// out (about k per validation row); its bound keeps the result the definition's, bit for bit.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/rng.hpp"
#include "data/feature_layout.hpp"
#include "methods/common/column_major.hpp"
#include "methods/fuse/detail/knn_screen.hpp"

namespace bfs::fuse {

/// L: column-major data (methods::column_major, standardised by methods::standardise when method.standardize:
/// §7.1 "centered and normalized (based on the training set)") and 0/1 labels.
struct TrainingSet : methods::ColumnMajor {
  std::vector<std::uint8_t> labels;
};

/// AUC (eq. 11, footnote 1) of integer scores against 0/1 labels, ties ½; ½ when either class is absent.
double auc(std::span<const std::int32_t> scores, std::span<const std::uint8_t> labels);

/// A stratified subsample of m of the rows (sorted, without replacement): round(m·n₊/n) positives, at least one of
/// each class when both exist and m ≥ 2, the rest negatives. Throws std::invalid_argument when m > rows.
std::vector<std::size_t> stratified_subsample(std::span<const std::uint8_t> labels, std::size_t m, Rng& rng);

/// The reward V(F) on a fixed L and k; F is a set of features, each the columns `layout` gives it (empty: one
/// column per feature).
class KnnReward {
 public:
  /// k must be below the number of rows (leave-one-out leaves rows − 1 candidates).
  KnnReward(TrainingSet data, std::int32_t k, FeatureLayout layout = {});
  const TrainingSet& data() const { return data_; }
  std::int32_t k() const { return k_; }
  /// p, the number of features the search chooses from.
  std::int32_t features() const { return static_cast<std::int32_t>(layout_.features(static_cast<Index>(data_.cols))); }
  /// s_F(z) (eq. 10, leave-one-out) for each validation row, in `validation`'s order.
  std::vector<std::int32_t> scores(std::span<const std::int32_t> features,
                                   std::span<const std::size_t> validation) const;
  /// V(F) on the validation rows (½ for F = ∅).
  double value(std::span<const std::int32_t> features, std::span<const std::size_t> validation) const;

 private:
  TrainingSet data_;
  std::int32_t k_;
  FeatureLayout layout_;
  detail::RoundedColumns rounded_;  ///< the data as floats, for the screen
};

}  // namespace bfs::fuse
