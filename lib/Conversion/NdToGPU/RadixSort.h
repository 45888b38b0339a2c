//===- RadixSort.h - a stable sort of scatter entries on the GPU -*- C++
//-*-===//
//
// Internal to the NdToGPU library: the stable bucketing behind deterministic
// scatters. The entries of a scatter are sorted by destination row with a
// least-significant-digit radix sort of 4-bit digits, each pass a counting
// sort in which every chunk of entries is walked in order by one thread:
//
// 1. each block counts the digits of its tile of 4096 entries (integer
//    atomics on shared memory: the counts do not depend on their order);
// 2. one block turns the counts, digit-major then tile order, into offsets
//    (an exclusive prefix sum);
// 3. each block counts again per thread (16 consecutive entries each), turns
//    the (digit, thread) counts into offsets within the tile, and each thread
//    writes its entries, in order, at the offset of their digit.
//
// Entries of equal digits keep their order through every pass, so entries of
// one destination end up together and in their original order: the owner of
// a destination applies its updates in row-major order of the entries, as the
// CPU does, without atomics on values.
//
// Keys and positions are 32-bit: a sort takes at most 2^31 - 1 entries and
// keys up to 2^31 - 1 (callers check).
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_RADIXSORT_H
#define ND_LIB_CONVERSION_NDTOGPU_RADIXSORT_H

#include "mlir/IR/Builders.h"

namespace mlir::nd::gpu_lowering {

/// The result of a sort: keys in order and, for each, its entry's position.
/// The four buffers are fresh; free them with `releaseSort`.
struct SortedEntries {
  Value keys, positions;
  Value spareKeys, sparePositions;
};

/// Sorts the `count` i32 keys of `keys` (1-D, in `[0, maxKey]`, both index
/// values on the host) stably. `keys` is left as it was.
SortedEntries emitRadixSort(OpBuilder &b, Location loc, Value keys, Value count,
                            Value maxKey);

void releaseSort(OpBuilder &b, Location loc, const SortedEntries &sorted);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_RADIXSORT_H
