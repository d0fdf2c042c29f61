#pragma once
// The importance request the fast-path tests build: fixed repeats and stream keys, the caller's model, test rows,
// groups, metric, threads and path (the fast paths are compared with ImportancePath::Generic on the same request).
#include <utility>
#include <vector>

#include "importance/permutation.hpp"

namespace bfs::test {

inline ImportanceRequest make_request(const Model& model, const Matrix& X, const Vector& y,
                                      std::vector<std::vector<Index>> groups, Metric metric, int threads,
                                      ImportancePath path) {
  ImportanceRequest r;
  r.model = &model;
  r.X_test = &X;
  r.y_test = &y;
  r.groups = std::move(groups);
  for (const auto& g : r.groups) r.stream_ids.push_back(static_cast<std::uint64_t>(1000 + g.front()));
  r.repeats = 7;
  r.metric = metric;
  r.seed = 42;
  r.round = 5;
  r.slot = 1;
  r.threads = threads;
  r.path = path;
  return r;
}

}  // namespace bfs::test
