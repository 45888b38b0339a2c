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

/// `scf.parallel (%p) = 0 to %parts` over a destination `dest` (a memref)
/// with elements: partition `p` owns `region(p)` of it, which `body(p,
/// slice)` updates through `slice`, a subview of `dest` cast to the layout
/// of `sliceType`. Partitions own disjoint regions, so that no two write one
/// element.
void buildPartitionedUpdate(
    OpBuilder &b, Location loc, Value dest, Value parts, MemRefType sliceType,
    function_ref<SliceRegion(OpBuilder &, Location, Value)> region,
    function_ref<void(OpBuilder &, Location, Value, Value)> body);

/// Runs a partition's work with run-time checks, returning its failure flag.
/// A destination that is `disposable` (a fresh buffer nothing reads if the
/// op fails) may hold partial results when a check fails, so the checks
/// fuse with the work: `applyFused` checks as it goes and returns whether an
/// index was bad. Any other destination (`inPlace`) must not change at all
/// when a check fails, so there `checkAll` first checks every index of the
/// op (returning whether one is bad) and the work runs only if none is.
Value checkedApply(OpBuilder &b, Location loc, bool inPlace,
                   function_ref<Value(OpBuilder &, Location)> checkAll,
                   function_ref<Value(OpBuilder &, Location)> applyFused);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_PARALLEL_H
