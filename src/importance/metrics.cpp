#include "importance/metrics.hpp"

#include "core/error.hpp"

namespace bfs {

double r2_score(const Vector& y, const Vector& y_hat) { return r2_score(y, y_hat, 0); }

double r2_score(const Vector& y, const Vector& y_hat, Index offset) {
  const Index n = y.size();
  BFS_CHECK(offset + n <= y_hat.size());
  const double mean = y.mean();
  double sse = 0.0, sst = 0.0;
  for (Index i = 0; i < n; ++i) {
    const double r = y[i] - y_hat[offset + i];
    const double d = y[i] - mean;
    sse += r * r;
    sst += d * d;
  }
  if (sst == 0.0) return sse == 0.0 ? 1.0 : 0.0;
  return 1.0 - sse / sst;
}

}  // namespace bfs
