#pragma once
// A job's identity for resuming: the hash of the keys that decide a run's numbers, and which of them differ between
// a checkpoint's job and this one (every method's checkpoint stores the hash and refuses another job's).
#include <set>
#include <string>

#include "config/job_config.hpp"

namespace bfs {

/// Hash of the keys that determine the run's numbers (config/schema.hpp dump_job_identity: every key but those
/// declared result_neutral()): a checkpoint may be resumed with another output directory, thread count or group
/// layout.
std::string job_hash(const JobConfig& job);

/// The keys that decide a run's numbers (all but those declared result_neutral(), config/schema.hpp
/// is_result_neutral_key) whose values differ between a checkpoint's job text and this job's, as
/// "key (checkpoint a, this job b), ..." — for a refusal to resume (any method's checkpoint).
/// `saved` names the file the first text comes from ("checkpoint", "result").
std::string differing_keys(const std::string& checkpoint_text, const std::string& job_text,
                           const std::string& saved = "checkpoint");

/// The same between any two job texts named `name_a` and `name_b`, leaving out the keys in `ignored` as well (an
/// aggregate of seed runs ignores "run.seed"): "key (name_a va, name_b vb), ..."; "" when no such key differs.
std::string differing_result_keys(const std::string& text_a, const std::string& text_b, const std::string& name_a,
                                  const std::string& name_b, const std::set<std::string>& ignored = {});

}  // namespace bfs
