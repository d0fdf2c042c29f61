#pragma once
// The communicator a method's own protocol runs on: byte strings only, so methods never include MPI.
// src/dist/ implements it on Boost.MPI; SoloComm is the one-rank communicator of a run without MPI. The bandit's
// coordinator/worker protocol (methods/bandit/protocol.cpp) is written against this interface.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace bfs {

class Comm {
 public:
  virtual ~Comm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// `bytes` from `root` to every rank; returns what this rank received (root: its own bytes).
  virtual std::string broadcast(std::string bytes, int root) const = 0;
  /// One byte string per rank at `root`, in rank order; an empty vector on the other ranks.
  virtual std::vector<std::string> gather(const std::string& bytes, int root) const = 0;
  /// Every rank's byte string on every rank, in rank order.
  virtual std::vector<std::string> allgather(const std::string& bytes) const = 0;
  /// values ← the element-wise sum of every rank's values, on every rank (the same length everywhere). Integer
  /// sums do not depend on the order the ranks' values are added in (hgb's histograms).
  virtual void allreduce_sum(std::span<std::int64_t> values) const = 0;
  /// Collective: the ranks with the same `colour` form a new communicator (ranks ordered as here).
  virtual std::unique_ptr<Comm> split(int colour) const = 0;
};

/// One process, no MPI: broadcast returns its bytes, gathers return {bytes}, split returns another SoloComm.
class SoloComm final : public Comm {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::string broadcast(std::string bytes, int) const override { return bytes; }
  std::vector<std::string> gather(const std::string& bytes, int) const override { return {bytes}; }
  std::vector<std::string> allgather(const std::string& bytes) const override { return {bytes}; }
  void allreduce_sum(std::span<std::int64_t>) const override {}
  std::unique_ptr<Comm> split(int) const override { return std::make_unique<SoloComm>(); }
};

}  // namespace bfs
