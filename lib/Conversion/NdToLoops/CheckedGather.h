//===- CheckedGather.h - the skeleton of the gathers ------------*- C++ -*-===//
//
// Internal to the NdToLoops library: what gather_nd, gather_elements and
// nd.gather share around their own reads. A gather fills a fresh result in
// partitions (an `scf.parallel`), each partition reading its part of the
// index values and the data they address; with checks (bounds checking on,
// oob<error>), a partition never reads through a bad index value and raises
// its own failure flag instead, and a raised flag leads to the report of the
// first bad index value in row-major order (see IndexChecks.h), which the
// partitions cannot tell.
//
// Where an indexed dim is empty every index value is out of range, so no
// data may be read at all. gather_nd and gather_elements test for that up
// front (buildGuardedGather); nd.gather resolves each value in its
// partitions, but when it reads no index value at all (a result without
// rows), its values are scanned on their own (buildScannedGather).
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_CHECKEDGATHER_H
#define ND_LIB_CONVERSION_NDTOLOOPS_CHECKEDGATHER_H

#include "mlir/IR/Builders.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

namespace mlir::nd::lowering {

/// What each gather plugs into the skeleton.
struct GatherPartitions {
  /// Whether index values are checked at run time.
  bool check;
  /// The number of partitions.
  Value parts;
  /// The number of index values (or tuples).
  Value numIndices;
  /// The work of partition `p` (inside the `scf.parallel`); returns whether
  /// it met a bad index value with `check`, null without.
  function_ref<Value(OpBuilder &, Location, Value)> partition;
  /// Reports the first bad index value; runs only after a failed check.
  function_ref<void(OpBuilder &, Location)> reportFirstBad;
};

/// gather_nd, gather_elements: where `emptyIndexedDim` (i1) holds at run
/// time, the partitions do not run; under `oob` skip and clamp `zeroResult`
/// fills the result with zeros, under error the op fails unless there are no
/// index values.
void buildGuardedGather(OpBuilder &b, Location loc,
                        const GatherPartitions &gather, Value emptyIndexedDim,
                        OobMode oob,
                        function_ref<void(OpBuilder &, Location)> zeroResult);

/// nd.gather: the partitions resolve every value they read; where they make
/// no read (`numReads` is 0) but there are index values, `scanIndices`
/// checks them all (returning whether one is bad) in place of the
/// partitions' flags.
void buildScannedGather(OpBuilder &b, Location loc,
                        const GatherPartitions &gather, Value numReads,
                        function_ref<Value(OpBuilder &, Location)> scanIndices);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_CHECKEDGATHER_H
