#include "cli/wait_policy.hpp"

#include <sched.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace bfs::cli {
namespace {

constexpr const char* kPolicy = "OMP_WAIT_POLICY";
constexpr const char* kSpinCount = "GOMP_SPINCOUNT";
/// Marks a process that banditfs re-executed with the passive policy (for the log; never read by libgomp).
constexpr const char* kMarker = "BANDITFS_SET_OMP_WAIT_POLICY";
/// The busy CPUs found at start (or given by hand), for the re-executed process, thread_cap and the log.
constexpr const char* kBusy = "BANDITFS_CPU_BUSY";

std::vector<int> affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::string read_proc_stat() {
  std::ifstream in("/proc/stat");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// "cpuN" → (idle + iowait, total) ticks of a /proc/stat text.
std::map<int, std::pair<double, double>> cpu_ticks(const std::string& stat) {
  std::map<int, std::pair<double, double>> ticks;
  std::istringstream in(stat);
  std::string line;
  while (std::getline(in, line)) {
    int cpu = -1;
    if (line.rfind("cpu", 0) != 0 || std::sscanf(line.c_str(), "cpu%d", &cpu) != 1) continue;
    std::istringstream fields(line.substr(line.find(' ')));
    double value = 0.0, idle = 0.0, total = 0.0;
    // user nice system idle iowait irq softirq steal (guest time is already inside user and nice)
    for (int k = 0; k < 8 && fields >> value; ++k) {
      total += value;
      if (k == 3 || k == 4) idle += value;
    }
    ticks[cpu] = {idle, total};
  }
  return ticks;
}

std::optional<double> parse_busy(const char* text) {
  if (text == nullptr) return std::nullopt;
  char* end = nullptr;
  const double busy = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(busy) || busy < 0.0) return std::nullopt;
  return busy;
}

std::optional<CpuLoad> start_load() {
  const std::optional<double> busy = parse_busy(std::getenv(kBusy));
  if (!busy) return std::nullopt;
  return CpuLoad{std::max<int>(1, static_cast<int>(affinity_cpus().size())), *busy};
}

}  // namespace

std::optional<double> busy_cpus(const std::string& stat_before, const std::string& stat_after,
                                const std::vector<int>& mask_list) {
  const auto before = cpu_ticks(stat_before), after = cpu_ticks(stat_after);
  double busy = 0.0;
  for (int cpu : mask_list) {
    const auto a = before.find(cpu), b = after.find(cpu);
    if (a == before.end() || b == after.end()) return std::nullopt;
    const double total = b->second.second - a->second.second;
    const double idle = b->second.first - a->second.first;
    if (total > 0.0) busy += std::clamp(1.0 - idle / total, 0.0, 1.0);
  }
  return busy;
}

void choose_wait_policy(char** argv) {
  if (std::getenv(kPolicy) != nullptr || std::getenv(kSpinCount) != nullptr) return;
  // Started through the dynamic loader (`ld.so banditfs ...`; no interpreter base): /proc/self/exe is the loader,
  // which would not take these arguments.
  if (::getauxval(AT_BASE) == 0) return;
  std::optional<double> busy = parse_busy(std::getenv(kBusy));
  if (!busy) {
    const std::string before = read_proc_stat();
    std::this_thread::sleep_for(std::chrono::milliseconds(kLoadWindowMs));
    busy = busy_cpus(before, read_proc_stat(), affinity_cpus());
  }
  // Not measurable (no /proc): passive, the choice that is never badly wrong.
  const double found = busy.value_or(kBusyCpus);
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", found);
  if (::setenv(kBusy, text, 1) != 0) return;
  if (found < kBusyCpus) return;  // idle CPUs: libgomp's default
  if (::setenv(kPolicy, "passive", 1) != 0 || ::setenv(kMarker, "1", 1) != 0) return;
  ::execv("/proc/self/exe", argv);
  ::unsetenv(kPolicy);  // no exec (no /proc?): libgomp keeps its default, and the log must not claim otherwise
  ::unsetenv(kMarker);
}

int thread_cap(int requested) {
  const std::optional<CpuLoad> load = start_load();
  if (!load || load->busy < kBusyCpus) return requested;
  const int free = std::max(1, static_cast<int>(std::lround(load->cpus - load->busy)));
  return std::min(requested, free);
}

std::string wait_policy_note() {
  const char* policy = std::getenv(kPolicy);
  const char* spin = std::getenv(kSpinCount);
  const std::optional<CpuLoad> load = start_load();
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
