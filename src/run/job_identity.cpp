#include "run/job_identity.hpp"

#include <map>
#include <set>
#include <sstream>

#include "config/schema.hpp"
#include "core/error.hpp"
#include "core/fnv1a.hpp"

namespace bfs {

namespace {

/// "section.key" → value of every key line of a canonical job text (dump_job's TOML: one key per line).
std::map<std::string, std::string> job_keys(const std::string& text) {
  std::map<std::string, std::string> keys;
  std::istringstream in(text);
  std::string line, section;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line.front() == '[') {
      section = line.substr(1, line.find(']') - 1);
      continue;
    }
    const auto eq = line.find(" = ");
    if (eq != std::string::npos) keys[section + "." + line.substr(0, eq)] = line.substr(eq + 3);
  }
  return keys;
}

}  // namespace

std::string differing_result_keys(const std::string& text_a, const std::string& text_b, const std::string& name_a,
                                  const std::string& name_b, const std::set<std::string>& ignored) {
  const auto before = job_keys(text_a), now = job_keys(text_b);
  std::set<std::string> names;
  for (const auto& [key, value] : before) names.insert(key);
  for (const auto& [key, value] : now) names.insert(key);
  std::string out;
  for (const auto& key : names) {
    if (is_result_neutral_key(key) || ignored.count(key) != 0) continue;
    const auto a = before.find(key), b = now.find(key);
    const std::string va = a == before.end() ? "unset" : a->second, vb = b == now.end() ? "unset" : b->second;
    if (va != vb)
      out += detail::concat(out.empty() ? "" : ", ", key, " (", name_a, " ", va, ", ", name_b, " ", vb, ")");
  }
  return out;
}

std::string differing_keys(const std::string& checkpoint_text, const std::string& job_text, const std::string& saved) {
  const std::string out = differing_result_keys(checkpoint_text, job_text, saved, "this job");
  return out.empty() ? "the job text differs" : out;
}

std::string job_hash(const JobConfig& job) {
  return fnv1a_hex(dump_job_identity(job));
}

}  // namespace bfs
