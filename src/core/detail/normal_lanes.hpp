#pragma once
// The noise columns' normal draws eight streams at a time in AVX-512 registers (rng_normals.cpp), with the same
// floats as Rng::normal() stream by stream. Exposed here for the unit test, which checks the vector path against the
// portable one and the vector logarithm's accuracy.
#include <atomic>

namespace bfs::detail {

/// Off: Rng::normals_from_prefix takes the portable path on any machine (the unit test compares the two).
inline std::atomic<bool> vector_normals_on{true};
inline void set_vector_normals(bool on) {
  vector_normals_on.store(on, std::memory_order_relaxed);
}
/// Whether the vector path runs here: the CPU has AVX-512 F and DQ, and it is switched on.
bool vector_normals_available();

/// log(s) for s in (0, 1), eight lanes at a time, within a few units in the last place; for the unit test, which
/// checks the relative error bound the vector path relies on (see kGuard in rng_normals.cpp). n is a multiple of 8.
void vector_log_for_test(const double* s, double* out, std::size_t n);

}  // namespace bfs::detail
