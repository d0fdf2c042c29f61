#pragma once
// The few collective operations methods need (methods/comm.hpp), on byte strings (Boost.MPI). Internal to src/dist/.
#include <boost/mpi/communicator.hpp>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dist/session.hpp"

namespace bfs::dist::detail {

/// Broadcasts `bytes` from `root` (size first, then the bytes) and returns what every rank received.
std::string broadcast_bytes(const boost::mpi::communicator& comm, std::string bytes, int root);
/// Gathers one byte string per rank at `root` (empty vector on the other ranks).
std::vector<std::string> gather_bytes(const boost::mpi::communicator& comm, const std::string& bytes, int root);

/// Every rank's byte string on every rank, in rank order.
std::vector<std::string> allgather_bytes(const boost::mpi::communicator& comm, const std::string& bytes);

/// values ← their element-wise sum over the ranks (MPI_Allreduce in place, MPI_INT64_T, MPI_SUM).
void allreduce_sum(const boost::mpi::communicator& comm, std::span<std::int64_t> values);

/// The world communicator of `session` (no global: the communicator travels in the session). Only valid when
/// session.uses_mpi().
boost::mpi::communicator& world(const Session& session);

}  // namespace bfs::dist::detail
