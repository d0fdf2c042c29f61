#pragma once
// The job-file schema (docs/design.md §5): every key of every section, declared once with its bounds and description.
// The same declarations drive TOML parsing (unknown key / wrong type / out of range ⇒ ConfigError naming the key),
// --set overrides, and the canonical dump stored in result.h5 and hashed for checkpoints.
#include <string>
#include <vector>

#include "config/job_config.hpp"
#include "config/method_params.hpp"

namespace bfs {

/// Parses a job from TOML text. `origin` names the file in errors. Overrides are "section.key=value" strings
/// applied before validation (the value is parsed as a TOML value, or taken as a string if that fails).
/// `methods` is the registry's catalog (methods::catalog()): [method] takes only the chosen method's keys, and a
/// section that belongs to another method is an error naming the section.
JobConfig parse_job(const MethodCatalog& methods, const std::string& toml_text, const std::string& origin,
                    const std::vector<std::string>& overrides = {});
/// Reads and parses a job file (ConfigError naming the file when it cannot be read).
JobConfig load_job(const MethodCatalog& methods, const std::string& path,
                   const std::vector<std::string>& overrides = {});
/// Cross-field checks of the common sections, then the method parameters' own (MethodParams::validate); ConfigError
/// naming the keys. (A method's own checks are also its validate(), src/methods/method.hpp.)
void validate(const JobConfig& job);
/// The bounds the schema declares for each [estimator] key, checked on parameters built in code (the estimator
/// factories call these, so every bound is declared once, here). ConfigError "estimator.key = x is out of range".
#define BFS_ESTIMATOR_CHECK_BOUNDS(value, name, member, params, tasks) void check_bounds(const params& p);
BFS_ESTIMATORS(BFS_ESTIMATOR_CHECK_BOUNDS)
#undef BFS_ESTIMATOR_CHECK_BOUNDS
/// The job as canonical TOML: every key of every section (the estimator's own keys only), in schema order.
std::string dump_job(const JobConfig& job);
/// The job's identity: dump_job with every result-neutral key (KeySpec::neutral: where and how the job runs, not
/// what it computes) at its default, so jobs that differ only in those keys have the same text; the checkpoint's
/// job hash is taken of it.
std::string dump_job_identity(const JobConfig& job);
/// Is "section.key" (a key line of dump_job's text) declared result-neutral?
bool is_result_neutral_key(const std::string& dotted_key);
/// One line per key: "section.key  (bounds)  description" — `banditfs keys`; each method's keys and sections
/// under its "[method] name = ..." heading.
std::string describe_keys(const MethodCatalog& methods);

}  // namespace bfs
