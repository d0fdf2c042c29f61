#pragma once
// Atomic file writing shared by every output writer (docs/design.md §4): the content goes to `path.tmp`, which is
// renamed over `path` only once it is complete, so a crash or an error never leaves a half-written file under the final
// name.
#include <functional>
#include <string>

namespace bfs::detail {

/// Creates the missing directories above `path`, as `run` does for its output directory (the commands call it; the
/// writers themselves refuse a missing directory). InputError naming `path`, the directory and the cause.
void create_parent_directories(const std::string& path);

/// Calls `write(tmp_path)` with tmp_path = path + ".tmp", then renames it to `path` (its missing parent directories
/// created first). On any failure the tmp file is removed and bfs::Error naming `path` is thrown (the cause appended).
void atomic_write(const std::string& path, const std::function<void(const std::string& tmp_path)>& write);

/// atomic_write of a text file with the given content.
void write_text_atomic(const std::string& path, const std::string& content);

}  // namespace bfs::detail
