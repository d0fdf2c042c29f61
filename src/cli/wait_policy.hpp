#pragma once
// How idle OpenMP threads wait. Ours (hgb, random_forest, the importance loops) and XGBoost's share one libgomp,
// whose default lets a thread spin for some milliseconds after each parallel region before it sleeps; on a node
// where other work runs, spinning threads take the cores the working ones need (2 threads ran 10× slower than 1
// beside one busy process). banditfs therefore has them wait passively unless the user chose a policy.
#include <string>

namespace bfs::cli {

/// Called first in main. Unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set, sets OMP_WAIT_POLICY=passive and
/// re-executes the program (/proc/self/exe, same arguments and process id): libgomp reads its environment once,
/// when it is loaded, before main runs, so setting the variable in this process would be too late (and a
/// .preinit_array function, which runs before libgomp's constructor, cannot add to the environment: glibc sets
/// `environ` up after it). Not when started through the dynamic loader (`ld.so banditfs ...`). If the exec fails,
/// the variable is removed again and the run goes on with libgomp's default (the log says so).
void wait_passively_unless_chosen(char** argv);

/// For the run's log: the policy OpenMP threads follow and who set it.
std::string wait_policy_note();

}  // namespace bfs::cli
