#pragma once
// The estimators' FitGroup (estimators/estimator.hpp) on a method's communicator: the members of a bandit group fit
// one arm's model together. Counts the bytes this member contributes, for run.json's bytes_sent.
#include <string>
#include <vector>

#include "estimators/estimator.hpp"
#include "methods/comm.hpp"

namespace bfs {

class CommFitGroup final : public FitGroup {
 public:
  explicit CommFitGroup(const Comm& comm) : comm_(comm) {}
  int rank() const override { return comm_.rank(); }
  int size() const override { return comm_.size(); }
  void allreduce_sum(std::span<std::int64_t> values) const override {
    bytes_sent_ += static_cast<double>(values.size_bytes());
    comm_.allreduce_sum(values);
  }
  std::vector<std::string> allgather(const std::string& bytes) const override {
    bytes_sent_ += static_cast<double>(bytes.size());
    return comm_.allgather(bytes);
  }
  /// Bytes this member put into the collectives since the last call (then zero again).
  double take_bytes_sent() const {
    const double bytes = bytes_sent_;
    bytes_sent_ = 0.0;
    return bytes;
  }

 private:
  const Comm& comm_;
  mutable double bytes_sent_ = 0.0;
};

}  // namespace bfs
