#include "config/schema.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

#include "config/detail/schema_visitors.hpp"
#include "core/error.hpp"

namespace bfs {

namespace {

using namespace schema_detail;

// ---- reading ---------------------------------------------------------------------------------------------------

template <class Params>
void check_bounds_of(Params params) {
  const BoundsChecker checker("estimator");
  params.visit(checker);
}

template <class Section>
void read_section(const toml::table& root, const char* name, const std::string& origin, Section& section,
                  const std::set<std::string>& overridden) {
  const toml::node* node = root.get(name);
  if (node != nullptr && !node->is_table()) throw ConfigError(detail::concat(origin, ": [", name, "] must be a table"));
  TableReader reader(node ? node->as_table() : nullptr, origin, name, &overridden);
  visit(section, reader);
  reader.reject_unknown_keys();
}

void read_estimator(const toml::table& root, const std::string& origin, EstimatorConfig& config,
                    const std::set<std::string>& overridden) {
  const toml::node* node = root.get("estimator");
  if (node != nullptr && !node->is_table()) throw ConfigError(origin + ": [estimator] must be a table");
  const toml::table* table = node ? node->as_table() : nullptr;
  TableReader name_reader(table, origin, "estimator", &overridden);
  name_reader("name", config.name, text("base estimator"));
  TableReader reader(table, origin, "estimator", &overridden);
  visit_estimator_params(config, reader);
  reader.reject_unknown_keys({"name"}, "estimator \"" + std::string(name_of(config.name)) + "\"");
}

/// Is `text` well-formed UTF-8 (no overlong forms, surrogates or code points above U+10FFFF)?
bool is_utf8(const std::string& text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    // The sequence's length, its lead byte's payload and the smallest code point of that length.
    const std::size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len == 0) return false;
    static constexpr std::uint32_t kPayload[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    static constexpr std::uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    std::uint32_t cp = c & kPayload[len];
    const std::uint32_t min = kMin[len];
    if (n - i < len) return false;
    for (std::size_t k = 1; k < len; ++k) {
      if ((s[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

/// Applies "section.key=value" to the parsed table before the schema reads it; returns "section.key".
std::string apply_override(toml::table& root, const std::string& assignment) {
  const auto eq = assignment.find('=');
  const auto dot = assignment.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq)
    throw ConfigError("--set '" + assignment + "': expected section.key=value");
  const std::string section = assignment.substr(0, dot);
  const std::string key = assignment.substr(dot + 1, eq - dot - 1);
  const std::string raw = assignment.substr(eq + 1);
  toml::table parsed;
  try {
    parsed = toml::parse("v = " + raw);
  } catch (const toml::parse_error&) {
    // A bare word: take it as a string. TOML text is UTF-8 (a job file that is not is refused by the parser), and
    // the canonical dump would write invalid bytes as other characters (fuzz_job, tests/fuzz/regressions/job).
    if (!is_utf8(raw)) throw ConfigError("--set '" + assignment + "': the value is not valid UTF-8 text");
    parsed = toml::table{{"v", raw}};
  }
  if (!root.contains(section)) root.insert(section, toml::table{});
  toml::table* table = root[section].as_table();
  if (table == nullptr) throw ConfigError("--set '" + assignment + "': [" + section + "] is not a table");
  table->insert_or_assign(key, *parsed.get("v"));
  return section + "." + key;
}

/// The catalog entry of `name`, or a ConfigError naming method.name and the known methods.
const MethodDescription& find_description(const MethodCatalog& catalog, const std::string& name,
                                          const std::string& origin) {
  std::vector<std::string> names;
  for (const auto& method : catalog) {
    if (method.name == name) return method;
    names.push_back(method.name);
  }
  throw ConfigError(origin + ": method.name = \"" + name + "\" is not one of " + join(names));
}

/// Every section a job file may have: the common ones and each method's own.
std::vector<std::string> known_sections(const MethodCatalog& catalog) {
  std::vector<std::string> sections = {"data", "estimator", "method", "run", "stability"};
  for (const auto& method : catalog)
    for (const auto& section : method.sections)
      if (std::find(sections.begin(), sections.end(), section) == sections.end()) sections.push_back(section);
  return sections;
}

/// Reads [method]: the name, then exactly the chosen method's keys; records the sections it does not use and
/// refuses them when the file has them.
void read_method(const toml::table& root, const std::string& origin, const MethodCatalog& catalog, MethodConfig& config,
                 const std::set<std::string>& overridden) {
  const toml::node* node = root.get("method");
  if (node != nullptr && !node->is_table()) throw ConfigError(origin + ": [method] must be a table");
  const toml::table* table = node ? node->as_table() : nullptr;
  TableReader name_reader(table, origin, "method", &overridden);
  name_reader("name", config.name, text("method"));
  const MethodDescription& chosen = find_description(catalog, config.name, origin);

  config.unused_sections.clear();
  for (const auto& method : catalog)
    for (const auto& section : method.sections) {
      const bool own = std::find(chosen.sections.begin(), chosen.sections.end(), section) != chosen.sections.end();
      const bool listed = std::find(config.unused_sections.begin(), config.unused_sections.end(), section) !=
                          config.unused_sections.end();
      if (own || listed) continue;
      config.unused_sections.push_back(section);
      if (root.contains(section))
        throw ConfigError(detail::concat(origin, ": section [", section, "] belongs to method \"", method.name,
                                         "\", but method.name = \"", config.name, "\""));
    }
  config.sections = chosen.sections;
  config.logged_data = chosen.logged_data;
  config.binary_only = chosen.binary_only;
  if (!chosen.uses_estimator) {
    config.unused_sections.push_back("estimator");
    if (root.contains("estimator"))
      throw ConfigError(origin + ": section [estimator] is not used by method \"" + config.name + "\"");
  }

  config.params = MethodParamsBox(chosen.make_params ? chosen.make_params() : nullptr);
  TableReader reader(table, origin, "method", &overridden);
  if (config.params) {
    ErasedVisitor<TableReader> erased(reader);
    config.params.get()->visit(erased);
  }
  reader.reject_unknown_keys({"name"}, "method \"" + config.name + "\"");
}

/// Reads the chosen method's own sections (MethodDescription::sections) through its parameters' visit_section.
void read_method_sections(const toml::table& root, const std::string& origin, MethodConfig& config,
                          const std::set<std::string>& overridden) {
  for (const auto& name : config.sections) {
    const toml::node* node = root.get(name);
    if (node != nullptr && !node->is_table())
      throw ConfigError(detail::concat(origin, ": [", name, "] must be a table"));
    TableReader reader(node ? node->as_table() : nullptr, origin, name, &overridden);
    if (config.params) {
      ErasedVisitor<TableReader> erased(reader);
      config.params.get()->visit_section(name, erased);
    }
    reader.reject_unknown_keys();
  }
}

}  // namespace

namespace {
/// Fails on a top-level key of the job file that is not a known section.
void refuse_unknown_sections(const toml::table& root, const std::vector<std::string>& sections,
                             const std::string& origin) {
  for (const auto& [key, node] : root)
    if (std::find(sections.begin(), sections.end(), std::string(key.str())) == sections.end())
      throw ConfigError(origin + ": unknown section or key '" + std::string(key.str()) +
                        "' (sections: " + join(sections) + ")");
}
}  // namespace

JobConfig parse_job(const MethodCatalog& methods, const std::string& toml_text, const std::string& origin,
                    const std::vector<std::string>& overrides) {
  toml::table root;
  try {
    root = toml::parse(toml_text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << origin << ":" << e.source().begin.line << ":" << e.source().begin.column << ": " << e.description();
    throw ConfigError(msg.str());
  }
  const std::vector<std::string> sections = known_sections(methods);
  refuse_unknown_sections(root, sections, origin);  // the file's own, named as the file's
  std::set<std::string> overridden;
  for (const auto& assignment : overrides) {
    const std::string section = apply_override(root, assignment);
    if (std::find(sections.begin(), sections.end(), section.substr(0, section.find('.'))) == sections.end())
      throw ConfigError("--set '" + assignment + "': unknown section '" + section.substr(0, section.find('.')) +
                        "' (sections: " + join(sections) + ")");
    overridden.insert(section);
  }
  JobConfig job;
  read_method(root, origin, methods, job.method, overridden);
  read_section(root, "data", origin, job.data, overridden);
  // A method of bandit logs simulates a log unless told otherwise (data.dgp's default is an (X, y) design).
  const toml::table* data_table = root["data"].as_table();
  if (job.method.logged_data && (data_table == nullptr || !data_table->contains("dgp"))) job.data.dgp = Dgp::CmabHte;
  if (job.method.binary_only && (data_table == nullptr || !data_table->contains("task"))) job.data.task = Task::Binary;
  if (job.method.uses("estimator")) read_estimator(root, origin, job.estimator, overridden);
  read_method_sections(root, origin, job.method, overridden);
  read_section(root, "run", origin, job.run, overridden);
  read_section(root, "stability", origin, job.stability, overridden);
  const toml::table* run_table = root["run"].as_table();
  job.run.out_given = run_table != nullptr && run_table->contains("out");
  validate(job);
  return job;
}

JobConfig load_job(const MethodCatalog& methods, const std::string& path, const std::vector<std::string>& overrides) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) throw ConfigError("cannot read job file '" + path + "': no such file");
  if (!std::filesystem::is_regular_file(path, ec))
    throw ConfigError("job file '" + path + "' is not a regular file (a directory?); give the path of a TOML job file");
  std::ifstream in(path);
  if (!in) throw ConfigError("cannot read job file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  JobConfig job = parse_job(methods, text.str(), path, overrides);
  // Jobs that name no directory get one each, so that they never replace each other's results.
  if (!job.run.out_given)
    job.run.out = (std::filesystem::path("results") / std::filesystem::path(path).stem()).string();
  return job;
}

namespace {
/// The keys of contextual-bandit logs against the method's kind (MethodDescription::logged_data).
void validate_logged_data_keys(const JobConfig& job) {
  const DataConfig& data = job.data;
  const std::string method = "method.name = \"" + job.method.name + "\"";
  if (job.method.logged_data) {
    if (!data.target.empty())
      throw ConfigError("data.target = \"" + data.target + "\" does not apply to " + method +
                        ", which reads bandit logs: name data.arm and data.reward");
    if (data.source == SourceKind::Csv && (data.arm.empty() || data.reward.empty()))
      throw ConfigError(std::string("data.") + (data.arm.empty() ? "arm" : "reward") +
                        " is required when data.source = \"csv\" for " + method);
    if (data.source == SourceKind::Simulate && data.dgp != Dgp::CmabHte)
      throw ConfigError("data.dgp = \"" + std::string(name_of(data.dgp)) + "\" simulates (X, y), but " + method +
                        " reads bandit logs: use data.dgp = \"cmab-hte\" or a CSV/HDF5 log");
    if (data.knockoffs != Knockoffs::None)
      throw ConfigError("data.knockoffs = \"" + std::string(name_of(data.knockoffs)) + "\" does not apply to " +
                        method + ", which reads bandit logs (knockoffs are columns of an (X, y) data set)");
    return;
  }
  const std::pair<const char*, bool> logged_keys[] = {
      {"arm", !data.arm.empty()}, {"reward", !data.reward.empty()}, {"arms", !data.arms.empty()}};
  for (const auto& [key, given] : logged_keys)
    if (given)
      throw ConfigError(std::string("data.") + key + " is for bandit logs (method cmab-scores), not " + method);
  if (data.source == SourceKind::Simulate && data.dgp == Dgp::CmabHte)
    throw ConfigError("data.dgp = \"cmab-hte\" simulates bandit logs (method cmab-scores), not (X, y) for " + method);
}
/// [stability]: one way to set the threshold, and no keys of a disabled section (they would be dropped silently).
void validate_stability(const StabilityConfig& s) {
  if (s.threshold && s.max_false)
    throw ConfigError(detail::concat("stability.threshold = ", *s.threshold,
                                     " and stability.max_false = ", *s.max_false,
                                     " both set the selection threshold; give one of them (max_false derives the "
                                     "threshold from the bound, docs/stability.md)"));
  if (s.enabled) return;
  const StabilityConfig defaults;
  const char* given = s.threshold                 ? "threshold"
                      : s.max_false               ? "max_false"
                      : s.pairs != defaults.pairs ? "pairs"
                                                  : nullptr;
  if (given != nullptr)
    throw ConfigError(std::string("stability.") + given +
                      " is read only with stability.enabled = true; add enabled = true to [stability], or remove it");
}
}  // namespace

void validate(const JobConfig& job) {
  validate_stability(job.stability);
  if (job.data.source != SourceKind::Simulate && job.data.path.empty())
    throw ConfigError("data.path is required when data.source = \"" + std::string(name_of(job.data.source)) + "\"");
  validate_logged_data_keys(job);
  if (job.data.source == SourceKind::Csv && job.data.target.empty() && !job.method.logged_data)
    throw ConfigError("data.target is required when data.source = \"csv\"");
  if (job.data.positive_label && job.data.task != Task::Binary)
    throw ConfigError("data.positive_label is only used with data.task = \"binary\"");
  if (job.method.uses("estimator")) check_estimator_task(job.estimator.name, job.data.task);
  if (job.method.params) job.method.params.get()->validate(job);
}

#define BFS_ESTIMATOR_CHECK_BOUNDS(value, name, member, params, tasks) \
  void check_bounds(const params& p) {                                 \
    check_bounds_of(p);                                                \
  }
BFS_ESTIMATORS(BFS_ESTIMATOR_CHECK_BOUNDS)
#undef BFS_ESTIMATOR_CHECK_BOUNDS

namespace {

/// Sets the result-neutral keys of `config` to the values a default-built section of its type has.
template <class Section>
void reset_neutral_keys(Section& config, Section defaults) {
  NeutralValues collect;
  visit(defaults, collect);
  NeutralReset reset(collect.values());
  visit(config, reset);
}

/// The canonical dump; `identity`: with every result-neutral key at its default.
std::string dump(const JobConfig& job_in, bool identity) {
  JobConfig job = job_in;
  toml::table root;
  auto section = [&](const char* name, auto& config) {
    if (!job.method.uses(name)) return;
    if (identity) reset_neutral_keys(config, std::decay_t<decltype(config)>{});
    toml::table table;
    TableWriter writer(table);
    visit(config, writer);
    root.insert_or_assign(name, std::move(table));
  };
  section("data", job.data);
  if (job.method.uses("estimator")) {
    if (identity) {
      EstimatorConfig defaults;
      defaults.name = job.estimator.name;
      NeutralValues collect;
      visit_estimator_params(defaults, collect);
      NeutralReset reset(collect.values());
      visit_estimator_params(job.estimator, reset);
    }
    toml::table table;
    table.insert_or_assign("name", std::string(name_of(job.estimator.name)));
    TableWriter writer(table);
    visit_estimator_params(job.estimator, writer);
    root.insert_or_assign("estimator", std::move(table));
  }
  for (const auto& name : job.method.sections) {
    MethodParams* params = job.method.params.get();
    if (params == nullptr || !params->dumps_section(name)) continue;
    toml::table table;
    TableWriter writer(table);
    ErasedVisitor<TableWriter> erased(writer);
    params->visit_section(name, erased);
    root.insert_or_assign(name, std::move(table));
  }
  {
    toml::table table;
    table.insert_or_assign("name", job.method.name);
    if (job.method.params) {
      TableWriter writer(table);
      ErasedVisitor<TableWriter> erased(writer);
      job.method.params.get()->visit(erased);
    }
    root.insert_or_assign("method", std::move(table));
  }
  section("run", job.run);
  // Only when enabled: a job without stability selection keeps the canonical text (and job hash) it always had.
  if (job.stability.enabled) section("stability", job.stability);
  std::ostringstream out;
  out << root;
  return out.str() + "\n";
}

/// "section.key" of every result-neutral key of the schema's sections and estimators (a method's own sections may
/// declare none: ErasedVisitor refuses it). A key name that one estimator flags and another does not is left out:
/// the dotted key alone cannot say which estimator it belongs to.
std::set<std::string> result_neutral_keys() {
  std::set<std::string> neutral, other;
  JobConfig job;
  auto section = [&](const char* name, auto& config) {
    NeutralKeyNames names(name, neutral, other);
    visit(config, names);
  };
  section("data", job.data);
  section("run", job.run);
  for (const auto& [name, text] : enum_table(EstimatorName{})) {
    job.estimator.name = name;
    NeutralKeyNames names("estimator", neutral, other);
    visit_estimator_params(job.estimator, names);
  }
  for (const auto& key : other) neutral.erase(key);
  return neutral;
}

}  // namespace

std::string dump_job(const JobConfig& job) {
  return dump(job, false);
}

std::string dump_job_identity(const JobConfig& job) {
  return dump(job, true);
}

bool is_result_neutral_key(const std::string& dotted_key) {
  static const std::set<std::string> keys = result_neutral_keys();
  return keys.count(dotted_key) > 0;
}

std::string describe_keys(const MethodCatalog& methods) {
  std::ostringstream out;
  JobConfig job;
  job.run.out = "results/<job file stem>";  // load_job's default for a job file
  auto section = [&](const char* name, auto& config) {
    out << "[" << name << "]\n";
    KeyDescriber describer(out, name);
    visit(config, describer);
  };
  section("data", job.data);
  for (const auto& [name, text] : enum_table(EstimatorName{})) {
    out << "[estimator] name = \"" << text << "\"\n";
    job.estimator.name = name;
    KeyDescriber describer(out, "estimator");
    visit_estimator_params(job.estimator, describer);
  }
  section("run", job.run);
  section("stability", job.stability);
  for (const auto& method : methods) {
    out << "[method] name = \"" << method.name << "\"" << (method.uses_estimator ? "" : "  (no [estimator])");
    if (!method.sections.empty()) {
      out << "  (its sections:";
      for (const auto& name : method.sections) out << " [" << name << "]";
      out << ")";
    }
    out << "\n";
    if (!method.make_params) continue;
    const auto params = method.make_params();
    KeyDescriber describer(out, "method");
    ErasedVisitor<KeyDescriber> erased(describer);
    params->visit(erased);
    for (const auto& name : method.sections) {
      out << "[" << name << "]\n";
      KeyDescriber section_describer(out, name);
      ErasedVisitor<KeyDescriber> erased_section(section_describer);
      params->visit_section(name, erased_section);
    }
  }
  return out.str();
}

}  // namespace bfs
