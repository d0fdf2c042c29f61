#pragma once
// The seal of a checkpoint.h5: its size and a digest of its bytes, checked before a resume reads anything of it, so
// a corrupted or truncated checkpoint is refused (naming the file and what failed) instead of resumed with garbage.
//
// Where the seal lives: in the file's HDF5 user block — the first kSealBytes bytes, which HDF5 reserves for the
// application and skips when it opens the file (h5py, h5dump and our readers open a sealed file as any other). So
// the checkpoint stays one file, written to path.tmp and renamed into place in one atomic step; a sidecar digest
// file would need a second rename that a kill can separate from the first. And the digest can cover every byte of
// the file — HDF5's metadata, free space and padding as well as the datasets and attributes — rather than only
// what a walk over the objects reads back, so a flipped byte anywhere is seen without asking whether it matters.
//
// The user block is text, then zero bytes up to kSealBytes:
//   banditfs checkpoint seal 1\n
//   fnv1a64 <16 hex digits>\n
//   bytes <the file's size in bytes>\n
// The digest is 64-bit FNV-1a (core/fnv1a.hpp, as run.json pins its result set) of the whole file with the 16 hex
// digits read as '0' (a digest cannot cover itself; any change to them is seen as a mismatch all the same). A file
// shorter or longer than its recorded size is refused before the digest is computed.
#include <hdf5.h>

#include <string>

namespace bfs::methods {

/// The size of the user block the seal lives in (HDF5's smallest).
inline constexpr hsize_t kSealBytes = 512;

/// Seals the closed HDF5 file at `path`, created with a kSealBytes user block (H5Pset_userblock): writes its size
/// and digest into the user block. bfs::Error naming the file when it cannot be read or written.
void seal_checkpoint(const std::string& path);

/// InputError "checkpoint '<path>': <what failed>; refusing to resume ..." unless the file at `path` is whole: it
/// exists, carries a seal, has the recorded size and the recorded digest. Reads the file, never changes it.
void verify_checkpoint(const std::string& path);

}  // namespace bfs::methods
