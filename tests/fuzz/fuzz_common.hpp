#pragma once
// Shared by the libFuzzer harnesses (docs/fuzzing.md): a per-process scratch directory for the files the
// readers take by path, and the verdict on an exception. bfs::InputError and bfs::ConfigError are the readers'
// answer to bad input (expected); anything else that escapes — InternalError (a broken invariant), std::bad_alloc
// (a size taken from the input), any other exception — is a finding: the harness prints it and aborts, so libFuzzer
// saves the input as a crash artifact. Crashes, UB (UBSan, -fno-sanitize-recover), leaks and timeouts are findings
// by themselves.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "core/error.hpp"

namespace bfs::fuzz {

/// /dev/shm/banditfs-fuzz-<pid> (tmpfs; /tmp when /dev/shm is absent), created on first use, removed at a normal
/// exit. A crashed run leaves it behind; scripts/fuzz.sh removes those of processes that are gone.
inline const std::string& scratch_dir() {
  // Never destroyed (reachable through the static pointer), so the atexit handler may still use it.
  static const std::string* dir = [] {
    std::error_code ec;
    const char* base = std::filesystem::is_directory("/dev/shm", ec) ? "/dev/shm" : "/tmp";
    auto* d = new std::string(std::string(base) + "/banditfs-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(*d, ec);
    if (ec) {
      std::fprintf(stderr, "fuzz: cannot create the scratch directory %s: %s\n", d->c_str(), ec.message().c_str());
      std::abort();
    }
    return d;
  }();
  static const bool cleanup_registered = [] {
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(*dir, ignored);
    });
    return true;
  }();
  (void)cleanup_registered;
  return *dir;
}

/// The path of `name` in the scratch directory.
inline std::string scratch_path(const std::string& name) {
  return scratch_dir() + "/" + name;
}

/// Writes `bytes` to scratch/`name` (truncating) and returns its path.
inline std::string write_scratch(const std::string& name, std::string_view bytes) {
  const std::string path = scratch_path(name);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr || (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) ||
      std::fclose(f) != 0) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
  return path;
}

/// Removes scratch/`name` if present.
inline void remove_scratch(const std::string& name) {
  std::error_code ec;
  std::filesystem::remove_all(scratch_path(name), ec);
}

/// Prints a finding and aborts (libFuzzer then writes the input to crash-<sha1>).
[[noreturn]] inline void finding(const char* what, const char* detail) {
  std::fprintf(stderr, "\n==fuzz== FINDING: %s: %s\n", what, detail);
  std::fflush(stderr);
  std::abort();
}

/// BANDITFS_FUZZ_VERBOSE set: each input's outcome ("ok" or the expected error) is printed — to see what a seed or
/// a regression input exercises.
inline bool verbose() {
  static const bool on = std::getenv("BANDITFS_FUZZ_VERBOSE") != nullptr;
  return on;
}

/// Runs `body`; InputError / ConfigError are expected outcomes, everything else is a finding.
template <class Body>
void run_one(Body&& body) {
  try {
    body();
    if (verbose()) std::fprintf(stderr, "fuzz: ok\n");
  } catch (const bfs::InternalError& e) {
    finding("bfs::InternalError (a broken invariant) on input", e.what());
  } catch (const bfs::InputError& e) {
    if (verbose()) std::fprintf(stderr, "fuzz: InputError: %s\n", e.what());
  } catch (const bfs::ConfigError& e) {
    if (verbose()) std::fprintf(stderr, "fuzz: ConfigError: %s\n", e.what());
  } catch (const bfs::Error& e) {
    finding("bfs::Error of an unexpected kind", e.what());
  } catch (const std::exception& e) {
    finding(typeid(e).name(), e.what());
  } catch (...) {
    finding("a non-std exception", "(unknown)");
  }
}

/// `text` cut into lines (LF; a trailing CR removed).
inline std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

/// Splits `text` at lines equal to `separator` into parts (the separator lines dropped).
inline std::vector<std::string> split_parts(std::string_view text, std::string_view separator) {
  std::vector<std::string> parts(1);
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    const bool last = end == std::string_view::npos;
    if (last) end = text.size();
    std::string_view line = text.substr(start, end - start);
    std::string_view bare = line;
    if (!bare.empty() && bare.back() == '\r') bare.remove_suffix(1);
    if (bare == separator) {
      parts.emplace_back();
    } else {
      parts.back().append(line);
      if (!last) parts.back().push_back('\n');
    }
    start = end + 1;
  }
  return parts;
}

}  // namespace bfs::fuzz
