#pragma once
// Guyon's NIPS'03 MADELON generator, as scikit-learn's make_classification builds it (`simulate
// madelon-like`), our own code: y in {0, 1};
//   2 classes × 16 clusters = 32 clusters at distinct vertices of the hypercube {−class_sep, +class_sep}^informative
//     (side 2·class_sep); cluster k has class k mod 2 and ⌊n/32⌋ rows (the first n mod 32 clusters one more).
//     The vertices are drawn at random, so the classes are labelled at random over the vertices, as in Guyon's
//     generator. (scikit-learn, when all 2^informative vertices are used — informative = 5 — takes them in order,
//     so its class is the sign of one informative coordinate: an easier problem than NIPS'03 MADELON.)
//   a row of cluster k: z·A_k + vertex_k in the informative columns, z ~ N(0, I), A_k ~ U[−1, 1]^{inf×inf};
//   redundant columns = informative · B, B ~ U[−1, 1]^{inf×red} (from the float-rounded informative values);
//   the other p − inf − red columns N(0, 1);
//   flip_y: each row's label, with probability flip_y, replaced by a uniformly random class (so about flip_y/2
//     of the labels change);
//   rows shuffled, then columns shuffled. truth = the final positions (0-based, ascending) of the informative and
//   redundant columns.
//
// Random streams (core/rng.hpp), Rng::stream(seed, round 0, slot, Purpose::Simulate, feature):
//   vertices: slot 1, feature 0 — uniform bits, a cluster's vertex redrawn while it equals an earlier one;
//   A_k:      slot 2, feature k — inf×inf uniforms, row-major;
//   z of cluster k: slot 3, feature k — its rows' inf normals, row by row;
//   B:        slot 4, feature 0 — inf×red uniforms, row-major;
//   noise column j (0-based among the noise columns): slot 5, feature j — n normals;
//   flip:     slot 6, feature 0 — per row (before the shuffle) one uniform, and one uniform_int(2) when it flips;
//   row permutation: slot 7; column permutation: slot 8.
#include <cstdint>

#include "core/types.hpp"
#include "data/dataset.hpp"

namespace bfs {

/// 2 classes × 16 clusters per class.
inline constexpr Index kMadelonClusters = 32;

struct MadelonSpec {
  Index n = 4400;
  Index p = 500;
  Index informative = 5;
  Index redundant = 15;
  double class_sep = 2.0;
  double flip_y = 0.01;
  std::uint64_t seed = 1;
};

/// The data set above (feature names x1..xp, has_truth). ConfigError naming the option (--n, --p, --informative,
/// --redundant, --class-sep, --flip-y) for: a negative count, informative < 5 (32 clusters need 2^informative >= 32
/// vertices), informative + redundant > p, n < 32, class_sep not finite and positive, flip_y outside [0, 1].
Dataset simulate_madelon_like(const MadelonSpec& spec);

/// The checks of simulate_madelon_like alone (before anything is allocated).
void validate_madelon_spec(const MadelonSpec& spec);

}  // namespace bfs
