// `simulate madelon-like`: make_classification's algorithm; the formulas and streams are in madelon.hpp.
#include "simulate/madelon.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"

namespace bfs {

namespace {

constexpr std::uint64_t kVertexSlot = 1, kTransformSlot = 2, kPointSlot = 3, kRedundantSlot = 4, kNoiseSlot = 5,
                        kFlipSlot = 6, kRowSlot = 7, kColumnSlot = 8;
constexpr Index kMinInformative = 5;  // 2^5 = 32 vertices for 32 clusters
/// The bound on class_sep × informative: X's float values, and their squares, stay finite (float's largest is 3e38).
constexpr double kMaxMadelonX = 1e15;

Rng stream(std::uint64_t seed, std::uint64_t slot, std::uint64_t feature = 0) {
  return Rng::stream(seed, 0, slot, Purpose::Simulate, feature);
}

/// 32 distinct vertices of {−sep, +sep}^inf, as ±1 sign vectors.
std::vector<std::vector<int>> draw_vertices(Index informative, std::uint64_t seed) {
  Rng rng = stream(seed, kVertexSlot);
  std::set<std::vector<int>> seen;
  std::vector<std::vector<int>> vertices;
  while (static_cast<Index>(vertices.size()) < kMadelonClusters) {
    std::vector<int> v(static_cast<std::size_t>(informative));
    for (int& s : v) s = rng.uniform_int(2) == 1 ? 1 : -1;
    if (seen.insert(v).second) vertices.push_back(std::move(v));
  }
  return vertices;
}

}  // namespace

void validate_madelon_spec(const MadelonSpec& spec) {
  const auto fail = [](const char* option, const auto& value, const char* why) {
    throw ConfigError(detail::concat("simulate madelon-like: ", option, " ", value, " ", why));
  };
  if (spec.n < kMadelonClusters) fail("--n", spec.n, "must be at least 32 rows (one per cluster)");
  if (spec.p < 1) fail("--p", spec.p, "must be at least 1");
  if (spec.informative < kMinInformative)
    fail("--informative", spec.informative, "must be at least 5 (32 clusters need 2^informative >= 32 vertices)");
  if (spec.redundant < 0) fail("--redundant", spec.redundant, "must not be negative");
  if (spec.informative + spec.redundant > spec.p) {
    throw ConfigError(detail::concat("simulate madelon-like: --informative ", spec.informative, " + --redundant ",
                                     spec.redundant, " exceed --p ", spec.p));
  }
  if (!std::isfinite(spec.class_sep) || spec.class_sep <= 0.0)
    fail("--class-sep", spec.class_sep, "must be a finite positive number");
  // An informative value is ±class_sep plus a normal draw, a redundant one a sum of `informative` of them with
  // weights in [-1, 1]: class_sep × informative bounds X, and X is stored as float.
  if (spec.class_sep * static_cast<double>(spec.informative) > kMaxMadelonX) {
    throw ConfigError(detail::concat(
        "simulate madelon-like: --class-sep ", spec.class_sep, " is too large: X (up to --class-sep x --informative = ",
        spec.class_sep * static_cast<double>(spec.informative), ") would not stay below ", kMaxMadelonX,
        ", where its float values and their squares stay finite; give at most ",
        kMaxMadelonX / static_cast<double>(spec.informative)));
  }
  if (!std::isfinite(spec.flip_y) || spec.flip_y < 0.0 || spec.flip_y > 1.0)
    fail("--flip-y", spec.flip_y, "must be in [0, 1]");
}

Dataset simulate_madelon_like(const MadelonSpec& spec) {
  validate_madelon_spec(spec);
  const Index n = spec.n, p = spec.p, inf = spec.informative, red = spec.redundant;
  const auto ui = [](Index i) { return static_cast<std::size_t>(i); };

  // Unshuffled: columns [0, inf) informative, [inf, inf + red) redundant, the rest noise.
  Matrix X(n, p);
  Vector y(n);
  const std::vector<std::vector<int>> vertices = draw_vertices(inf, spec.seed);
  const Index base = n / kMadelonClusters, extra = n % kMadelonClusters;
  std::vector<double> A(ui(inf * inf)), z(ui(inf));
  Index row = 0;
  for (Index k = 0; k < kMadelonClusters; ++k) {
    Rng a_rng = stream(spec.seed, kTransformSlot, static_cast<std::uint64_t>(k));
    for (double& a : A) a = 2.0 * a_rng.uniform() - 1.0;
    Rng z_rng = stream(spec.seed, kPointSlot, static_cast<std::uint64_t>(k));
    const Index rows = base + (k < extra ? 1 : 0);
    const std::vector<int>& vertex = vertices[ui(k)];
    for (Index r = 0; r < rows; ++r, ++row) {
      for (double& v : z) v = z_rng.normal();
      for (Index j = 0; j < inf; ++j) {
        double value = spec.class_sep * vertex[ui(j)];
        for (Index i = 0; i < inf; ++i) value += z[ui(i)] * A[ui(i * inf + j)];
        X(row, j) = static_cast<float>(value);
      }
      y(row) = static_cast<double>(k % 2);
    }
  }
  if (red > 0) {
    Rng b_rng = stream(spec.seed, kRedundantSlot);
    std::vector<double> B(ui(inf * red));
    for (double& b : B) b = 2.0 * b_rng.uniform() - 1.0;
    for (Index r = 0; r < n; ++r) {
      for (Index j = 0; j < red; ++j) {
        double value = 0.0;
        for (Index i = 0; i < inf; ++i) value += static_cast<double>(X(r, i)) * B[ui(i * red + j)];
        X(r, inf + j) = static_cast<float>(value);
      }
    }
  }
  for (Index j = inf + red; j < p; ++j) {
    Rng noise = stream(spec.seed, kNoiseSlot, static_cast<std::uint64_t>(j - inf - red));
    for (Index r = 0; r < n; ++r) X(r, j) = static_cast<float>(noise.normal());
  }
  Rng flip = stream(spec.seed, kFlipSlot);
  for (Index r = 0; r < n; ++r)
    if (flip.uniform() < spec.flip_y) y(r) = static_cast<double>(flip.uniform_int(2));

  // Rows, then columns, shuffled: new row i is old row row_perm[i]; old column j goes to position col_perm[j].
  const std::vector<std::int64_t> row_perm = stream(spec.seed, kRowSlot).permutation(n);
  const std::vector<std::int64_t> col_perm = stream(spec.seed, kColumnSlot).permutation(p);
  Dataset data;
  data.X.resize(n, p);
  data.y.resize(n);
  for (Index i = 0; i < n; ++i) {
    const Index from = row_perm[ui(i)];
    data.y(i) = y(from);
    for (Index j = 0; j < p; ++j) data.X(i, col_perm[ui(j)]) = X(from, j);
  }
  for (Index j = 0; j < inf + red; ++j) data.truth.push_back(static_cast<FeatureId>(col_perm[ui(j)]));
  std::sort(data.truth.begin(), data.truth.end());
  data.has_truth = true;
  data.feature_names = default_feature_names(p);
  data.origin = detail::concat("simulate:madelon-like (seed ", spec.seed, ")");
  validate_dataset(data);
  return data;
}

}  // namespace bfs
