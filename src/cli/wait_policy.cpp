#include "cli/wait_policy.hpp"

#include <sys/auxv.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string_view>

#include "api/cpu_load.hpp"

namespace bfs::cli {
namespace {

constexpr const char* kPolicy = "OMP_WAIT_POLICY";
constexpr const char* kSpinCount = "GOMP_SPINCOUNT";
/// Marks a process that banditfs re-executed with the passive policy (for the log; never read by libgomp).
constexpr const char* kMarker = "BANDITFS_SET_OMP_WAIT_POLICY";

}  // namespace

void choose_wait_policy(int argc, char** argv) {
  const std::string_view command = argc > 1 ? argv[1] : "";
  if (command != "run" && command != "evaluate") return;
  if (std::getenv(kPolicy) != nullptr || std::getenv(kSpinCount) != nullptr) return;
  // Started through the dynamic loader (`ld.so banditfs ...`; no interpreter base): /proc/self/exe is the loader,
  // which would not take these arguments.
  if (::getauxval(AT_BASE) == 0) return;
  const std::optional<api::CpuLoad> given = api::recorded_load();
  // Not measurable (no /proc): passive, the choice that is never badly wrong.
  const double busy = given ? given->busy : api::measure_busy_cpus().value_or(api::kBusyCpus);
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", busy);
  if (::setenv(api::kCpuBusyVariable, text, 1) != 0) return;
  if (busy < api::kBusyCpus) return;  // idle CPUs: libgomp's default
  if (::setenv(kPolicy, "passive", 1) != 0 || ::setenv(kMarker, "1", 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv(kPolicy);  // no exec (no /proc?): libgomp keeps its default, and the log must not claim otherwise
  ::unsetenv(kMarker);
}

std::string wait_policy_note() {
  const char* policy = std::getenv(kPolicy);
  const char* spin = std::getenv(kSpinCount);
  const std::optional<api::CpuLoad> load = api::recorded_load();
  char found[96] = "";
  if (load)
    std::snprintf(found, sizeof(found), "%.2f of the %d CPUs this run may use busy with other work at start",
                  load->busy, load->cpus);
  if (policy != nullptr && std::getenv(kMarker) != nullptr)
    return std::string("OpenMP wait policy ") + policy + " (set by banditfs: " + found +
           "; the run takes no more threads than the CPUs left free; OMP_WAIT_POLICY=active keeps every thread "
           "and lets idle ones spin)";
  if (policy != nullptr || spin != nullptr)
    return std::string("OpenMP wait policy from the environment: OMP_WAIT_POLICY=") + (policy ? policy : "(unset)") +
           " GOMP_SPINCOUNT=" + (spin ? spin : "(unset)");
  if (load)
    return std::string("OpenMP wait policy libgomp's default (idle threads spin briefly): ") + found +
           "; OMP_WAIT_POLICY=passive makes them sleep";
  return "OpenMP wait policy libgomp's default (idle threads spin briefly): banditfs could not re-execute itself "
         "(started through the dynamic loader, or no /proc); set OMP_WAIT_POLICY=passive on a busy node";
}

}  // namespace bfs::cli
