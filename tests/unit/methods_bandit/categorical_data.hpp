#pragma once
// A small table with a categorical feature, as the readers encode it (data/feature_layout.hpp): x0 numeric (signal),
// "colour" with levels a, b, c as indicator columns 1..3 (signal), x2 numeric (noise, with missing cells when asked),
// x3 numeric (noise). y = x0 + 3·effect(level) + 0.1·N(0,1), effect = (0, 1, −1).
#include <cmath>
#include <limits>
#include <vector>

#include "core/rng.hpp"
#include "data/dataset.hpp"

namespace bfs::testing {

struct CategoricalTable {
  Dataset data;
  std::vector<int> level;  ///< the categorical column before encoding: 0, 1 or 2 per row
};

/// The one-hot columns of `level` (3 levels) written into columns first..first + 2 of X, row by row.
inline void write_one_hot(Matrix& X, Index first, const std::vector<int>& level) {
  for (Index i = 0; i < X.rows(); ++i)
    for (Index l = 0; l < 3; ++l) X(i, first + l) = level[static_cast<std::size_t>(i)] == l ? 1.0f : 0.0f;
}

inline CategoricalTable categorical_table(Index n, std::uint64_t seed, bool with_missing) {
  CategoricalTable t;
  Rng rng(seed);
  Dataset& d = t.data;
  d.X.resize(n, 6);
  d.y.resize(n);
  t.level.resize(static_cast<std::size_t>(n));
  const double effect[] = {0.0, 1.0, -1.0};
  for (Index i = 0; i < n; ++i) t.level[static_cast<std::size_t>(i)] = static_cast<int>(rng.uniform_int(3));
  write_one_hot(d.X, 1, t.level);
  for (Index i = 0; i < n; ++i) {
    const double x0 = rng.normal();
    d.X(i, 0) = static_cast<float>(x0);
    d.X(i, 4) = with_missing && i % 7 == 3 ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(rng.normal());
    d.X(i, 5) = static_cast<float>(rng.normal());
    d.y(i) = x0 + 3.0 * effect[t.level[static_cast<std::size_t>(i)]] + 0.1 * rng.normal();
  }
  d.feature_names = {"x0", "colour", "x2", "x3"};
  d.layout.offsets = {0, 1, 4, 5, 6};
  d.layout.levels = {{}, {"a", "b", "c"}, {}, {}};
  d.missing = {0, 0, with_missing ? (n + 3) / 7 : 0, 0};
  d.origin = "categorical table";
  return t;
}

}  // namespace bfs::testing
