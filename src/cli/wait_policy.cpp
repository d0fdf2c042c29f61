#include "cli/wait_policy.hpp"

#include <sys/auxv.h>
#include <unistd.h>

#include <cstdlib>

namespace bfs::cli {
namespace {

constexpr const char* kPolicy = "OMP_WAIT_POLICY";
constexpr const char* kSpinCount = "GOMP_SPINCOUNT";
/// Marks a process that banditfs re-executed with the passive policy (for the log; never read by libgomp).
constexpr const char* kMarker = "BANDITFS_SET_OMP_WAIT_POLICY";

}  // namespace

void wait_passively_unless_chosen(char** argv) {
  if (std::getenv(kPolicy) != nullptr || std::getenv(kSpinCount) != nullptr) return;
  // Started through the dynamic loader (`ld.so banditfs ...`; no interpreter base): /proc/self/exe is the loader,
  // which would not take these arguments.
  if (::getauxval(AT_BASE) == 0) return;
  if (::setenv(kPolicy, "passive", 1) != 0 || ::setenv(kMarker, "1", 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv(kPolicy);  // no exec (no /proc?): libgomp keeps its default, and the log must not claim otherwise
  ::unsetenv(kMarker);
}

std::string wait_policy_note() {
  const char* policy = std::getenv(kPolicy);
  const char* spin = std::getenv(kSpinCount);
  if (policy != nullptr && std::getenv(kMarker) != nullptr)
    return std::string("OpenMP wait policy ") + policy +
           " (set by banditfs; OMP_WAIT_POLICY=active makes idle threads spin)";
  if (policy != nullptr || spin != nullptr)
    return std::string("OpenMP wait policy from the environment: OMP_WAIT_POLICY=") + (policy ? policy : "(unset)") +
           " GOMP_SPINCOUNT=" + (spin ? spin : "(unset)");
  return "OpenMP wait policy libgomp's default (idle threads spin briefly): banditfs could not re-execute itself "
         "with OMP_WAIT_POLICY=passive (started through the dynamic loader, or no /proc); set it before the run";
}

}  // namespace bfs::cli
