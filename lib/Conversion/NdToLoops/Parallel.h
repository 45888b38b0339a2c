//===- Parallel.h - parallel structure of the nd lowering -------*- C++ -*-===//
//
// Internal to the NdToLoops library: how an op splits its work into
// partitions. The number of partitions is decided at run time from the
// amount of work and the thread count (LoweringState::numPartitions);
// results never depend on it.
//
// - parallel work over read-only data (gathers, checks, owner counting) is
//   an `scf.parallel` over partitions writing their own part of a fresh
//   result or of scratch buffers (`buildParallel`), each partition raising
//   its own failure flag where it checks;
// - a scatter updates its destination buffer in place inside an
//   `scf.parallel` over partitions (`buildPartitionedUpdate`): each
//   partition owns a disjoint subview of the destination.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_PARALLEL_H
#define ND_LIB_CONVERSION_NDTOLOOPS_PARALLEL_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::nd::lowering {

/// `[lo, hi)` of part `p` of `[0, n)` cut into `parts` near-equal ranges.
std::pair<Value, Value> partRange(OpBuilder &b, Location loc, Value n,
                                  Value parts, Value p);

/// `scf.parallel (%p) = 0 to %parts` with `body(p)`.
void buildParallel(OpBuilder &b, Location loc, Value parts,
                   function_ref<void(OpBuilder &, Location, Value)> body);

/// The serial OR of `flags[0..count)`.
Value anyFlag(OpBuilder &b, Location loc, Value flags, Value count);

/// The slice of a destination a partition owns.
struct SliceRegion {
  SmallVector<OpFoldResult> offsets, sizes;
};

/// The memref type of a slice of rank `rank` whose last dim is contiguous
/// (`strided<[?, ..., 1], offset: ?>`), or fully dynamic strides.
MemRefType sliceMemRefType(Type elementType, ArrayRef<int64_t> shape,
                           bool contiguousRows);

/// Whether the buffer `memref` has elements: the product of its dims is not
/// 0.
Value hasElements(OpBuilder &b, Location loc, Value memref);

/// `scf.parallel (%p) = 0 to %parts` over a destination `dest` (a memref)
/// with elements: partition `p` owns `region(p)` of it, which `body(p,
/// slice)` updates through `slice`, a subview of `dest` cast to the layout
/// of `sliceType`. Partitions own disjoint regions, so that no two write one
/// element.
void buildPartitionedUpdate(
    OpBuilder &b, Location loc, Value dest, Value parts, MemRefType sliceType,
    function_ref<SliceRegion(OpBuilder &, Location, Value)> region,
    function_ref<void(OpBuilder &, Location, Value, Value)> body);

/// Entries a disposable destination's checked work checks, then applies,
/// at a time (see checkedApply): the block's indices are still in the first
/// level cache when the work reads them again.
inline constexpr int64_t kCheckBlockEntries = 512;

/// Work over the entries `[lo, hi)`.
using EntryRangeFn = function_ref<void(OpBuilder &, Location, Value, Value)>;
/// Whether an index of the entries `[lo, hi)` is bad.
using EntryCheckFn = function_ref<Value(OpBuilder &, Location, Value, Value)>;

/// Runs a partition's work over the entries `[lo, hi)` with run-time checks,
/// returning whether an index was bad (or `failed`, whether one was before:
/// then nothing is checked or applied). `check(lo, hi)` is a pass over the
/// indices alone (a max reduction, which vectorises); `apply(lo, hi)` does
/// the work unchecked.
/// - A destination that is `disposable` (a fresh buffer nothing reads if the
///   op fails) may hold partial results when a check fails: the entries are
///   taken in blocks of kCheckBlockEntries, each checked and then applied
///   while its indices are in cache, and after a bad block nothing more is
///   applied.
/// - Any other destination (`inPlace`) must not change at all when a check
///   fails: every index of `[lo, hi)` is checked first, and the work runs
///   only if none is bad.
Value checkedApply(OpBuilder &b, Location loc, bool inPlace, Value lo,
                   Value hi, EntryCheckFn check, EntryRangeFn apply,
                   Value failed = Value());

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_PARALLEL_H
