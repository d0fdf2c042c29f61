#include "api/cpu_load.hpp"

#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

namespace bfs::api {
namespace {

std::optional<std::string> read_proc_stat() {
  std::ifstream in("/proc/stat");
  if (!in) return std::nullopt;
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

}  // namespace

std::optional<double> busy_cpus(const std::string& stat_before, const std::string& stat_after,
                                const std::vector<int>& cpus) {
  const auto before = cpu_ticks(stat_before), after = cpu_ticks(stat_after);
  double busy = 0.0;
  for (int cpu : cpus) {
    const auto a = before.find(cpu), b = after.find(cpu);
    if (a == before.end() || b == after.end()) return std::nullopt;
    const double total = b->second.second - a->second.second;
    const double idle = b->second.first - a->second.first;
    if (total > 0.0) busy += std::clamp(1.0 - idle / total, 0.0, 1.0);
  }
  return busy;
}

std::vector<int> affinity_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (::sched_getaffinity(0, sizeof(set), &set) != 0) return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  return cpus;
}

std::optional<double> measure_busy_cpus() {
  const std::optional<std::string> before = read_proc_stat();
  if (!before) return std::nullopt;
  std::this_thread::sleep_for(std::chrono::milliseconds(kLoadWindowMs));
  const std::optional<std::string> after = read_proc_stat();
  if (!after) return std::nullopt;
  return busy_cpus(*before, *after, affinity_cpus());
}

std::optional<CpuLoad> recorded_load() {
  const char* text = std::getenv(kCpuBusyVariable);
  if (text == nullptr) return std::nullopt;
  char* end = nullptr;
  const double busy = std::strtod(text, &end);
  if (end == text || *end != '\0' || !std::isfinite(busy) || busy < 0.0) return std::nullopt;
  return CpuLoad{std::max<int>(1, static_cast<int>(affinity_cpus().size())), busy};
}

int thread_cap(int requested) {
  const std::optional<CpuLoad> load = recorded_load();
  if (!load || load->busy < kBusyCpus) return requested;
  const int free = std::max(1, static_cast<int>(std::lround(load->cpus - load->busy)));
  return std::min(requested, free);
}

}  // namespace bfs::api
