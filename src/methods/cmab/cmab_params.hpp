#pragma once
// The keys of [method] name = "cmab-scores" ([CMAB §2] and eq. 1): how each feature is binned, how HIE reads
// its reference arm, the weights of eq. 1, the control arm of the uplift baselines and how features are selected.
// Defaults: bins = 10 is causalml's n_bins; the paper sets no α, so both are 1/2. The paper ranks and selects no set;
// select = "shadow" (ours, the default) is Boruta's shadows [Kursa & Rudnicki 2010] with a permutation p-value on
// eq. 1's score (methods/common/shadow_rule.hpp), select = "top" the top select_top.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "config/method_params.hpp"
#include "methods/cmab/binning.hpp"
#include "methods/cmab/scores.hpp"
#include "methods/common/shadow_rule.hpp"

namespace bfs::cmab {

/// How the selected set is chosen: the features whose combined score beats their shadows' ("shadow"), or the top
/// select_top ("top").
enum class Select { Shadow, Top };
constexpr std::array<std::pair<Select, std::string_view>, 2> enum_table(Select) {
  return {{{Select::Shadow, "shadow"}, {Select::Top, "top"}}};
}

struct CmabParams final : MethodParams {
  /// Quantile bins per numeric feature (a feature with at most this many distinct values gets one bin per value).
  int bins = 10;
  /// A NaN feature value: its own bin ("bin") or an error naming the feature and row ("error").
  Missing missing = Missing::Bin;
  /// HIE's P_{w*}: the global winner's rate inside the bin ("in-bin", HIE >= 0) or over all rows ("global").
  HieReference hie_reference = HieReference::InBin;
  double alpha_hie = 0.5;  ///< eq. 1's weight of min-max-scaled HIE
  double alpha_hdd = 0.5;  ///< eq. 1's weight of min-max-scaled HDD
  /// The control arm of the KL / ED / Chi baselines (empty = the first arm label).
  std::string control_arm;
  /// "shadow": each feature gets shadow_copies shadows (its column with the log's rows shuffled), scored as the
  /// features are; selected = the features whose combined score (eq. 1, on the features' min-max scale) has a
  /// p-value against the shadows' of at most shadow_max_false / p. "top": the top select_top.
  Select select = Select::Shadow;
  /// Features selected by select = "top": the top this many by the combined score (0 = none; the ranking is the
  /// result).
  std::int64_t select_top = 0;
  /// The features with shadows under select = "shadow": 0 = every feature up to 1000 (methods::kDefaultShadowCap).
  std::int64_t shadows = 0;
  /// k: shadows per feature with shadows, each its own row shuffle (S = k × shadows in all).
  std::int64_t shadow_copies = methods::kCmabDefaultShadowCopies;
  /// α: the rule bounds the expected number of false selections by α (a feature's permutation p-value against the
  /// pooled shadows must be at most α/p; methods/common/shadow_rule.hpp).
  double shadow_max_false = methods::kDefaultShadowMaxFalse;
  /// Below 1: the quantile of the shadows' combined scores a feature must beat, instead of shadow_max_false's rank.
  double shadow_quantile = 1.0;

  void visit(KeyVisitor& v) override {
    using namespace keyspec;
    v("bins", bins, range(2, 1e6, "quantile bins per numeric feature (causalml's n_bins)"));
    v("missing", missing, text("a NaN feature value: its own bin, or an error"));
    v("hie_reference", hie_reference,
      text("HIE's reference rate P_w*: the global winner's rate in the bin, or overall"));
    v("alpha_hie", alpha_hie, range(0, 1e6, "eq. 1: weight of min-max-scaled HIE"));
    v("alpha_hdd", alpha_hdd, range(0, 1e6, "eq. 1: weight of min-max-scaled HDD"));
    v("control_arm", control_arm, text("control arm of the KL/ED/Chi baselines (empty = the first arm label)"));
    v("select", select, text("selected set: the features above their shadows' combined score, or the top select_top"));
    v("select_top", select_top, range(0, 1e9, "select = \"top\": the top this many by the combined score (0 = none)"));
    methods::visit_shadow_keys(v, *this,
                               "select = \"shadow\": below 1, the quantile of the shadows' combined score to beat");
  }
  std::unique_ptr<MethodParams> clone() const override { return std::make_unique<CmabParams>(*this); }
};

}  // namespace bfs::cmab
