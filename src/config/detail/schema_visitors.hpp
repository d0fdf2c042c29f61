#pragma once
// The schema's visitors (docs/design.md §5): reading a TOML table into a section struct, writing one back, describing
// its keys and checking bounds — each a template over the key's type, walked by the visit() declarations of
// config/detail/schema_sections.hpp — and ErasedVisitor, which lets the same visitors walk a method's parameters
// through config/method_params.hpp's KeyVisitor. Included only by config/schema*.cpp.
#include <toml++/toml.h>

#include <algorithm>
#include <any>
#include <charconv>
#include <cmath>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "config/detail/schema_sections.hpp"
#include "config/method_params.hpp"
#include "core/enum_names.hpp"
#include "core/error.hpp"

namespace bfs::schema_detail {

// ---- reading ---------------------------------------------------------------------------------------------------

/// ConfigError "<where> = x is out of range: must be in [min, max]" unless x lies within the key's bounds.
inline void check_in_range(const std::string& where, double x, const Spec& spec) {
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

inline std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + ("\"" + item + "\"");
  return out;
}

inline std::string show(const toml::node& node) {
  std::ostringstream out;
  if (node.is_string())
    out << '"' << *node.value<std::string>() << '"';
  else if (node.is_table())
    out << "a table";
  else if (node.is_array())
    out << "an array";
  else
    node.visit([&](auto&& value) {
      if constexpr (toml::is_value<decltype(value)>) out << value;
    });
  return out.str();
}

/// Reads the keys of one TOML table into a section struct; every problem names "origin: section.key".
class TableReader {
 public:
  /// `overridden` lists the "section.key" values that came from --set: their errors name --set, not the file.
  TableReader(const toml::table* table, std::string origin, std::string section,
              const std::set<std::string>* overridden = nullptr)
      : table_(table), origin_(std::move(origin)), section_(std::move(section)), overridden_(overridden) {}

  template <class T>
  void operator()(const char* key, T& value, const Spec& spec) {
    known_.insert(key);
    if (table_ == nullptr) return;
    const toml::node* node = table_->get(key);
    if (node == nullptr) return;
    read(key, *node, value, spec);
  }

  /// Does the table name `key`? (KeyVisitor::given)
  bool given(const char* key) const { return table_ != nullptr && table_->contains(key); }

  /// Fails on any key of the table that no visit asked for. `owner` (e.g. `method "fuse"`) names what decides the
  /// section's keys, for the message of a section that takes none.
  void reject_unknown_keys(const std::vector<std::string>& extra_allowed = {}, const std::string& owner = "") const {
    if (table_ == nullptr) return;
    for (const auto& [key, node] : *table_) {
      const std::string name(key.str());
      if (known_.count(name) || std::find(extra_allowed.begin(), extra_allowed.end(), name) != extra_allowed.end())
        continue;
      std::vector<std::string> known(known_.begin(), known_.end());
      std::string valid;
      if (known.empty()) {
        valid = "[" + section_ + "] takes no keys";
        if (!extra_allowed.empty()) valid += " besides " + join(extra_allowed);
        if (!owner.empty()) valid += " for " + owner;
      } else {
        valid = "valid keys in [" + section_ + "]: " + join(known);
      }
      throw ConfigError(bfs::detail::concat(from_set(name) ? std::string("--set") : origin_, ": unknown key '",
                                            section_, ".", name, "' (", valid, ")"));
    }
  }

 private:
  bool from_set(const std::string& key) const { return overridden_ && overridden_->count(section_ + "." + key); }
  std::string where(const char* key) const {
    return (from_set(key) ? std::string("--set ") : origin_ + ": ") + section_ + "." + key;
  }

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
  /// A method's enum key (KeyVisitor's enum overload): the same checks and message as an enum of the schema's own.
  void read(const char* key, const toml::node& node, EnumChoice& value, const Spec&) {
    auto s = node.value<std::string>();
    if (!node.is_string() || !s) wrong_type(key, node, "a string");
    const auto found = std::find(value.names.begin(), value.names.end(), *s);
    if (found == value.names.end())
      throw ConfigError(where(key) + " = \"" + *s + "\" is not one of " + join(value.names));
    value.index = static_cast<std::size_t>(found - value.names.begin());
  }
  void read(const char* key, const toml::node& node, OptionalEnumChoice& value, const Spec& spec) {
    read(key, node, value.choice, spec);
    value.present = true;
  }
  template <class T>
  void read(const char* key, const toml::node& node, std::optional<T>& value, const Spec& spec) {
    T inner{};
    read(key, node, inner, spec);
    value = inner;
  }
  /// data.positive_label: a number (a numeric target) or a text (a target column of labels).
  void read(const char* key, const toml::node& node, ClassLabel& value, const Spec&) {
    if (node.is_number())
      value = *node.value<double>();
    else if (node.is_string())
      value = *node.value<std::string>();
    else
      wrong_type(key, node, "a number or a string");
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
  const std::set<std::string>* overridden_;
};

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
    } else if constexpr (std::is_same_v<T, EnumChoice>) {
      table_.insert_or_assign(key, value.names.at(value.index));
    } else if constexpr (std::is_same_v<T, OptionalEnumChoice>) {
      if (value.present) (*this)(key, value.choice, spec);
    } else if constexpr (std::is_same_v<T, ClassLabel>) {
      std::visit([&](const auto& label) { table_.insert_or_assign(key, label); }, value);
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
        if constexpr (std::is_integral_v<std::decay_t<decltype(item)>>)
          array.push_back(static_cast<std::int64_t>(item));
        else
          array.push_back(item);
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
  void operator()(const char* key, T& value, const Spec& spec) {
    out_ << "  " << section_ << "." << key;
    using E = typename EnumOf<T>::type;
    if constexpr (!std::is_void_v<E>)
      out_ << "  (" << join(enum_names<E>()) << ")";
    else if constexpr (std::is_same_v<T, EnumChoice>)
      out_ << "  (" << join(value.names) << ")";
    else if constexpr (std::is_same_v<T, OptionalEnumChoice>)
      out_ << "  (" << join(value.choice.names) << ")";
    else if (!spec.choices.empty())
      out_ << "  (" << join(spec.choices) << ")";
    else if (spec.min > -kInf || spec.max < kInf)
      out_ << "  " << (spec.min_exclusive ? "(" : "[") << spec.min << ", " << spec.max
           << (spec.max_exclusive ? ")" : "]");
    out_ << "  default " << default_text(key, value, spec) << "  " << spec.description << "\n";
  }

 private:
  /// The value a key holds when the job does not set it, as TOML would write it ("unset" for an optional key).
  template <class T>
  static std::string default_text(const char* key, T& value, const Spec& spec) {
    toml::table holder;
    TableWriter writer(holder);
    writer(key, value, spec);
    const toml::node* node = holder.get(key);
    if (node == nullptr) return "unset";
    if (const auto x = node->value_exact<double>()) {  // the shortest text that reads back as the same double
      char buffer[32];
      const auto end = std::to_chars(buffer, buffer + sizeof buffer, *x).ptr;
      const std::string text(buffer, end);
      return text.find_first_of(".eEn") == std::string::npos ? text + ".0" : text;
    }
    if (!node->is_array()) return show(*node);
    std::ostringstream text;
    text << *node->as_array();
    return text.str();
  }

  std::ostringstream& out_;
  std::string section_;
};

// ---- result-neutral keys (KeySpec::neutral) ------------------------------------------------------------------

/// Collects the values of a section's result-neutral keys, in visit order; walked over a default-built section,
/// it holds the defaults that NeutralReset puts back.
class NeutralValues {
 public:
  template <class T>
  void operator()(const char*, T& value, const Spec& spec) {
    if (spec.neutral) values_.emplace_back(value);
  }
  const std::vector<std::any>& values() const { return values_; }

 private:
  std::vector<std::any> values_;
};

/// Sets every result-neutral key of a section to the value NeutralValues collected for it.
class NeutralReset {
 public:
  explicit NeutralReset(const std::vector<std::any>& values) : values_(values) {}
  template <class T>
  void operator()(const char*, T& value, const Spec& spec) {
    if (spec.neutral) value = std::any_cast<T>(values_.at(next_++));
  }

 private:
  const std::vector<std::any>& values_;
  std::size_t next_ = 0;
};

/// Records "section.key" of every key a section declares, split by KeySpec::neutral.
class NeutralKeyNames {
 public:
  NeutralKeyNames(std::string section, std::set<std::string>& neutral, std::set<std::string>& other)
      : section_(std::move(section)), neutral_(neutral), other_(other) {}
  template <class T>
  void operator()(const char* key, T&, const Spec& spec) {
    (spec.neutral ? neutral_ : other_).insert(section_ + "." + key);
  }

 private:
  std::string section_;
  std::set<std::string>& neutral_;
  std::set<std::string>& other_;
};

/// Lets a template visitor (TableReader, TableWriter, KeyDescriber, BoundsChecker) walk a method's parameter struct.
/// A method's key may not be result-neutral: is_result_neutral_key answers from a dotted key alone, and the schema
/// cannot see a method's parameter struct without the method's catalog entry.
template <class Inner>
class ErasedVisitor final : public KeyVisitor {
 public:
  explicit ErasedVisitor(Inner& inner) : inner_(inner) {}
  using KeyVisitor::operator();
  void operator()(const char* key, bool& value, const KeySpec& spec) override {
    inner_(key, value, checked(key, spec));
  }
  void operator()(const char* key, int& value, const KeySpec& spec) override { inner_(key, value, checked(key, spec)); }
  void operator()(const char* key, std::int64_t& value, const KeySpec& spec) override {
    inner_(key, value, checked(key, spec));
  }
  void operator()(const char* key, double& value, const KeySpec& spec) override {
    inner_(key, value, checked(key, spec));
  }
  void operator()(const char* key, std::string& value, const KeySpec& spec) override {
    inner_(key, value, checked(key, spec));
  }
  void operator()(const char* key, EnumChoice& value, const KeySpec& spec) override {
    inner_(key, value, checked(key, spec));
  }
  void operator()(const char* key, OptionalEnumChoice& value, const KeySpec& spec) override {
    inner_(key, value, checked(key, spec));
  }
  void operator()(const char* key, std::vector<int>& value, const KeySpec& spec) override {
    inner_(key, value, checked(key, spec));
  }
  void operator()(const char* key, std::vector<double>& value, const KeySpec& spec) override {
    inner_(key, value, checked(key, spec));
  }
  void operator()(const char* key, std::vector<std::vector<std::string>>& value, const KeySpec& spec) override {
    inner_(key, value, checked(key, spec));
  }
  bool given(const char* key) const override {
    if constexpr (requires { inner_.given(key); })
      return inner_.given(key);
    else
      return false;
  }

 private:
  static const KeySpec& checked(const char* key, const KeySpec& spec) {
    if (spec.neutral)
      throw InternalError(std::string("a method's key '") + key +
                          "' is declared result_neutral(), which only the schema's own sections may be");
    return spec;
  }
  Inner& inner_;
};

}  // namespace bfs::schema_detail
