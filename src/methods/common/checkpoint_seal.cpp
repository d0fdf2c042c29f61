#include "methods/common/checkpoint_seal.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

#include "core/error.hpp"
#include "core/fnv1a.hpp"
#include "data/detail/h5_result_reader.hpp"

namespace bfs::methods {
namespace {

constexpr std::string_view kMagic = "banditfs checkpoint seal 1\n";
constexpr std::string_view kDigestLabel = "fnv1a64 ";
constexpr std::size_t kDigestAt = kMagic.size() + kDigestLabel.size();
constexpr std::size_t kDigestDigits = 16;
constexpr std::string_view kSizeLabel = "\nbytes ";

std::string seal_text(std::uintmax_t bytes, std::uint64_t digest) {
  std::string text = detail::concat(kMagic, kDigestLabel, hex16(digest), kSizeLabel, bytes, "\n");
  text.resize(static_cast<std::size_t>(kSealBytes), '\0');
  return text;
}

/// FNV-1a of the whole stream from its start, the digest's digits read as '0'.
std::uint64_t digest_of(std::istream& in) {
  Fnv1a64 hash;
  std::vector<char> buffer(1 << 16);
  std::uintmax_t offset = 0;
  in.seekg(0);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    for (std::size_t i = 0; i < got; ++i)
      if (offset + i >= kDigestAt && offset + i < kDigestAt + kDigestDigits) buffer[i] = '0';
    hash.update(buffer.data(), got);
    offset += got;
  }
  return hash.value();
}

/// True when `path` opens as a run's result.h5 (it holds /importance; no checkpoint does): given where a checkpoint
/// is expected, it deserves that name rather than "no seal".
bool is_a_result(const std::string& path) {
  try {
    bfs::detail::silence_hdf5_errors();
    const bfs::detail::Reader reader(path);
    return reader.has("importance");
  } catch (const std::exception&) {
    return false;
  }
}

[[noreturn]] void refuse(const std::string& path, const std::string& what) {
  throw InputError(detail::concat("checkpoint '", path, "': ", what,
                                  "; refusing to resume. The file is left as it is; start over with --force, which "
                                  "deletes it."));
}

/// The unsigned number at the start of `text`, or nullopt.
template <class T>
std::optional<T> leading_number(std::string_view text, int base) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

}  // namespace

void seal_checkpoint(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  if (ec || !file || bytes < kSealBytes) throw Error(detail::concat("cannot seal '", path, "': not readable"));
  const std::string unsealed = seal_text(bytes, 0);  // the digest's digits as the digest reads them
  file.write(unsealed.data(), static_cast<std::streamsize>(unsealed.size()));
  file.flush();
  const std::uint64_t digest = digest_of(file);
  file.clear();
  file.seekp(0);
  const std::string sealed = seal_text(bytes, digest);
  file.write(sealed.data(), static_cast<std::streamsize>(sealed.size()));
  file.close();
  if (!file) throw Error(detail::concat("cannot seal '", path, "': the write failed"));
}

void verify_checkpoint(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) refuse(path, "no such file");
  const std::uintmax_t bytes = std::filesystem::file_size(path, ec);
  std::ifstream file(path, std::ios::binary);
  if (ec || !file) refuse(path, "cannot be read");
  std::string seal(static_cast<std::size_t>(std::min<std::uintmax_t>(bytes, kSealBytes)), '\0');
  file.read(seal.data(), static_cast<std::streamsize>(seal.size()));
  if (seal.compare(0, kMagic.size(), kMagic) != 0 && is_a_result(path))
    refuse(path,
           "this is a run's result (result.h5), not a checkpoint; --resume continues from the checkpoint.h5 an "
           "interrupted run leaves in its output directory");
  if (seal.compare(0, kMagic.size(), kMagic) != 0)
    refuse(path,
           "no seal at its start (not a banditfs checkpoint, one written before checkpoints were sealed, or "
           "its first bytes are damaged)");
  const std::string_view text(seal);
  const auto digest =
      text.size() >= kDigestAt ? leading_number<std::uint64_t>(text.substr(kDigestAt), 16) : std::nullopt;
  const std::size_t size_at = kDigestAt + kDigestDigits + kSizeLabel.size();
  const auto recorded =
      text.size() >= size_at && text.substr(kDigestAt + kDigestDigits, kSizeLabel.size()) == kSizeLabel
          ? leading_number<std::uintmax_t>(text.substr(size_at), 10)
          : std::nullopt;
  if (text.compare(kMagic.size(), kDigestLabel.size(), kDigestLabel) != 0 || !digest || !recorded)
    refuse(path, bytes < kSealBytes ? detail::concat("truncated: ", bytes, " bytes, shorter than its seal")
                                    : std::string("its seal is damaged (no digest or size in it)"));
  if (bytes != *recorded)
    refuse(path, detail::concat("it is ", bytes, " bytes but was written with ", *recorded,
                                bytes < *recorded ? " (truncated)" : " (something was appended)"));
  file.clear();
  const std::uint64_t actual = digest_of(file);
  if (actual != *digest)
    refuse(path, detail::concat("its contents do not match its digest (fnv1a64 ", hex16(*digest), " when written, ",
                                hex16(actual), " now): the file is corrupted"));
}

}  // namespace bfs::methods
