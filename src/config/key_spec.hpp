#pragma once
// The bounds, allowed values and description of one job-file key (docs/design.md §5), shared by the schema's own
// sections (config/detail/schema_sections.hpp) and by the parameter structs of methods (src/methods/*/), so every key
// of every section — a method's own included — is declared once, with the same helpers.
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace bfs {

struct KeySpec {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  std::vector<std::string> choices;
  const char* description = "";
  bool min_exclusive = false;
  bool max_exclusive = false;
  /// The key says where or how the job runs (output directory, threads, progress, checkpoints, MPI grouping), never
  /// what it computes: it is left out of the job's identity (schema.hpp dump_job_identity, the checkpoint's job
  /// hash) and of the keys named when a checkpoint belongs to another job (is_result_neutral_key).
  bool neutral = false;

  /// This spec, flagged as not changing results (see `neutral`).
  KeySpec result_neutral() const {
    KeySpec flagged = *this;
    flagged.neutral = true;
    return flagged;
  }
};

namespace keyspec {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// [lo, hi]
inline KeySpec range(double lo, double hi, const char* description) {
  return KeySpec{lo, hi, {}, description};
}
/// (lo, hi]
inline KeySpec above(double lo, double hi, const char* description) {
  return KeySpec{lo, hi, {}, description, true};
}
/// (lo, hi)
inline KeySpec between(double lo, double hi, const char* description) {
  return KeySpec{lo, hi, {}, description, true, true};
}
/// One of the listed strings.
inline KeySpec one_of(std::vector<std::string> choices, const char* description) {
  return KeySpec{-kInf, kInf, std::move(choices), description};
}
/// No bounds (strings, booleans, enums: an enum's names come from its enum_table).
inline KeySpec text(const char* description) {
  return KeySpec{-kInf, kInf, {}, description};
}

}  // namespace keyspec
}  // namespace bfs
