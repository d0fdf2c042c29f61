#pragma once
// One regression tree of the histogram gradient boosting (hgb.cpp), grown leaf-wise from binned columns (LightGBM,
// Ke et al. 2017 §2; scikit-learn's TreeGrower): the leaf with the largest gain is split next until max_leaves.
//
// Gradients and hessians are summed as 64-bit fixed-point integers (quantize(): a power-of-two scale per tree, so
// the sum over all rows cannot overflow). Integer sums do not depend on their order, so a histogram is the same
// number whichever thread or rank adds which rows, and the larger child's histogram (parent − smaller child) equals
// the one built directly. The scale leaves about 2^(61 − log2 n) steps below the largest |g|: for n = 5 000, a
// relative resolution of ~2^−48 of max|g|, below double's rounding of the same sums.
//
// Split of a node with sums (G, H) into (G_L, H_L), (G_R, H_R) (XGBoost eq. 7 without γ and ½; scikit-learn's
// gain): G_L²/(H_L + λ) + G_R²/(H_R + λ) − G²/(H + λ). Candidates are "code <= b" for each value bin b, with the
// NaN rows right, and, when the node has NaN rows, the same with NaN rows left; "all values left, NaN right" is the
// split on NaN (threshold +∞). Each child needs min_samples_leaf rows and a hessian sum >= min_child_weight. The
// largest gain wins, the first in (feature, NaN right before left, bin) order on ties; a node splits only on a gain
// > 0. A leaf's value is −learning_rate · G/(H + λ).
//
// Missing cells are LightGBM's missing bin with a learned direction (Ke et al. 2017; LightGBM docs, "Advanced
// Topics", "Missing Value Handle"), with scikit-learn's rule for a column that had none in training
// (HistGradientBoostingRegressor's docstring; grower.py, TreeGrower.split_next): its splits send a missing cell
// to the child with more training rows (left only when strictly more). A node without missing rows in a column
// that has some elsewhere sends them right (NaN right is scanned first and wins ties, as scikit-learn's
// left-to-right scan does). Training rows without any missing cell apply the larger-child rule to every column
// when the caller says the table has missing cells (FitOptions::data_has_missing: its test rows may have some), and
// otherwise keep "right" everywhere, so complete data gives the trees (and model bytes) it always did: the direction
// is a per-node byte of the model, which keeps no node counts from which prediction could pick the larger child.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "core/types.hpp"
#include "estimators/detail/hgb_binning.hpp"
#include "estimators/estimator.hpp"

namespace bfs::hgb {

struct GrowLimits {
  int max_leaves = 31;
  int max_depth = 0;  ///< 0 = none
  std::int64_t min_samples_leaf = 20;
  double min_child_weight = 1e-3;
  double lambda = 0.0;
  double learning_rate = 0.1;
};

/// Per-row gradients and hessians as fixed-point integers: value = integer / scale.
struct QuantizedGradients {
  std::vector<std::int64_t> g, h;
  double g_scale = 1.0, h_scale = 1.0;
};

/// The power-of-two scale and the rounded integers; hessians all 1 (squared error) give h = 1, h_scale = 1, so H is
/// the row count exactly.
QuantizedGradients quantize(std::span<const double> g, std::span<const double> h);

/// The best split of one node found by split scans (exposed for the hand-computed unit tests).
struct SplitChoice {
  double gain = 0.0;
  int feature = -1;  ///< column of the binned data; −1 = no admissible split with gain > 0
  int bin = 0;       ///< rows with code <= bin go left (bin = value_bins − 1 with nan_left = false: split on NaN)
  bool nan_left = false;
};

/// Grows trees on `binned` (codes of the training rows), one fit's worth: the histogram pool and row buffers are
/// kept from tree to tree. Not thread-safe; `threads` splits the columns inside a tree, which does not change it.
/// With a fit group every member grows the same tree: each scans its share of the columns and the
/// members exchange their best splits; the histograms it scans are built over all rows for its columns alone
/// (HgbGroupSplit::Columns) or for all columns over its row blocks, summed by an allreduce (Rows). The tree is
/// bit-identical to the one grown alone: integer sums, the same per-column scans reduced in one order, and a leaf's
/// left sums added up from its rows where the split column's histogram is another member's.
class TreeBuilder {
 public:
  /// data_has_missing: FitOptions::data_has_missing (the larger-child rule even when no training row misses a cell).
  TreeBuilder(const BinnedColumns& binned, const GrowLimits& limits, int threads, const FitGroup* group = nullptr,
              HgbGroupSplit split = HgbGroupSplit::Columns, bool data_has_missing = false);
  ~TreeBuilder();
  TreeBuilder(const TreeBuilder&) = delete;
  TreeBuilder& operator=(const TreeBuilder&) = delete;

  /// One tree from the gradients `grad`, splitting only on the columns `allowed` (ascending), as a FlatTree over
  /// binned's columns (strict_less = false: x <= threshold goes left); adds each leaf's value to margin[row] for
  /// every training row in it.
  FlatTree grow(const QuantizedGradients& grad, std::span<const int> allowed, std::span<double> margin);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// The split scan alone, over all columns of a node holding `rows` (for tests).
SplitChoice best_split_of_rows(const BinnedColumns& binned, const QuantizedGradients& grad,
                               std::span<const std::uint32_t> rows, const GrowLimits& limits);

}  // namespace bfs::hgb
