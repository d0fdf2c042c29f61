#pragma once
// How idle OpenMP threads wait, chosen at start from the load of the CPUs this process may run on (api/cpu_load.hpp
// has the rule and why): idle CPUs keep libgomp's default, busy ones get OMP_WAIT_POLICY=passive, and the run takes
// no more threads than the CPUs left free (api::thread_cap).
#include <string>

namespace bfs::cli {

/// Called first in main, for the commands that fit estimators (`run`, `evaluate`: the first argument; the others
/// would only pay the 50 ms measurement). Unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set: measures the load
/// (api::measure_busy_cpus; or takes BANDITFS_CPU_BUSY when set: a decision forced by hand or by a test), records it in
/// BANDITFS_CPU_BUSY, and when at least api::kBusyCpus are busy sets OMP_WAIT_POLICY=passive and re-executes the
/// program (/proc/self/exe, same arguments and process id): libgomp reads its environment once, when it is loaded,
/// before main runs. Not when started through the dynamic loader (`ld.so banditfs ...`). If the exec fails, the
/// variable is removed again.
void choose_wait_policy(int argc, char** argv);

/// For the run's log: the policy OpenMP threads follow, who set it, and the load it was chosen from.
std::string wait_policy_note();

}  // namespace bfs::cli
