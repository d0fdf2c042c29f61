// The seal of a checkpoint (methods/common/checkpoint_seal.hpp): a sealed checkpoint reads back; a change of any
// single byte, a truncation at any length and appended bytes are each refused with an InputError naming the file,
// and the refusal leaves the file as it was; a checkpoint without a seal is refused as such.
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/error.hpp"
#include "methods/common/checkpoint_seal.hpp"
#include "methods/fuse/fuse_checkpoint.hpp"
#include "scratch_file.hpp"

namespace fs = std::filesystem;
using namespace bfs;

namespace {

struct ScratchFile : test::ScratchFile {
  ScratchFile() : test::ScratchFile("banditfs_seal") {}
};

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// verify_checkpoint refuses the file with an InputError naming it and containing `what`; the file is unchanged.
void expect_refused(const fs::path& path, const std::string& what) {
  const std::string before = read_bytes(path);
  try {
    methods::verify_checkpoint(path.string());
    BOOST_FAIL("a damaged checkpoint was accepted (" << what << ")");
  } catch (const InputError& e) {
    const std::string message = e.what();
    BOOST_TEST(message.find("checkpoint '" + path.string() + "'") != std::string::npos, message);
    BOOST_TEST(message.find(what) != std::string::npos, message);
  }
  BOOST_TEST((read_bytes(path) == before));
}

std::string sealed_checkpoint(const fs::path& path) {
  fuse::FuseCheckpoint checkpoint{{"[method]\nname = \"fuse\"\n", "hash", "data"}, {0.5, 0.75, 0.625, 1.0}};
  fuse::write_fuse_checkpoint(path.string(), checkpoint);
  return read_bytes(path);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(checkpoint_seal)

BOOST_AUTO_TEST_CASE(a_sealed_checkpoint_reads_back) {
  ScratchFile file;
  const std::string bytes = sealed_checkpoint(file.path);
  BOOST_TEST(bytes.size() > methods::kSealBytes);
  BOOST_TEST(bytes.compare(0, 27, "banditfs checkpoint seal 1\n") == 0);
  methods::verify_checkpoint(file.path.string());
  BOOST_TEST((fuse::read_fuse_checkpoint(file.path.string()).reward == std::vector<double>{0.5, 0.75, 0.625, 1.0}));
}

BOOST_AUTO_TEST_CASE(a_change_of_any_byte_is_refused) {
  ScratchFile file;
  const std::string bytes = sealed_checkpoint(file.path);
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    for (const unsigned char flip : {0x01, 0xFF}) {
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(damaged[at] ^ flip);
      write_bytes(file.path, damaged);
      BOOST_TEST_CONTEXT("byte " << at << " xor " << int{flip}) {
        expect_refused(file.path, "refusing to resume");
      }
    }
  }
  write_bytes(file.path, bytes);
  BOOST_CHECK_NO_THROW(fuse::read_fuse_checkpoint(file.path.string()));
}

BOOST_AUTO_TEST_CASE(a_truncated_or_extended_checkpoint_is_refused) {
  ScratchFile file;
  const std::string bytes = sealed_checkpoint(file.path);
  for (std::size_t length = 0; length < bytes.size(); length += (length < 600 ? 1 : 97)) {
    write_bytes(file.path, bytes.substr(0, length));
    BOOST_TEST_CONTEXT("truncated to " << length << " bytes") {
      expect_refused(file.path, length >= 100 ? "truncated" : "refusing to resume");
    }
  }
  write_bytes(file.path, bytes + std::string(1, '\0'));
  expect_refused(file.path, "something was appended");
  // The reader refuses it before HDF5 sees it: the same error through the method's reader.
  write_bytes(file.path, bytes.substr(0, bytes.size() / 2));
  BOOST_CHECK_THROW(fuse::read_fuse_checkpoint(file.path.string()), InputError);
}

BOOST_AUTO_TEST_CASE(a_checkpoint_without_a_seal_is_refused) {
  ScratchFile file;
  const std::string bytes = sealed_checkpoint(file.path);
  write_bytes(file.path, bytes.substr(methods::kSealBytes));  // the same HDF5 file without its user block
  expect_refused(file.path, "no seal");
  fs::remove(file.path);
  expect_refused(file.path, "no such file");
}

BOOST_AUTO_TEST_SUITE_END()
