#pragma once
// How the schema reaches a method's own keys. Methods live in src/methods/, above config/, so the
// schema cannot name their parameter structs; instead each method's registry entry supplies a MethodDescription:
// its name, the job sections it owns, and a factory for its parameter struct, whose keys the schema visits through
// the type-erased KeyVisitor below — one visit() per method, declared once, as an estimator's keys are
// (config/detail/schema_sections.hpp). `[method]` then takes exactly the chosen method's keys.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "config/key_spec.hpp"
#include "core/enum_names.hpp"

namespace bfs {

struct JobConfig;

/// An enum-valued key as the type-erased visitor sees it: the names of the enum's values, in its enum_table's order,
/// and the index of the present value among them.
struct EnumChoice {
  std::vector<std::string> names;
  std::size_t index = 0;
};
/// An optional enum key (std::optional<E>): unset, it is absent from the job file and from the dump.
struct OptionalEnumChoice {
  EnumChoice choice;
  bool present = false;
};

/// Visits one key of a method's parameter struct. The schema implements it for reading TOML (unknown key / wrong
/// type / out of range / unknown enum name ⇒ ConfigError naming method.key), writing the canonical dump, describing
/// keys and checking bounds. The value types a method key may have are exactly these, plus any enum with an
/// enum_table (core/enum_names.hpp), whose names are its allowed values.
class KeyVisitor {
 public:
  virtual ~KeyVisitor() = default;
  /// An enum key: declared once in visit() with its enum_table, read from TOML by name once (an unknown name ⇒
  /// ConfigError naming method.key, the value and the allowed names), dumped and described by name.
  template <class E>
  requires std::is_enum_v<E> && requires(E e) { enum_table(e); }
  void operator()(const char* key, E& value, const KeySpec& spec) {
    const auto table = enum_table(E{});
    EnumChoice choice{enum_names<E>(), 0};
    while (choice.index < table.size() && table[choice.index].first != value) ++choice.index;
    (*this)(key, choice, spec);
    value = table[choice.index].first;
  }
  template <class E>
  requires std::is_enum_v<E> && requires(E e) { enum_table(e); }
  void operator()(const char* key, std::optional<E>& value, const KeySpec& spec) {
    const auto table = enum_table(E{});
    OptionalEnumChoice choice{{enum_names<E>(), 0}, value.has_value()};
    while (value && choice.choice.index < table.size() && table[choice.choice.index].first != *value)
      ++choice.choice.index;
    (*this)(key, choice, spec);
    if (choice.present) value = table[choice.choice.index].first;
  }
  virtual void operator()(const char* key, EnumChoice& value, const KeySpec& spec) = 0;
  virtual void operator()(const char* key, bool& value, const KeySpec& spec) = 0;
  virtual void operator()(const char* key, int& value, const KeySpec& spec) = 0;
  virtual void operator()(const char* key, std::int64_t& value, const KeySpec& spec) = 0;
  virtual void operator()(const char* key, double& value, const KeySpec& spec) = 0;
  virtual void operator()(const char* key, std::string& value, const KeySpec& spec) = 0;
  virtual void operator()(const char* key, OptionalEnumChoice& value, const KeySpec& spec) = 0;
  virtual void operator()(const char* key, std::vector<int>& value, const KeySpec& spec) = 0;
  virtual void operator()(const char* key, std::vector<double>& value, const KeySpec& spec) = 0;
  /// Bundles of names, e.g. the feature groups permuted together.
  virtual void operator()(const char* key, std::vector<std::vector<std::string>>& value, const KeySpec& spec) = 0;
  /// Reading a job: does the section being read name `key`? (Tells a key given with its default value from one left
  /// out.) False for the other visitors.
  virtual bool given(const char* key) const = 0;
};

/// A method's parameter struct behind an interface: visit() declares each key once (name, field, bounds).
class MethodParams {
 public:
  virtual ~MethodParams() = default;
  virtual void visit(KeyVisitor& visitor) = 0;
  /// The keys of one of the method's own sections (MethodDescription::sections), declared as visit() declares the
  /// [method] keys; the schema reads, dumps and describes each such section through it.
  virtual void visit_section(std::string_view /*section*/, KeyVisitor& /*visitor*/) {}
  /// Is the section written to the canonical dump? (A section that changes nothing while disabled may stay out.)
  virtual bool dumps_section(std::string_view /*section*/) const { return true; }
  /// Cross-key checks of these parameters against the whole job, the last of the schema's validate(); ConfigError
  /// naming the keys.
  virtual void validate(const JobConfig& /*job*/) const {}
  /// Does the run walk the data's periods in order (the bandit's mode = "online")? Stability selection then loads the
  /// data as the method would (one period per batch) and draws its half-samples within each period.
  virtual bool online() const { return false; }
  virtual std::unique_ptr<MethodParams> clone() const = 0;
};

/// Value-semantic holder of a method's parameters (copying a JobConfig copies them); empty for a method without
/// keys of its own.
class MethodParamsBox {
 public:
  MethodParamsBox() = default;
  explicit MethodParamsBox(std::unique_ptr<MethodParams> params) : params_(std::move(params)) {}
  MethodParamsBox(const MethodParamsBox& other) : params_(other.params_ ? other.params_->clone() : nullptr) {}
  MethodParamsBox& operator=(const MethodParamsBox& other) {
    if (this != &other) params_ = other.params_ ? other.params_->clone() : nullptr;
    return *this;
  }
  MethodParamsBox(MethodParamsBox&&) noexcept = default;
  MethodParamsBox& operator=(MethodParamsBox&&) noexcept = default;

  explicit operator bool() const { return params_ != nullptr; }
  MethodParams* get() const { return params_.get(); }
  /// The parameters as the method's own struct (the method knows its type); nullptr when absent or another type.
  template <class T>
  const T* as() const {
    return dynamic_cast<const T*>(params_.get());
  }
  template <class T>
  T* as() {
    return dynamic_cast<T*>(params_.get());
  }

 private:
  std::unique_ptr<MethodParams> params_;
};

/// What the schema needs to know of one method (supplied by methods/registry).
struct MethodDescription {
  std::string name;
  /// Job sections besides [data], [estimator], [method] and [run] that belong to this method (the bandit:
  /// "reward", "bandit", "tuning"). Such a section in a job of another method is an error naming it.
  std::vector<std::string> sections;
  /// Builds the method's parameters with their defaults; empty = the method has no keys besides name.
  std::function<std::unique_ptr<MethodParams>()> make_params;
  /// Does the method use [estimator]? When not, the section is refused and left out of the dump.
  bool uses_estimator = true;
  /// Does the method read contextual-bandit logs (context, arm, reward: data.arm, data.reward, data.arms,
  /// data.categorical, data.dgp = "cmab-hte") instead of (X, y)? Either kind of key is refused for the other kind.
  bool logged_data = false;
  /// Is the method for binary targets only (FUSE: its reward is an AUC)? Then data.task defaults to "binary".
  bool binary_only = false;
};
using MethodCatalog = std::vector<MethodDescription>;

}  // namespace bfs
