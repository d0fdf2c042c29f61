#pragma once
// How busy the CPUs this process may run on are, and how many threads a run takes given that (docs/performance.md,
// "Threads on a busy node"). Ours (hgb, random_forest, the importance loops) and XGBoost's threads share one libgomp,
// whose default lets an idle thread spin for some milliseconds after each parallel region: on idle CPUs that is
// what makes short parallel regions (XGBoost's hist builder opens hundreds per tree) fast; beside other work the
// spinning thread takes the core the working one needs (2 threads ran 3–10× slower than 1 beside one busy process).
// So a client looks at the load once, at start: idle CPUs keep libgomp's default; busy ones get passive waiting and
// no more threads than the CPUs left free — the decision OMP_DYNAMIC leaves to the runtime, made once. Results do not
// depend on either (every result is identical for any thread count). The CLI (cli/wait_policy) and the Python
// package (python/banditfs/__init__.py, which mirrors the measurement in Python because it must set the policy before
// libgomp loads; tests/python checks that its constants are these) are the clients.
#include <optional>
#include <string>
#include <vector>

namespace bfs::api {

/// How long the load is watched at start (ms): /proc/stat counts in 10 ms ticks, so a CPU's busy share is known to
/// ±0.2.
inline constexpr int kLoadWindowMs = 50;
/// From this many busy CPUs on, threads wait passively and a run leaves the busy CPUs alone.
inline constexpr double kBusyCpus = 0.5;
/// The environment variable that carries the busy CPUs found at start (or given by hand, to force the decision)
/// to a re-executed process, to thread_cap and to the log.
inline constexpr const char* kCpuBusyVariable = "BANDITFS_CPU_BUSY";

/// Other work on this process's CPUs.
struct CpuLoad {
  int cpus = 1;       ///< CPUs in this process's affinity mask
  double busy = 0.0;  ///< of those, how many other work kept busy (sum of per-CPU busy shares)
};

/// Busy shares of the CPUs in `cpus` from two /proc/stat texts: per CPU, 1 − Δ(idle + iowait) / Δtotal (steal counts
/// as busy: the CPU was not ours). Pure; nullopt when a CPU is missing from either text.
std::optional<double> busy_cpus(const std::string& stat_before, const std::string& stat_after,
                                const std::vector<int>& cpus);

/// The CPUs in this process's affinity mask.
std::vector<int> affinity_cpus();

/// The busy CPUs of the affinity mask over kLoadWindowMs (this thread sleeps meanwhile); nullopt without /proc/stat.
std::optional<double> measure_busy_cpus();

/// The load recorded in kCpuBusyVariable, or nullopt when it is unset or not a number ≥ 0.
std::optional<CpuLoad> recorded_load();

/// The threads a run asking for `requested` takes under the recorded load: at most the CPUs it leaves free (at
/// least 1); `requested` when no load is recorded or it is below kBusyCpus.
int thread_cap(int requested);

}  // namespace bfs::api
