#pragma once
// The feature scores of paper 004 from one feature's cell counts (issue 15, "Scores"; N rows, arms i = 1..k,
// binary reward as §2 assumes):
//  * HIE (§2.1): Σ_b (N_b/N)(P_{b,w_b} − P_{b,w*}), w_b = argmax_i P_{b,i} over the arms with rows in b, w* =
//    argmax_i P_i (ties: the lower arm). The paper's P_{w*} has no bin index: HieReference::InBin reads it in-bin
//    (the bin winner's gain over the global winner in that bin, so HIE >= 0; a bin without w* rows adds 0),
//    HieReference::Global takes P_{w*} over all rows (every non-empty bin adds its term).
//  * HDD (§2.2, A.1): Σ_b (N_b/N) Σ_i Σ_j (N_{b,i}N_{b,j}/N_b²) KL(P_{b,i}‖P_{b,j}) − Σ_i Σ_j (N_iN_j/N²)
//    KL(P_i‖P_j), KL(p‖q) = p ln(p/q) + (1−p) ln((1−p)/(1−q)). Zeros (not in the paper; causalml's smooth=True and
//    KL clip): in P a count of 0 zeros or 0 ones counts as 1 (the weights N_{b,i} stay the real counts), and q is
//    clipped to [1e-6, 1 − 1e-6].
//  * Baselines (causalml's filters), summed over the arms t != control: Σ_b (N_b/N) D_b − D_all, where N_b and N
//    count only the rows of arms t and control (causalml scores each treatment on the control + t rows), and D_b =
//    0 when t or control has no rows in b. KL: KL(p_t‖p_c) on the smoothed, clipped P as in HDD; ED: 2(p_t−p_c)²;
//    Chi: (p_t−p_c)²/max(1e-6, p_c) + (p_t−p_c)²/max(1e-6, 1−p_c) — ED and Chi on the raw P (our reading: the
//    issue's smoothing note is on HDD and KL).
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

}  // namespace bfs::cmab
