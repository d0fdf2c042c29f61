#include "output/run_directory.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/fnv1a.hpp"
#include "data/detail/h5_result_reader.hpp"
#include "output/result_io.hpp"

namespace bfs {

namespace fs = std::filesystem;

namespace {

constexpr const char* kLockName = ".banditfs.lock";
constexpr const char* kStagedSuffix = ".staged";

std::string hex64(std::uint64_t value) {
  static const char* digits = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4) out[static_cast<std::size_t>(i)] = digits[value & 15];
  return out;
}

std::string holder_text(const std::string& job_path) {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  const std::time_t now = std::time(nullptr);
  char when[64] = {0};
  std::strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  return "pid " + std::to_string(getpid()) + " on " + host + " since " + when + ", job " + job_path;
}

std::string read_small_file(const std::string& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0')) text.pop_back();
  return text;
}

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (fs::equivalent(a, b, ec)) return true;
  return fs::weakly_canonical(a, ec) == fs::weakly_canonical(b, ec);
}

}  // namespace

FileDigest digest_file(const std::string& path, const std::string& name) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot read '" + path + "' to digest it");
  Fnv1a64 hash;
  std::uintmax_t bytes = 0;
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof(buffer));
    const std::streamsize got = in.gcount();
    hash.update(buffer, static_cast<std::size_t>(got));
    bytes += static_cast<std::uintmax_t>(got);
  }
  return {name, bytes, hex64(hash.value())};
}

RunDirectory::RunDirectory(std::string dir, const std::string& job_path) : dir_(std::move(dir)) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw InputError("run.out: cannot create output directory '" + dir_ + "': " + ec.message());
  const std::string lock_path = path(kLockName);
  lock_fd_ = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) {
    const int error = errno;  // read first: building the message may set errno again
    throw InputError("run.out: cannot open the lock file '" + lock_path + "': " + std::strerror(error) +
                     " (the output directory must be writable; choose another --out or fix its permissions)");
  }
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const std::string holder = read_small_file(lock_path);
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw InputError("run.out: '" + dir_ + "' is in use by another banditfs run (" +
                     (holder.empty() ? std::string("holder unknown") : holder) +
                     "); wait for it to end or choose another --out");
  }
  const std::string holder = holder_text(job_path) + "\n";
  if (::ftruncate(lock_fd_, 0) != 0 || ::write(lock_fd_, holder.data(), holder.size()) < 0) {
    // The lock itself is held; the holder text is only for the message of a refused second run.
  }
  // Staged files of a run killed while committing are of no use: the set they belonged to was never complete.
  for (const auto& name : {"result.h5", "summary.csv", "run.json"})
    fs::remove(path(std::string(name) + kStagedSuffix), ec);
}

RunDirectory::~RunDirectory() {
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the flock; the file stays (removing it would race a new run)
}

std::string RunDirectory::path(const std::string& name) const {
  return (fs::path(dir_) / name).string();
}

const std::vector<std::string>& RunDirectory::output_names() {
  static const std::vector<std::string> names = {"result.h5",     "summary.csv",  "run.json",
                                                 "checkpoint.h5", "banditfs.log", kLockName};
  return names;
}

void RunDirectory::refuse_input_among_outputs(const std::string& input, const std::string& key) const {
  if (input.empty()) return;
  for (const auto& name : output_names()) {
    for (const std::string& candidate : {path(name), path(name) + ".tmp", path(name) + kStagedSuffix}) {
      if (same_file(input, candidate))
        throw InputError(detail::concat(key, " = \"", input, "\" is the run's own output '", candidate,
                                        "'; a run would overwrite its input. Move the file or choose another --out"));
    }
  }
}

void RunDirectory::commit(const MethodResult& result) const {
  const std::string h5 = path("result.h5"), csv = path("summary.csv"), json = path("run.json");
  const std::string staged_h5 = h5 + kStagedSuffix, staged_csv = csv + kStagedSuffix,
                    staged_json = json + kStagedSuffix;
  auto discard_staged = [&] {
    std::error_code ec;
    for (const auto* staged : {&staged_h5, &staged_csv, &staged_json}) fs::remove(*staged, ec);
  };
  try {
    write_result_h5(result, staged_h5);
    write_summary_csv(result, staged_csv);
    write_run_json(result, staged_json, {digest_file(staged_h5, "result.h5"), digest_file(staged_csv, "summary.csv")});
  } catch (...) {
    discard_staged();  // the previous set, if any, is untouched
    throw;
  }
  fs::rename(staged_h5, h5);
  if (const char* fault = std::getenv("BANDITFS_TEST_FAULT"); fault && std::string(fault) == "kill-between-renames")
    std::raise(SIGKILL);
  fs::rename(staged_csv, csv);
  fs::rename(staged_json, json);  // last: a run.json that names this result.h5 marks a complete set
}

void check_result_set(const std::string& result_path) {
  const fs::path json_path = fs::path(result_path).parent_path() / "run.json";
  std::error_code ec;
  if (fs::path(result_path).filename() != "result.h5" || !fs::is_regular_file(json_path, ec)) return;
  nlohmann::json manifest;
  try {
    std::ifstream in(json_path);
    manifest = nlohmann::json::parse(in);
  } catch (const std::exception&) {
    throw InputError("'" + json_path.string() + "' beside '" + result_path +
                     "' is not valid JSON: the output set is torn");
  }
  if (!manifest.contains("outputs")) return;  // written before the outputs were pinned
  for (const auto& entry : manifest["outputs"]) {
    if (entry.value("name", "") != "result.h5") continue;
    const FileDigest actual = digest_file(result_path, "result.h5");
    if (actual.bytes != entry.value("bytes", std::uintmax_t{0}) || actual.fnv1a64 != entry.value("fnv1a64", ""))
      throw InputError("'" + result_path +
                       "' does not match the run.json beside it (size or digest differ): the "
                       "output set is torn — a run ended while writing it. Run the job again to rewrite the set");
  }
}

std::string RunDirectory::result_job_text() const {
  const std::string result = path("result.h5");
  std::error_code ec;
  if (!std::filesystem::exists(result, ec)) return "";
  const detail::Reader in(result);
  return in.has_attr("job") ? in.string_attr("job") : "";
}

}  // namespace bfs
