#pragma once
// The feature scores of [CMAB] from one feature's cell counts (N rows, arms i = 1..k,
// binary reward as §2 assumes):
//  * HIE (§2.1): Σ_b (N_b/N)(P_{b,w_b} − P_{b,w*}), w_b = argmax_i P_{b,i} over the arms with rows in b, w* =
//    argmax_i P_i (ties: the lower arm). The paper's P_{w*} has no bin index: HieReference::InBin reads it in-bin
//    (the bin winner's gain over the global winner in that bin, so HIE >= 0; a bin without w* rows adds 0),
//    HieReference::Global takes P_{w*} over all rows (every non-empty bin adds its term).
//  * HDD (§2.2, A.1): Σ_b (N_b/N) Σ_i Σ_j (N_{b,i}N_{b,j}/N_b²) KL(P_{b,i}‖P_{b,j}) − Σ_i Σ_j (N_iN_j/N²)
//    KL(P_i‖P_j), KL(p‖q) = p ln(p/q) + (1−p) ln((1−p)/(1−q)). Zeros (not in the paper; causalml's smooth=True and
//    KL clip): in P a count of 0 zeros or 0 ones counts as 1 (the weights N_{b,i} stay the real counts), and q is
//    clipped to [1e-6, 1 − 1e-6].
//  * Baselines: causalml's uplift filters KL, ED and Chi (FilterSelect.filter_D, feature_selection/filters.py), equal
//    to its values on the same bins wherever they are finite. A node (a bin, or all rows) is summarised as causalml's
//    _GetNodeSummary(smooth=True) does: per arm with rows in it, a zero count of a reward value that occurs in the
//    node counts 1; P_i = ones/(zeros + ones) and the node's size = Σ_i (zeros + ones), both on those counts. Its
//    score D = Σ over the arms t != control with rows of d(P_t, P_c), and D = 0 without control rows; KL: d =
//    KL(P_t‖P_c) with q clipped to [f, 1 − f]; ED: 2(P_t − P_c)²; Chi: (P_t − P_c)²/max(f, P_c) + (P_t −
//    P_c)²/max(f, 1 − P_c); f = causalml's 0.1**6. The feature's score: Σ_b (size_b / N) D_b − D_all, N = all rows
//    (raw), so all arms weigh in every bin's weight (size_b / N is formed first, so a one-bin feature scores exactly
//    0, where causalml's (D_b·size_b)/N leaves ~1e-17 of rounding). A node whose rows all have the same reward scores
//    0: its arms' rates are all equal (0 or 1), so nothing diverges; causalml's KL is NaN there (0·ln 0), and one such
//    bin makes its whole KL score NaN, which would rank nothing. ED and Chi are 0 there in causalml too.
//  * MI: mutual information (natural log) of the bin and the reward, ignoring arms — the correlational filter §1
//    argues against.
// Every sum runs in a fixed order (bins, then arms), so a score never depends on threads or ranks.
#include <array>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "methods/cmab/cell_counts.hpp"

namespace bfs::cmab {

/// Which P_{w*} HIE subtracts in bin b: the global winner's rate in b (InBin) or over all rows (Global).
enum class HieReference { InBin, Global };
constexpr std::array<std::pair<HieReference, std::string_view>, 2> enum_table(HieReference) {
  return {{{HieReference::InBin, "in-bin"}, {HieReference::Global, "global"}}};
}

struct FeatureScores {
  double hie = 0, hdd = 0, kl = 0, ed = 0, chi = 0, mi = 0;
};

/// All six scores of one feature; `control_arm` in [0, cells.arms) is the baselines' control. Empty cells (N_b =
/// 0, N_{b,i} = 0) contribute 0. A feature with one non-empty bin (constant) scores 0 everywhere.
FeatureScores score_feature(const CellCounts& cells, HieReference reference, int control_arm);

/// Eq. 1: alpha_hie·minmax(hie) + alpha_hdd·minmax(hdd) over the scored features, minmax(v) = (v − min)/(max −
/// min), and 0 for every feature when max = min.
std::vector<double> combine(std::span<const double> hie, std::span<const double> hdd, double alpha_hie,
                            double alpha_hdd);
/// Eq. 1 of other (hie, hdd) pairs (the shadows') on the scale of the features': minmax with the min and max of
/// `feature_hie` / `feature_hdd`, so combine_on(h, d, h, d, ...) == combine(h, d, ...) bit for bit and a shadow
/// compares with a feature as it would on any common affine scale. Values may fall outside [0, 1].
std::vector<double> combine_on(std::span<const double> feature_hie, std::span<const double> feature_hdd,
                               std::span<const double> hie, std::span<const double> hdd, double alpha_hie,
                               double alpha_hdd);

}  // namespace bfs::cmab
