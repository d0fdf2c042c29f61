#pragma once
// How idle OpenMP threads wait, and how many a run takes, chosen at start from how busy the CPUs this process may
// run on are (docs/performance.md, "Threads on a busy node"). Ours (hgb, random_forest, the importance loops) and
// XGBoost's share one libgomp, whose default lets a thread spin for some milliseconds after each parallel region.
// On idle CPUs that spinning is what makes short parallel regions (XGBoost's hist builder opens hundreds per tree)
// fast; beside other work the spinning thread takes the core the working one needs (2 threads ran 3–10× slower than
// 1 beside one busy process). So: idle CPUs keep libgomp's default; busy ones get passive waiting and no more threads
// than the CPUs left free — the decision OMP_DYNAMIC leaves to the runtime, made once. Results do not depend on
// either (every result is identical for any thread count).
#include <optional>
#include <string>
#include <vector>

namespace bfs::cli {

/// How long choose_wait_policy watches the CPUs (ms): /proc/stat counts in 10 ms ticks, so a CPU's busy share is
/// known to ±0.2.
inline constexpr int kLoadWindowMs = 50;
/// From this many busy CPUs on, threads wait passively and the run leaves the busy CPUs alone.
inline constexpr double kBusyCpus = 0.5;

/// Other work on this process's CPUs, measured at start.
struct CpuLoad {
  int cpus = 1;       ///< CPUs in this process's affinity mask
  double busy = 0.0;  ///< of those, how many other work kept busy (sum of per-CPU busy shares)
};

/// Busy shares of the CPUs in `mask_list` from two /proc/stat snapshots: per CPU, 1 − Δ(idle + iowait) / Δtotal
/// (steal counts as busy: the CPU was not ours). Pure, for tests; nullopt when a CPU is missing from a snapshot.
std::optional<double> busy_cpus(const std::string& stat_before, const std::string& stat_after,
                                const std::vector<int>& mask_list);

/// Called first in main. Unless OMP_WAIT_POLICY or GOMP_SPINCOUNT is set: measures the load of this process's
/// CPUs over kLoadWindow (or takes BANDITFS_CPU_BUSY, a number of busy CPUs, when set: a decision forced by hand
/// or by a test), records it in BANDITFS_CPU_BUSY for thread_cap and the log, and when at least kBusyCpus of a CPU is
/// busy sets OMP_WAIT_POLICY=passive and re-executes the program (/proc/self/exe, same arguments and process id):
/// libgomp reads its environment once, when it is loaded, before main runs. Not when started through the dynamic
/// loader (`ld.so banditfs ...`). If the exec fails, the variable is removed again (the log says so).
void choose_wait_policy(char** argv);

/// The threads a run asking for `requested` takes: at most the CPUs left free by the load choose_wait_policy found
/// (at least 1); `requested` when the CPUs were idle or the user chose the policy.
int thread_cap(int requested);

/// For the run's log: the policy OpenMP threads follow, who set it, and the load it was chosen from.
std::string wait_policy_note();

}  // namespace bfs::cli
