#include "config/schema.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "config/detail/schema_sections.hpp"
#include "core/error.hpp"

namespace bfs {

namespace {

using namespace schema_detail;

// ---- reading ---------------------------------------------------------------------------------------------------

/// ConfigError "<where> = x is out of range: must be in [min, max]" unless x lies within the key's bounds.
void check_in_range(const std::string& where, double x, const Spec& spec) {
  const bool low = spec.min_exclusive ? !(x > spec.min) : !(x >= spec.min);
  const bool high = spec.max_exclusive ? !(x < spec.max) : !(x <= spec.max);
  if (low || high || std::isnan(x)) {
    std::ostringstream msg;
    msg << where << " = " << x << " is out of range: must be in " << (spec.min_exclusive ? "(" : "[") << spec.min
        << ", " << spec.max << (spec.max_exclusive ? ")" : "]");
    throw ConfigError(msg.str());
  }
}

/// Checks the values already in a section struct against the schema's bounds (parameters built in code).
class BoundsChecker {
 public:
  explicit BoundsChecker(std::string section) : section_(std::move(section)) {}
  template <class T>
  void operator()(const char* key, T& value, const Spec& spec) const {
    if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
      check_in_range(section_ + "." + key, static_cast<double>(value), spec);
    } else if constexpr (std::is_same_v<T, std::vector<int>> || std::is_same_v<T, std::vector<double>>) {
      for (const auto x : value) check_in_range(section_ + "." + key, static_cast<double>(x), spec);
    }
  }

 private:
  std::string section_;
};

template <class Params>
void check_bounds_of(Params params) {
  const BoundsChecker checker("estimator");
  visit(params, checker);
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + ("\"" + item + "\"");
  return out;
}

std::string show(const toml::node& node) {
  std::ostringstream out;
  if (node.is_string()) out << '"' << *node.value<std::string>() << '"';
  else if (node.is_table()) out << "a table";
  else if (node.is_array()) out << "an array";
  else node.visit([&](auto&& value) {
    if constexpr (toml::is_value<decltype(value)>) out << value;
  });
  return out.str();
}

/// Reads the keys of one TOML table into a section struct; every problem names "origin: section.key".
class TableReader {
 public:
  TableReader(const toml::table* table, std::string origin, std::string section)
      : table_(table), origin_(std::move(origin)), section_(std::move(section)) {}

  template <class T>
  void operator()(const char* key, T& value, const Spec& spec) {
    known_.insert(key);
    if (table_ == nullptr) return;
    const toml::node* node = table_->get(key);
    if (node == nullptr) return;
    read(key, *node, value, spec);
  }

  /// Fails on any key of the table that no visit asked for.
  void reject_unknown_keys(const std::vector<std::string>& extra_allowed = {}) const {
    if (table_ == nullptr) return;
    for (const auto& [key, node] : *table_) {
      const std::string name(key.str());
      if (known_.count(name) || std::find(extra_allowed.begin(), extra_allowed.end(), name) != extra_allowed.end())
        continue;
      std::vector<std::string> known(known_.begin(), known_.end());
      throw ConfigError(origin_ + ": unknown key '" + section_ + "." + name + "' (valid keys in [" + section_ +
                        "]: " + join(known) + ")");
    }
  }

 private:
  std::string where(const char* key) const { return origin_ + ": " + section_ + "." + key; }

  [[noreturn]] void wrong_type(const char* key, const toml::node& node, const char* expected) const {
    throw ConfigError(where(key) + " = " + show(node) + ": expected " + expected);
  }

  void check_range(const char* key, double x, const Spec& spec) const { check_in_range(where(key), x, spec); }

  void read(const char* key, const toml::node& node, std::string& value, const Spec& spec) {
    auto s = node.value<std::string>();
    if (!node.is_string() || !s) wrong_type(key, node, "a string");
    if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), *s) == spec.choices.end())
      throw ConfigError(where(key) + " = \"" + *s + "\" is not one of " + join(spec.choices));
    value = *s;
  }
  template <class E>
    requires std::is_enum_v<E>
  void read(const char* key, const toml::node& node, E& value, const Spec&) {
    auto s = node.value<std::string>();
    if (!node.is_string() || !s) wrong_type(key, node, "a string");
    if (const auto parsed = enum_from_name<E>(*s)) {
      value = *parsed;
      return;
    }
    throw ConfigError(where(key) + " = \"" + *s + "\" is not one of " + join(enum_names<E>()));
  }
  template <class T>
  void read(const char* key, const toml::node& node, std::optional<T>& value, const Spec& spec) {
    T inner{};
    read(key, node, inner, spec);
    value = inner;
  }
  void read(const char* key, const toml::node& node, bool& value, const Spec&) {
    if (!node.is_boolean()) wrong_type(key, node, "true or false");
    value = *node.value<bool>();
  }
  void read(const char* key, const toml::node& node, double& value, const Spec& spec) {
    if (!node.is_number()) wrong_type(key, node, "a number");
    value = *node.value<double>();
    check_range(key, value, spec);
  }
  template <class Int>
    requires std::is_integral_v<Int>
  void read(const char* key, const toml::node& node, Int& value, const Spec& spec) {
    if (!node.is_integer()) wrong_type(key, node, "an integer");
    const std::int64_t x = *node.value<std::int64_t>();
    check_range(key, static_cast<double>(x), spec);
    value = static_cast<Int>(x);
  }
  void read(const char* key, const toml::node& node, std::vector<std::string>& value, const Spec&) {
    const toml::array* array = node.as_array();
    if (array == nullptr) wrong_type(key, node, "an array of strings");
    value.clear();
    for (const auto& item : *array) {
      if (!item.is_string()) wrong_type(key, node, "an array of strings");
      value.push_back(*item.value<std::string>());
    }
  }
  /// A list of integers, each checked against the key's bounds.
  void read(const char* key, const toml::node& node, std::vector<int>& value, const Spec& spec) {
    const toml::array* array = node.as_array();
    if (array == nullptr) wrong_type(key, node, "an array of integers");
    value.clear();
    for (const auto& item : *array) {
      if (!item.is_integer()) wrong_type(key, node, "an array of integers");
      const std::int64_t x = *item.value<std::int64_t>();
      check_range(key, static_cast<double>(x), spec);
      value.push_back(static_cast<int>(x));
    }
  }
  /// A list of numbers, each checked against the key's bounds.
  void read(const char* key, const toml::node& node, std::vector<double>& value, const Spec& spec) {
    const toml::array* array = node.as_array();
    if (array == nullptr) wrong_type(key, node, "an array of numbers");
    value.clear();
    for (const auto& item : *array) {
      if (!item.is_number()) wrong_type(key, node, "an array of numbers");
      value.push_back(*item.value<double>());
      check_range(key, value.back(), spec);
    }
  }
  void read(const char* key, const toml::node& node, std::vector<std::vector<std::string>>& value, const Spec&) {
    const toml::array* array = node.as_array();
    if (array == nullptr) wrong_type(key, node, "an array of arrays of feature names");
    value.clear();
    for (const auto& group : *array) {
      const toml::array* names = group.as_array();
      if (names == nullptr || names->empty()) wrong_type(key, node, "an array of non-empty arrays of feature names");
      std::vector<std::string> out;
      for (const auto& item : *names) {
        if (!item.is_string()) wrong_type(key, node, "an array of arrays of feature names");
        out.push_back(*item.value<std::string>());
      }
      value.push_back(std::move(out));
    }
  }

  const toml::table* table_;
  std::string origin_;
  std::string section_;
  std::set<std::string> known_;
};

template <class Section>
void read_section(const toml::table& root, const char* name, const std::string& origin, Section& section) {
  const toml::node* node = root.get(name);
  if (node != nullptr && !node->is_table()) throw ConfigError(origin + ": [" + name + "] must be a table");
  TableReader reader(node ? node->as_table() : nullptr, origin, name);
  visit(section, reader);
  reader.reject_unknown_keys();
}

void read_estimator(const toml::table& root, const std::string& origin, EstimatorConfig& config) {
  const toml::node* node = root.get("estimator");
  if (node != nullptr && !node->is_table()) throw ConfigError(origin + ": [estimator] must be a table");
  const toml::table* table = node ? node->as_table() : nullptr;
  TableReader name_reader(table, origin, "estimator");
  name_reader("name", config.name, text("base estimator"));
  TableReader reader(table, origin, "estimator");
  visit_estimator_params(config, reader);
  reader.reject_unknown_keys({"name"});
}

/// Applies "section.key=value" to the parsed table before the schema reads it.
void apply_override(toml::table& root, const std::string& assignment) {
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
    parsed = toml::table{{"v", raw}};  // a bare word: take it as a string
  }
  if (!root.contains(section)) root.insert(section, toml::table{});
  toml::table* table = root[section].as_table();
  if (table == nullptr) throw ConfigError("--set '" + assignment + "': [" + section + "] is not a table");
  table->insert_or_assign(key, *parsed.get("v"));
}

// ---- dumping ---------------------------------------------------------------------------------------------------

class TableWriter {
 public:
  explicit TableWriter(toml::table& table) : table_(table) {}
  template <class T>
  void operator()(const char* key, T& value, const Spec& spec) {
    if constexpr (IsOptional<T>::value) {
      if (value) (*this)(key, *value, spec);
    } else if constexpr (std::is_enum_v<T>) {
      table_.insert_or_assign(key, std::string(name_of(value)));
    } else if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, bool> || std::is_same_v<T, double>) {
      table_.insert_or_assign(key, value);
    } else if constexpr (std::is_integral_v<T>) {
      table_.insert_or_assign(key, static_cast<std::int64_t>(value));
    } else if constexpr (std::is_same_v<T, std::vector<std::vector<std::string>>>) {
      toml::array outer;
      for (const auto& group : value) {
        toml::array inner;
        for (const auto& item : group) inner.push_back(item);
        outer.push_back(std::move(inner));
      }
      table_.insert_or_assign(key, std::move(outer));
    } else {
      toml::array array;
      for (const auto& item : value) {
        if constexpr (std::is_integral_v<std::decay_t<decltype(item)>>) array.push_back(static_cast<std::int64_t>(item));
        else array.push_back(item);
      }
      table_.insert_or_assign(key, std::move(array));
    }
  }

 private:
  toml::table& table_;
};

class KeyDescriber {
 public:
  KeyDescriber(std::ostringstream& out, std::string section) : out_(out), section_(std::move(section)) {}
  template <class T>
  void operator()(const char* key, T&, const Spec& spec) {
    out_ << "  " << section_ << "." << key;
    using E = typename EnumOf<T>::type;
    if constexpr (!std::is_void_v<E>) out_ << "  (" << join(enum_names<E>()) << ")";
    else if (!spec.choices.empty()) out_ << "  (" << join(spec.choices) << ")";
    else if (spec.min > -kInf || spec.max < kInf)
      out_ << "  " << (spec.min_exclusive ? "(" : "[") << spec.min << ", " << spec.max
           << (spec.max_exclusive ? ")" : "]");
    out_ << "  " << spec.description << "\n";
  }

 private:
  std::ostringstream& out_;
  std::string section_;
};

}  // namespace

JobConfig parse_job(const std::string& toml_text, const std::string& origin, const std::vector<std::string>& overrides) {
  toml::table root;
  try {
    root = toml::parse(toml_text, origin);
  } catch (const toml::parse_error& e) {
    std::ostringstream msg;
    msg << origin << ":" << e.source().begin.line << ":" << e.source().begin.column << ": " << e.description();
    throw ConfigError(msg.str());
  }
  for (const auto& assignment : overrides) apply_override(root, assignment);

  static const std::vector<std::string> sections = {"data",   "estimator", "reward", "bandit",
                                                     "method", "run",       "tuning"};
  for (const auto& [key, node] : root) {
    if (std::find(sections.begin(), sections.end(), std::string(key.str())) == sections.end())
      throw ConfigError(origin + ": unknown section or key '" + std::string(key.str()) + "' (sections: " +
                        join(sections) + ")");
  }
  JobConfig job;
  read_section(root, "data", origin, job.data);
  read_estimator(root, origin, job.estimator);
  read_section(root, "reward", origin, job.reward);
  read_section(root, "bandit", origin, job.bandit);
  read_section(root, "method", origin, job.method);
  read_section(root, "run", origin, job.run);
  read_section(root, "tuning", origin, job.tuning);
  validate(job);
  return job;
}

JobConfig load_job(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw ConfigError("cannot read job file '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_job(text.str(), path, overrides);
}

void validate(const JobConfig& job) {
  if (job.reward.rule == RewardRule::LassoNonzero && job.estimator.name != EstimatorName::Lasso)
    throw ConfigError("reward.rule = \"lasso-nonzero\" needs estimator.name = \"lasso\" (got \"" +
                      std::string(name_of(job.estimator.name)) + "\")");
  if (job.data.source != SourceKind::Simulate && job.data.path.empty())
    throw ConfigError("data.path is required when data.source = \"" + std::string(name_of(job.data.source)) + "\"");
  if (job.data.source == SourceKind::Csv && job.data.target.empty())
    throw ConfigError("data.target is required when data.source = \"csv\"");
  if (job.bandit.mode == Mode::Offline && job.data.source == SourceKind::Simulate && job.data.periods != 1)
    throw ConfigError("data.periods = " + std::to_string(job.data.periods) +
                      " needs bandit.mode = \"online\" (offline runs use one data set)");
  if (job.bandit.tvs_q > 0 && job.bandit.policy != PolicyKind::Tvs)
    throw ConfigError("bandit.tvs_q is only used with bandit.policy = \"tvs\"");
  const Metric metric = job_metric(job.data, job.reward);
  if (!metric_fits_task(metric, job.data.task))
    throw ConfigError("reward.metric = \"" + std::string(name_of(metric)) + "\" does not fit data.task = \"" +
                      std::string(name_of(job.data.task)) + "\" (" +
                      (job.data.task == Task::Binary ? "binary targets take auc, log_loss or accuracy"
                                                     : "regression targets take r2") + ")");
  if (metric == Metric::LogLoss && job.reward.min_r2 > -std::numeric_limits<double>::infinity())
    throw ConfigError("reward.min_r2 = " + std::to_string(job.reward.min_r2) +
                      " needs a metric where higher is better (r2, auc, accuracy); reward.metric = \"log_loss\" is a "
                      "loss");
  if (job.data.positive_label && job.data.task != Task::Binary)
    throw ConfigError("data.positive_label is only used with data.task = \"binary\"");
  validate_tuning(job.tuning, job.estimator);
  if (job.tuning.enabled && job.data.task == Task::Binary)
    throw ConfigError("tuning.enabled = true needs data.task = \"regression\": the grid search scores its folds by R²");
}

void validate_tuning(const TuningConfig& tuning, const EstimatorConfig& estimator) {
  if (!tuning.enabled) return;
  if (estimator.name != EstimatorName::Gbm)
    throw ConfigError("tuning.enabled = true needs estimator.name = \"gbm\" (got \"" +
                      std::string(name_of(estimator.name)) +
                      "\"): only the gbm parameters are tunable");
  if (tuning.folds < 2)
    throw ConfigError("tuning.folds = " + std::to_string(tuning.folds) + " is out of range: must be at least 2");
  if (tuning.period < 0)
    throw ConfigError("tuning.period = " + std::to_string(tuning.period) + " is out of range: must be >= 0");
}

void check_bounds(const LassoParams& params) { check_bounds_of(params); }
void check_bounds(const RandomForestParams& params) { check_bounds_of(params); }
void check_bounds(const GbmParams& params) { check_bounds_of(params); }
void check_bounds(const MlpParams& params) { check_bounds_of(params); }

std::string dump_job(const JobConfig& job_in) {
  JobConfig job = job_in;
  toml::table root;
  auto section = [&](const char* name, auto& config) {
    toml::table table;
    TableWriter writer(table);
    visit(config, writer);
    root.insert_or_assign(name, std::move(table));
  };
  section("data", job.data);
  {
    toml::table table;
    table.insert_or_assign("name", std::string(name_of(job.estimator.name)));
    TableWriter writer(table);
    visit_estimator_params(job.estimator, writer);
    root.insert_or_assign("estimator", std::move(table));
  }
  section("reward", job.reward);
  section("bandit", job.bandit);
  section("method", job.method);
  section("run", job.run);
  // [tuning] only when enabled: a disabled section does not change any number of the run, and leaving it out keeps
  // the canonical text (and so the checkpoint job hash) of every job written before tuning existed.
  if (job.tuning.enabled) section("tuning", job.tuning);
  std::ostringstream out;
  out << root;
  return out.str() + "\n";
}

std::string describe_keys() {
  std::ostringstream out;
  JobConfig job;
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
  section("reward", job.reward);
  section("bandit", job.bandit);
  section("method", job.method);
  section("run", job.run);
  section("tuning", job.tuning);
  return out.str();
}

}  // namespace bfs
