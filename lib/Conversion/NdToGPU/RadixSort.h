//===- RadixSort.h - a stable sort of scatter entries on the GPU -*- C++ -*-===//
//
// Internal to the NdToGPU library: the stable bucketing behind deterministic
// scatters. An entry is a 32-bit *key* (its destination row, below 2^31) and
// a 32-bit *payload* (its entry number; bit 31 marks an entry that writes
// nothing). Keys are only as wide as the row count needs: the sort takes the
// bits of `rows - 1`, nothing more.
//
// The building block is a *tile sort*: a block of kSortBlock threads loads a
// tile of kSortTile entries into shared memory with coalesced loads, then
// sorts it stably by some bits of the key in rounds of 2 bits, each round a
// split: every thread counts the four digits of its kSortItems consecutive
// entries (packed into one 64-bit word, 16 bits a digit), one block-wide
// exclusive scan of the packed counts gives every entry its place, and the
// entries move within shared memory. Entries of equal bits keep their order.
//
// Large sorts are least-significant-digit radix sorts of 8-bit digits,
// onesweep style (one kernel per digit, decoupled look-back):
//
// 1. the caller's key kernel counts the digits of every pass at once
//    (`countDigits`, into a histogram of each pass);
// 2. each pass is one kernel: a block takes the next tile (an atomic ticket,
//    so that tiles start in order), sorts it by the pass's digit (4 rounds),
//    publishes its digit counts, looks back over the tiles before it for
//    the number of entries of each digit they hold (each tile's word holds
//    its count, or the inclusive count of every tile up to it once known),
//    and writes its entries, coalesced, after those of the smaller digits
//    (the pass's histogram) and of the same digit in earlier tiles.
//
// The histograms, tickets and look-back words are one buffer, cleared by
// one memset before the key kernel. Index arithmetic in the sort kernels is
// 32-bit (entries are fewer than 2^31, which the caller checks).
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_RADIXSORT_H
#define ND_LIB_CONVERSION_NDTOGPU_RADIXSORT_H

#include "nd/Conversion/NdToGPU/GPUSupport.h"

#include "mlir/IR/Builders.h"

namespace mlir::nd::gpu_lowering {

/// Threads of a tile sort, entries per thread and per tile.
inline constexpr int64_t kSortBlock = 512;
inline constexpr int64_t kSortItems = 8;
inline constexpr int64_t kSortTile = kSortBlock * kSortItems;
/// Bits and values of a digit of the large sort.
inline constexpr int64_t kDigitBits = 8;
inline constexpr int64_t kDigits = int64_t(1) << kDigitBits;
/// The most passes (32-bit keys).
inline constexpr int64_t kMaxPasses = 4;
/// Bit 31 of a key (key kernel) or payload (sorted entries): the entry
/// writes nothing.
inline constexpr int64_t kDroppedBit = int64_t(1) << 31;

/// The shared memory of a tile sort: keys, payloads (kSortTile i32 each) and
/// the scan's scratch (scanScratchSize(kSortBlock) i64), in that order; a kernel asks for
/// these first and may ask for more after them.
SmallVector<MemRefType> tileSortShared(MLIRContext *ctx);

/// A tile sort's shared buffers in a kernel (its first three attributions).
struct TileBuffers {
  Value keys, payloads, scratch;
};
TileBuffers tileBuffers(const KernelIds &ids);

/// In a kernel, at its top level: `rounds` rounds of 2 bits of the keys in
/// `tile`, from bit `shift` (an i32), stably. Every thread of the block calls
/// it (it has barriers). Entries past the tile's end hold key 0xFFFFFFFF, so
/// that they stay last.
void sortTileRounds(OpBuilder &b, Location loc, const KernelIds &ids,
                    const TileBuffers &tile, Value shift, int64_t rounds);

/// The thread's id as an i32, and the i32 form of an index value.
Value threadId32(OpBuilder &b, Location loc, const KernelIds &ids);
Value toI32(OpBuilder &b, Location loc, Value value);

/// The number of passes of 8-bit digits for keys below `rows` (a host index
/// value), at least one.
Value sortPasses(OpBuilder &b, Location loc, Value rows);

/// The shared scratch of a large sort (see the file header), allocated and
/// cleared on the host for `count` entries.
struct SortScratch {
  Value bytes, words;
  Value tiles, passes;
};
SortScratch allocSortScratch(OpBuilder &b, Location loc, Value count,
                             Value rows);
void releaseSortScratch(OpBuilder &b, Location loc, const SortScratch &s);

/// The shared memory `countDigits` needs (one attribution).
MemRefType digitCountShared(MLIRContext *ctx);

/// In the caller's key kernel (a grid-stride loop over entries, between two
/// top-level phases): `clearDigitCounts` at its start (then a barrier),
/// `noteDigits` for each entry's key, and `flushDigitCounts` after a barrier
/// at its end. `counts` is the attribution of `digitCountShared`.
void clearDigitCounts(OpBuilder &b, Location loc, const KernelIds &ids,
                      Value counts);
void noteDigits(OpBuilder &b, Location loc, Value counts, Value key32,
                Value passes);
void flushDigitCounts(OpBuilder &b, Location loc, const KernelIds &ids,
                      Value counts, const SortScratch &scratch);

/// The result of a sort: keys in order and, for each, its payload.
struct SortedEntries {
  Value keys, payloads;
  /// The buffers to free.
  SmallVector<Value> buffers;
};

/// Sorts `count` entries (host index values) whose keys (i32, bit 31 the
/// dropped mark, cleared into the payload) the key kernel wrote into `keys`
/// and counted into `scratch`; `keys` becomes one of the sort's buffers.
SortedEntries emitRadixSort(OpBuilder &b, Location loc, Value keys,
                            Value count, const SortScratch &scratch);

void releaseSort(OpBuilder &b, Location loc, const SortedEntries &sorted);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_RADIXSORT_H
