#pragma once
// The bins of one feature for the HIE / HDD scores ([CMAB §2]: "we cut x into m_x bins"). §2 gives no rule; we
// follow causalml's filters:
//  * one bin per distinct value when the feature is categorical or has at most `bins` distinct non-NaN values;
//  * else edges at the j/bins quantiles, j = 0..bins, of the non-NaN values (numpy.quantile's default "linear"
//    method, type 7, computed in double), duplicate edges dropped; value v is in bin b when
//    edges[b] < v <= edges[b+1], the minimum in bin 0 (pandas.qcut with duplicates="drop");
//  * NaN (missing) rows go to their own bin, index value_bins, or are an error.
// Pure: no I/O, no threads; the cost is O(n log bins) per feature (selection, not a full sort, for the edges).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bfs::cmab {

/// What a NaN in the data means: a bin of its own (`[method] missing = "bin"`) or an InputError ("error").
enum class Missing { Bin, Error };
constexpr std::array<std::pair<Missing, std::string_view>, 2> enum_table(Missing) {
  return {{{Missing::Bin, "bin"}, {Missing::Error, "error"}}};
}

/// The bin of every row of one feature.
struct FeatureBins {
  std::vector<std::int32_t> bin;  ///< per row: [0, value_bins) for a value, == value_bins for NaN (the missing bin)
  int value_bins = 0;             ///< bins holding values (NaN's bin is index value_bins, always)
  bool per_value = false;         ///< one bin per distinct value (categorical or <= bins distinct values)
  /// per_value: the distinct values ascending (value_bins entries); else the kept quantile edges (value_bins + 1
  /// entries), bins (a, b], the minimum in the first.
  std::vector<double> edges;
  bool has_missing = false;  ///< some row was NaN
};

/// Bins feature `x` (one value per row, NaN = missing). `bins` >= 2 is the number of quantile bins (causalml's
/// n_bins). With Missing::Error a NaN throws bfs::InputError naming `feature_name` and the 0-based row. A feature
/// without any value (all NaN) has value_bins = 0; a constant one has one bin.
FeatureBins bin_feature(std::span<const float> x, bool categorical, int bins, Missing missing,
                        const std::string& feature_name);

}  // namespace bfs::cmab
