#pragma once
// The vector kernels of the forest builder (forest_builder.hpp), chosen at run time (has_avx2()). They take the same
// decisions as the scalar code, bit for bit: the scan does the scalar arithmetic lane by lane (no FMA), and the
// filters move the same entries to the same places, so which code runs never shows in the trees.
//
// The scan runs all of a node's column blocks and their replays in one call: a call per block of four columns was a
// measurable part of the time in the many small nodes.
//
// The filters (the bootstrap filter and the partitions) are for trees whose rows are below 256, the forest's usual
// case (a few hundred training rows): a row set is then a 256-bit map, held in two registers, so eight entries'
// membership is a handful of in-register byte lookups and shifts (no gather); the kept entries are packed with a
// permutation looked up from the 8-bit mask, eight entries per step and no branch on the data.
#include <atomic>
#include <cstdint>
#include <initializer_list>

#include "core/types.hpp"
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace bfs::detail::forest {

/// One entry of a sorted column: the value's dense rank in the column and the row (of X) it comes from.
template <class Idx>
struct Entry {
  Idx rank;
  Idx row;
};

/// Bootstrap weight of a row and weight·y, side by side: the split scan reads both for every entry.
struct RowStat {
  double w, wy;
};

/// A node's scan: positions [begin, first) only accumulate (min_samples_leaf), [first, last] are candidates.
struct ScanRange {
  std::int32_t begin, first, last;
  double w_sum, wy_sum;
};

/// A position a lane kept: its candidate's numerator and denominator, replayed in sequential order.
struct Candidate {
  std::int32_t pos;
  double num, den;
};

constexpr int kLanes = 4;

struct Split {
  std::int32_t feature = -1;
  std::int32_t pos = -1;  ///< last position (in the feature's sorted segment) that goes left
  double proxy = -1.0;    ///< S_L²/W_L + S_R²/W_R: maximising it minimises the children's squared error
  /// The node's missing cells in this column go left too (they sit at the segment's end; forest_builder.hpp).
  bool missing_left = false;
};

/// The sequential rule at one candidate: take it when num > best·den (the comparison the scalar scan makes).
inline void offer(Split& best, std::int32_t feature, std::int32_t pos, double num, double den) {
  if (num > best.proxy * den) best = {feature, pos, num / den, false};
}

/// A set of rows below 256, bit r of byte r / 8 for row r.
struct alignas(32) RowBits {
  std::uint8_t bytes[32];
  void clear() {
    for (std::uint8_t& b : bytes) b = 0;
  }
  void set(unsigned row) { bytes[row >> 3] |= static_cast<std::uint8_t>(1u << (row & 7)); }
};

/// In the trees whose rows are below 256 (RowBits), the columns' entries hold row·16 in place of the row: the byte
/// offset of its RowStat, which the scan adds to the address without a shift (four instructions fewer in a
/// loop of about thirty). The bootstrap filter writes them so; forest_builder.hpp reads rows through row_shift_.
constexpr int kRowScale = 4;

/// A row's RowStat from an entry's row field (scaled: row·16).
template <bool kScaled>
inline const RowStat& stat_of(const RowStat* stat, unsigned row) {
  if constexpr (kScaled)
    return *reinterpret_cast<const RowStat*>(reinterpret_cast<const char*>(stat) + row);
  else
    return stat[row];
}

/// Entries read (never kept) past a column's end by the filters' last step: the buffers they read carry this many
/// more.
constexpr std::int32_t kFilterSlack = 8;

/// Off: has_avx2() says no, so the portable paths (scalar filters, SSE2 lanes) run on any machine; the unit test
/// checks they grow the same trees. Read when a tree builder starts, so set it between fits only.
inline std::atomic<bool> vector_paths_on{true};
inline void set_vector_paths(bool on) {
  vector_paths_on.store(on, std::memory_order_relaxed);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define BFS_FOREST_AVX2 1

inline bool has_avx2() {
  static const bool yes = __builtin_cpu_supports("avx2");
  return yes && vector_paths_on.load(std::memory_order_relaxed);
}

/// forest_builder.hpp's scan_lanes with the four lanes in one AVX register: the same operations on the same operands
/// (no FMA: the target adds AVX2 only, and -ffp-contract=off), so the same bits as the SSE2 version, with half the
/// arithmetic instructions. (Eight columns side by side in two registers ran slower: too few registers.)
template <class Idx, bool kScaled>
[[gnu::always_inline]] __attribute__((target("avx2"))) inline void scan_lanes_avx2(
    const Entry<Idx>* const* cols, const ScanRange& r, const RowStat* stat, double threshold, Candidate* events,
    std::int32_t stride, std::int32_t* counts) {
  const Entry<Idx>*c0 = cols[0], *c1 = cols[1], *c2 = cols[2], *c3 = cols[3];
  const __m256d w_sum = _mm256_set1_pd(r.w_sum), wy_sum = _mm256_set1_pd(r.wy_sum), thr = _mm256_set1_pd(threshold);
  __m256d w = _mm256_setzero_pd(), wy = _mm256_setzero_pd();
  // {w, wy} of lanes 0 and 2, and of lanes 1 and 3, regrouped as {w0, w1, w2, w3} and {wy0, wy1, wy2, wy3}.
  const auto add = [&](std::int32_t i) __attribute__((target("avx2"))) {
    const auto at = [stat](unsigned row) { return &stat_of<kScaled>(stat, row).w; };
    const __m256d s02 =
        _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(at(c0[i].row))), _mm_loadu_pd(at(c2[i].row)), 1);
    const __m256d s13 =
        _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(at(c1[i].row))), _mm_loadu_pd(at(c3[i].row)), 1);
    w = _mm256_add_pd(w, _mm256_unpacklo_pd(s02, s13));
    wy = _mm256_add_pd(wy, _mm256_unpackhi_pd(s02, s13));
  };
  const std::int32_t first = r.first, last = r.last;  // locals: the event stores could alias r
  for (std::int32_t i = r.begin; i < first; ++i) add(i);
  for (std::int32_t i = first; i <= last; ++i) {
    add(i);
    const __m256d w_right = _mm256_sub_pd(w_sum, w), wy_right = _mm256_sub_pd(wy_sum, wy);
    const __m256d num = _mm256_add_pd(_mm256_mul_pd(_mm256_mul_pd(wy, wy), w_right),
                                      _mm256_mul_pd(_mm256_mul_pd(wy_right, wy_right), w));
    const __m256d den = _mm256_mul_pd(w, w_right);
    const int hit = _mm256_movemask_pd(_mm256_cmp_pd(num, _mm256_mul_pd(thr, den), _CMP_GT_OQ));
    if (hit != 0) [[unlikely]] {
      alignas(32) double num_l[kLanes], den_l[kLanes];
      _mm256_store_pd(num_l, num);
      _mm256_store_pd(den_l, den);
      for (int l = 0; l < kLanes; ++l) {
        if ((hit >> l & 1) && cols[l][i].rank < cols[l][i + 1].rank)
          events[l * stride + counts[l]++] = {i, num_l[l], den_l[l]};
      }
    }
  }
}

/// The columns selected[0, count) of a node, kLanes at a time (the last block may be short: its missing lanes
/// rescan its first column and are ignored), each block against the best split before it, its lanes' candidates
/// replayed in column order (see forest_builder.hpp). `events` holds kLanes lists of `stride` entries.
template <class Idx, bool kScaled>
__attribute__((target("avx2"))) void scan_columns_avx2(const Entry<Idx>* columns, std::size_t column_stride,
                                                       const std::int32_t* selected, std::int32_t count,
                                                       const ScanRange& r, const RowStat* stat, Candidate* events,
                                                       std::int32_t stride, Split& best) {
  for (std::int32_t k = 0; k < count; k += kLanes) {
    const int lanes = count - k < kLanes ? count - k : kLanes;
    const Entry<Idx>* cols[kLanes];
    for (int l = 0; l < kLanes; ++l)
      cols[l] = columns + static_cast<std::size_t>(selected[k + (l < lanes ? l : 0)]) * column_stride;
    std::int32_t kept[kLanes] = {};
    scan_lanes_avx2<Idx, kScaled>(cols, r, stat, best.proxy, events, stride, kept);
    for (int l = 0; l < lanes; ++l) {
      for (std::int32_t e = 0; e < kept[l]; ++e) {
        const Candidate& c = events[static_cast<std::size_t>(l) * stride + e];
        offer(best, selected[k + l], c.pos, c.num, c.den);
      }
    }
  }
}

/// For each 8-bit mask, the lanes whose bit is set, in order, one byte each: the vpermd indices that pack them.
struct PackTable {
  std::uint64_t lanes[256];
};
constexpr PackTable make_pack_table() {
  PackTable t{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned k = 0;
    for (unsigned l = 0; l < 8; ++l)
      if (m >> l & 1) t.lanes[m] |= static_cast<std::uint64_t>(l) << (8 * k++);
  }
  return t;
}
inline constexpr PackTable kPackTable = make_pack_table();

/// For each 8-bit mask, the lanes whose bit is set, then the others, each group in order: a stable partition.
constexpr PackTable make_partition_table() {
  PackTable t{};
  for (unsigned m = 0; m < 256; ++m) {
    unsigned k = 0;
    for (const unsigned set : {1u, 0u}) {
      for (unsigned l = 0; l < 8; ++l)
        if ((m >> l & 1) == set) t.lanes[m] |= static_cast<std::uint64_t>(l) << (8 * k++);
    }
  }
  return t;
}
inline constexpr PackTable kPartitionTable = make_partition_table();

/// The 256-bit row map as the two 16-byte halves vpshufb looks up, each broadcast to both 128-bit lanes.
struct RowBitsReg {
  __m256i lo, hi;
};
__attribute__((target("avx2"))) inline RowBitsReg load_row_bits(const RowBits& bits) {
  const auto* p = reinterpret_cast<const __m128i*>(bits.bytes);
  return {_mm256_broadcastsi128_si256(_mm_load_si128(p)), _mm256_broadcastsi128_si256(_mm_load_si128(p + 1))};
}

/// Bit l set when the row of entry l (dword: rank in the low, row in the high 16 bits) is in the map. Byte row / 8
/// is looked up in the half it lies in (vpshufb gives 0 for an index with bit 7 set, which the + 0x70 and the ^ 0x80
/// arrange for the other half), then bit row % 8 is shifted to the sign bit (the other bytes' bits fall off). kScaled:
/// the entries hold row·16 (kRowScale).
template <bool kScaled = true>
__attribute__((target("avx2"))) inline int row_mask(__m256i entries, const RowBitsReg& bits) {
  constexpr int kRow = kScaled ? 16 + kRowScale : 16;  // where the row's bits start
  const __m256i index = _mm256_add_epi8(_mm256_srli_epi32(entries, kRow + 3), _mm256_set1_epi8(0x70));
  const __m256i byte = _mm256_or_si256(_mm256_shuffle_epi8(bits.lo, index),
                                       _mm256_shuffle_epi8(bits.hi, _mm256_xor_si256(index, _mm256_set1_epi8(-128))));
  const __m256i shift =
      _mm256_xor_si256(_mm256_and_si256(_mm256_srli_epi32(entries, kRow), _mm256_set1_epi32(7)), _mm256_set1_epi32(31));
  return _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_sllv_epi32(byte, shift)));
}

/// The lanes of `mask` then the others, each in order.
__attribute__((target("avx2"))) inline __m256i partition_lanes(__m256i entries, int mask) {
  const __m256i lanes = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(kPartitionTable.lanes[mask])));
  return _mm256_permutevar8x32_epi32(entries, lanes);
}

/// The lanes of `mask`, in order, moved to the front.
__attribute__((target("avx2"))) inline __m256i pack(__m256i entries, int mask) {
  const __m256i lanes = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(static_cast<long long>(kPackTable.lanes[mask])));
  return _mm256_permutevar8x32_epi32(entries, lanes);
}

/// Lanes [0, count) set, as a maskstore/maskload mask.
__attribute__((target("avx2"))) inline __m256i first_lanes(int count) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

using Entry16 = Entry<std::uint16_t>;
static_assert(sizeof(Entry16) == 4);

inline __m256i* as_vec(Entry16* p) {
  return reinterpret_cast<__m256i*>(p);
}
inline const __m256i* as_vec(const Entry16* p) {
  return reinterpret_cast<const __m256i*>(p);
}

/// Entries with row·16 in place of the row (kRowScale): the rank's bits shifted into the high words are zeros (ranks
/// are below 256 here).
__attribute__((target("avx2"))) inline __m256i scale_rows(__m256i entries) {
  return _mm256_blend_epi16(entries, _mm256_slli_epi32(entries, kRowScale), 0xAA);
}

/// Copies the entries of [src, src + n) whose row is in `bits` to dst, in order, rows scaled; returns the end of the
/// copy. Up to seven entries past it are overwritten, nothing past src + n is read.
__attribute__((target("avx2,popcnt"))) inline Entry16* filter_rows_avx2(const Entry16* src, std::int32_t n,
                                                                        const RowBitsReg& bits, Entry16* dst) {
  std::int32_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m256i e = _mm256_loadu_si256(as_vec(src + k));
    const int mask = row_mask<false>(e, bits);
    _mm256_storeu_si256(as_vec(dst), pack(scale_rows(e), mask));
    dst += __builtin_popcount(mask);
  }
  if (k < n) {
    const __m256i e = _mm256_maskload_epi32(reinterpret_cast<const int*>(src + k), first_lanes(n - k));
    const int mask = row_mask<false>(e, bits) & ((1 << (n - k)) - 1);
    _mm256_storeu_si256(as_vec(dst), pack(scale_rows(e), mask));
    dst += __builtin_popcount(mask);
  }
  return dst;
}

/// The bootstrap filter: the entries of the p columns of n entries from `src` whose row is in `sample`, packed one
/// column after the other from `dst` (each column keeps the same number of entries, so the next one starts where it
/// ends); up to seven entries past the last one are overwritten.
__attribute__((target("avx2,popcnt"))) inline void filter_columns_avx2(const Entry16* src, std::int32_t n,
                                                                       std::int32_t p, const RowBits& sample,
                                                                       Entry16* dst) {
  const RowBitsReg bits = load_row_bits(sample);
  for (std::int32_t c = 0; c < p; ++c) dst = filter_rows_avx2(src + static_cast<std::size_t>(c) * n, n, bits, dst);
}

/// Copies [src, src + n) to dst (n >= 0), writing nothing past dst + n.
__attribute__((target("avx2"))) inline void copy_entries_avx2(const Entry16* src, std::int32_t n, Entry16* dst) {
  std::int32_t k = 0;
  for (; k + 8 <= n; k += 8) _mm256_storeu_si256(as_vec(dst + k), _mm256_loadu_si256(as_vec(src + k)));
  if (k < n)
    _mm256_maskstore_epi32(reinterpret_cast<int*>(dst + k), first_lanes(n - k), _mm256_loadu_si256(as_vec(src + k)));
}

/// Stable partition of one column's node segment [begin, end) by `left`: the left entries packed in place from begin
/// (kLeft), the right ones to [rights, rights + end - mid) (kRight; up to seven more are overwritten). A child that is
/// a leaf is not needed, so its side is skipped. Reads up to kFilterSlack entries past end; writes nothing else of
/// the column.
template <bool kLeft, bool kRight>
__attribute__((target("avx2,popcnt"))) inline void partition_avx2(Entry16* col, std::int32_t begin, std::int32_t end,
                                                                  const RowBitsReg& left, Entry16* rights) {
  std::int32_t out_left = begin, out_right = 0, i = begin;
  // Full steps: the left store may write junk after its entries, but only over entries already loaded.
  for (; i + 8 <= end; i += 8) {
    const __m256i e = _mm256_loadu_si256(as_vec(col + i));
    const int mask = row_mask(e, left);
    if constexpr (kLeft) _mm256_storeu_si256(as_vec(col + out_left), pack(e, mask));
    if constexpr (kRight) _mm256_storeu_si256(as_vec(rights + out_right), pack(e, mask ^ 0xFF));
    out_left += __builtin_popcount(mask);
    out_right += 8 - __builtin_popcount(mask);
  }
  if (i < end) {  // the last step stores only what belongs to the segment
    const __m256i e = _mm256_loadu_si256(as_vec(col + i));
    const int valid = (1 << (end - i)) - 1, mask = row_mask(e, left) & valid;
    if constexpr (kLeft) {
      _mm256_maskstore_epi32(reinterpret_cast<int*>(col + out_left), first_lanes(__builtin_popcount(mask)),
                             pack(e, mask));
    }
    if constexpr (kRight) _mm256_storeu_si256(as_vec(rights + out_right), pack(e, mask ^ valid));
  }
}

/// partition_avx2 for a segment of 16 entries at most, held in two registers: every entry is loaded before any
/// store, so the children are written straight to their places (no scratch); a full store's junk lanes are
/// overwritten by the later stores or fall in a leaf child's side, which is never read again.
template <bool kLeft, bool kRight>
__attribute__((target("avx2,popcnt"))) inline void partition_small_avx2(Entry16* col, std::int32_t begin,
                                                                        std::int32_t mid, std::int32_t end,
                                                                        const RowBitsReg& left) {
  const std::int32_t len = end - begin;
  const __m256i e0 = _mm256_loadu_si256(as_vec(col + begin));
  if (len <= 8) {  // one permutation, one store: the lanes past the segment (mask 0) go after its right entries
    const int mask = row_mask(e0, left) & ((1 << len) - 1);
    _mm256_maskstore_epi32(reinterpret_cast<int*>(col + begin), first_lanes(len), partition_lanes(e0, mask));
    return;
  }
  const __m256i e1 = _mm256_loadu_si256(as_vec(col + begin + 8));
  const int valid1 = (1 << (len - 8)) - 1, mask0 = row_mask(e0, left), mask1 = row_mask(e1, left) & valid1;
  const int left0 = __builtin_popcount(mask0), right0 = 8 - left0;
  if constexpr (kLeft) {
    _mm256_storeu_si256(as_vec(col + begin), pack(e0, mask0));
    _mm256_maskstore_epi32(reinterpret_cast<int*>(col + begin + left0), first_lanes(mid - begin - left0),
                           pack(e1, mask1));
  }
  if constexpr (kRight) {
    _mm256_maskstore_epi32(reinterpret_cast<int*>(col + mid), first_lanes(right0), pack(e0, mask0 ^ 0xFF));
    _mm256_maskstore_epi32(reinterpret_cast<int*>(col + mid + right0), first_lanes(end - mid - right0),
                           pack(e1, mask1 ^ valid1));
  }
}

/// partition_avx2 on every column but `skip` (the split column) and those constant in the node (their entries hold
/// one value, so any of them tell the children so); the columns are segments of `stride` entries from `columns`.
/// The right entries go to `scratch` (the moved columns' one after the other; (p + 1)·(end - mid) entries at most,
/// their numbers to `moved`) and are copied back only once every column is done: read back at once, the stores
/// just made (at odd offsets) could not be forwarded to the loads, which then wait for them to reach the cache.
template <bool kLeft, bool kRight>
__attribute__((target("avx2,popcnt"))) void partition_columns_avx2(Entry16* columns, std::size_t stride, std::int32_t p,
                                                                   std::int32_t skip, std::int32_t begin,
                                                                   std::int32_t mid, std::int32_t end,
                                                                   const RowBits& left_rows, Entry16* scratch,
                                                                   std::int32_t* moved) {
  const RowBitsReg left = load_row_bits(left_rows);
  if (end - begin <= 16) {
    for (std::int32_t c = 0; c < p; ++c) {
      Entry16* col = columns + static_cast<std::size_t>(c) * stride;
      if (c != skip && col[begin].rank != col[end - 1].rank)
        partition_small_avx2<kLeft, kRight>(col, begin, mid, end, left);
    }
    return;
  }
  const std::int32_t n_right = end - mid;
  std::int32_t count = 0;
  for (std::int32_t c = 0; c < p; ++c) {
    Entry16* col = columns + static_cast<std::size_t>(c) * stride;
    if (c == skip || col[begin].rank == col[end - 1].rank) continue;
    partition_avx2<kLeft, kRight>(col, begin, end, left, scratch + static_cast<std::size_t>(count) * n_right);
    moved[count++] = c;
  }
  if constexpr (kRight) {
    for (std::int32_t k = 0; k < count; ++k) {
      copy_entries_avx2(scratch + static_cast<std::size_t>(k) * n_right, n_right,
                        columns + static_cast<std::size_t>(moved[k]) * stride + mid);
    }
  }
}
#endif

}  // namespace bfs::detail::forest
