#pragma once
// The keys of [method] name = "cmab-scores" ([CMAB §2] and eq. 1): how each feature is binned, how HIE reads
// its reference arm, the weights of eq. 1, the control arm of the uplift baselines and how many features to select.
// Defaults: bins = 10 is causalml's n_bins; the paper sets no α, so both are 1/2.
#include <cstdint>
#include <memory>
#include <string>

#include "config/method_params.hpp"
#include "methods/cmab/binning.hpp"
#include "methods/cmab/scores.hpp"

namespace bfs::cmab {

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
  /// Features selected: the top this many by the combined score (0 = none; the ranking is the result).
  std::int64_t select_top = 0;

  void visit(KeyVisitor& v) override {
    using namespace keyspec;
    v("bins", bins, range(2, 1e6, "quantile bins per numeric feature (causalml's n_bins)"));
    v("missing", missing, text("a NaN feature value: its own bin, or an error"));
    v("hie_reference", hie_reference,
      text("HIE's reference rate P_w*: the global winner's rate in the bin, or overall"));
    v("alpha_hie", alpha_hie, range(0, 1e6, "eq. 1: weight of min-max-scaled HIE"));
    v("alpha_hdd", alpha_hdd, range(0, 1e6, "eq. 1: weight of min-max-scaled HDD"));
    v("control_arm", control_arm, text("control arm of the KL/ED/Chi baselines (empty = the first arm label)"));
    v("select_top", select_top, range(0, 1e9, "select the top this many features by the combined score (0 = none)"));
  }
  std::unique_ptr<MethodParams> clone() const override { return std::make_unique<CmabParams>(*this); }
};

}  // namespace bfs::cmab
