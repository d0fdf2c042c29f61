// Throughput aid of the file-reading harnesses (csv, gkx_csv; docs/fuzzing.md): the global operator new/delete,
// through malloc/free, with a small cache of freed large blocks (≥ 256 KiB) handed back to the next request of the
// same size. LineReader (data/csv_lines.cpp) allocates a zero-filled 1 MiB buffer per file; under ASan every such
// block is a fresh mmap whose 256 pages fault in (a VM's page faults are slow): ~8 ms per input, 120 inputs/s. With
// the cache the pages stay mapped and an input takes well under 1 ms.
// What ASan still sees: every block is malloc'ed with its redzones, so an overflow of a cached block is reported as
// before; what it no longer sees: a use after free of a cached large block, and new/delete kind mismatches (all
// non-aligned forms are replaced together, so they stay consistent). The aligned forms are ASan's own.
#include <malloc.h>

#include <array>
#include <cstdlib>
#include <mutex>
#include <new>

namespace {

constexpr std::size_t kLarge = std::size_t{256} << 10;

struct Cache {
  std::mutex mutex;
  std::array<void*, 8> blocks{};
  std::array<std::size_t, 8> sizes{};
};

Cache& cache() {
  static Cache* c = new (std::malloc(sizeof(Cache))) Cache;  // never destroyed: deletes may run after exit begins
  return *c;
}

void* allocate(std::size_t size, bool nothrow) {
  if (size == 0) size = 1;
  if (size >= kLarge) {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    for (std::size_t k = 0; k < c.blocks.size(); ++k) {
      if (c.blocks[k] != nullptr && c.sizes[k] == size) {
        void* p = c.blocks[k];
        c.blocks[k] = nullptr;
        return p;
      }
    }
  }
  void* p = std::malloc(size);
  if (p == nullptr && !nothrow) throw std::bad_alloc();
  return p;
}

void release(void* p) {
  if (p == nullptr) return;
  const std::size_t size = malloc_usable_size(p);
  if (size >= kLarge) {
    Cache& c = cache();
    std::lock_guard lock(c.mutex);
    for (std::size_t k = 0; k < c.blocks.size(); ++k) {
      if (c.blocks[k] == nullptr) {
        c.blocks[k] = p;
        c.sizes[k] = size;
        return;
      }
    }
  }
  std::free(p);
}

}  // namespace

void* operator new(std::size_t size) {
  return allocate(size, false);
}
void* operator new[](std::size_t size) {
  return allocate(size, false);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  return allocate(size, true);
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return allocate(size, true);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  release(p);
}
void operator delete(void* p, std::size_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  release(p);
}
