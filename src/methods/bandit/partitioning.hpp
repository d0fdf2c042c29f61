#pragma once
// Pure functions that decide who does what in a distributed round (docs/design.md §2, §9 "pure functions for
// partitioning, tested exhaustively"). They depend only on their arguments, never on timing, so every rank computes the
// same plan.
#include <cstdint>
#include <vector>

namespace bfs {

/// Splits items with the given expected costs into `members` disjoint blocks whose total costs are balanced:
/// longest-processing-time-first (Graham 1969) — items by decreasing cost (ties: lower index first), each to the
/// currently cheapest block (ties: lower block). Guarantees max block cost ≤ (4/3 − 1/(3m))·optimal. Blocks hold
/// item indices in ascending order; with more members than items some blocks are empty (idle members).
std::vector<std::vector<std::size_t>> partition_by_cost(const std::vector<double>& costs, int members);

/// How the ranks of a job are laid out: rank 0 is the coordinator; the workers 1..ranks−1 form `groups` groups of
/// consecutive ranks (sizes differ by at most one), one super-arm in flight per group. With one rank the
/// coordinator evaluates arms itself (one group: rank 0).
struct GroupLayout {
  int ranks = 1;
  int groups = 1;
  /// First rank and size of each group.
  std::vector<int> first_rank;
  std::vector<int> size;

  /// The group of a worker rank, −1 for the coordinator (when it is not also the only worker).
  int group_of(int rank) const;
};

/// Groups = min(arms_per_round, workers): more ranks than arms make larger groups (features split inside a
/// group), more arms than groups make groups take several arms per round (see arms_of_group). group_size > 0
/// (run.group_size) asks for groups of at least that many workers: max(1, min(arms_per_round, workers /
/// group_size)) groups.
GroupLayout make_group_layout(int ranks, int arms_per_round, int group_size = 0);

/// The arm slots (0..arms_per_round−1) group g evaluates in a round: slots g, g + groups, g + 2·groups, …
std::vector<int> arms_of_group(const GroupLayout& layout, int group, int arms_per_round);

}  // namespace bfs
