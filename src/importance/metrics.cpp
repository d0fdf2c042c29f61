#include "importance/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "core/error.hpp"

namespace bfs {

double r2_score(const Vector& y, const Vector& y_hat) {
  return r2_score(y, y_hat, 0);
}

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

double auc_score(const Vector& y, const Vector& p_hat, Index offset) {
  const Index n = y.size();
  BFS_CHECK(offset + n <= p_hat.size());
  std::vector<Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), Index{0});
  std::sort(order.begin(), order.end(), [&](Index a, Index b) { return p_hat[offset + a] < p_hat[offset + b]; });
  // Sum of the positives' mid-ranks (ties share the average of their ranks, so a tie counts ½).
  double positive_rank_sum = 0.0;
  double positives = 0.0;
  for (Index start = 0; start < n;) {
    Index end = start + 1;
    while (end < n && p_hat[offset + order[end]] == p_hat[offset + order[start]]) ++end;
    const double mid_rank = 0.5 * static_cast<double>(start + 1 + end);  // mean of ranks start+1 .. end
    for (Index i = start; i < end; ++i)
      if (y[order[i]] == 1.0) {
        positive_rank_sum += mid_rank;
        positives += 1.0;
      }
    start = end;
  }
  const double negatives = static_cast<double>(n) - positives;
  if (positives == 0.0 || negatives == 0.0) return 0.5;
  return (positive_rank_sum - positives * (positives + 1.0) / 2.0) / (positives * negatives);
}

double log_loss_score(const Vector& y, const Vector& p_hat, Index offset) {
  const Index n = y.size();
  BFS_CHECK(offset + n <= p_hat.size());
  constexpr double kEps = 1e-15;
  double total = 0.0;
  for (Index i = 0; i < n; ++i) {
    const double p = std::clamp(p_hat[offset + i], kEps, 1.0 - kEps);
    total -= y[i] == 1.0 ? std::log(p) : std::log1p(-p);
  }
  return n > 0 ? total / static_cast<double>(n) : 0.0;
}

double accuracy_score(const Vector& y, const Vector& p_hat, Index offset) {
  const Index n = y.size();
  BFS_CHECK(offset + n <= p_hat.size());
  Index correct = 0;
  for (Index i = 0; i < n; ++i) correct += ((p_hat[offset + i] > 0.5) == (y[i] == 1.0)) ? 1 : 0;
  return n > 0 ? static_cast<double>(correct) / static_cast<double>(n) : 0.0;
}

double metric_score(Metric metric, const Vector& y, const Vector& y_hat, Index offset) {
  switch (metric) {
    case Metric::R2:
      return r2_score(y, y_hat, offset);
    case Metric::Auc:
      return auc_score(y, y_hat, offset);
    case Metric::LogLoss:
      return log_loss_score(y, y_hat, offset);
    case Metric::Accuracy:
      return accuracy_score(y, y_hat, offset);
  }
  throw InternalError("metric_score: unknown metric");
}

}  // namespace bfs
