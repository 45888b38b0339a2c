//===- IndexTuples.h - index tuples of the ND ops ---------------*- C++ -*-===//
//
// Internal to the NdToLoops library: how the ND ops read the index tuples
// of their flat `[N, k]` index buffer and find the data row a tuple
// addresses.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_INDEXTUPLES_H
#define ND_LIB_CONVERSION_NDTOLOOPS_INDEXTUPLES_H

#include "mlir/IR/Builders.h"
#include "nd/Conversion/RowSizes.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

namespace mlir::nd::lowering {

/// How the ND ops address data rows: the sizes of the `k` indexed dims and
/// their row-major strides.
struct TupleSpace {
  SmallVector<Value> sizes, strides;
  OobMode oob = OobMode::Error;
};

/// The tuple space of an ND op from its model: the data dim of each
/// component and the op's `oob`.
TupleSpace tupleSpaceOf(OpBuilder &b, Location loc, const RowSizes &sizes);

/// One tuple as read: raw and resolved components, the linear row it
/// addresses (unchecked under oob<error>) and, per component, `raw + size`,
/// which is below `2 * size` (unsigned) exactly when the component is in
/// range. Under skip and clamp, `skip` says whether the tuple is skipped, and
/// `row` is then 0.
struct Tuple {
  SmallVector<Value> raw, normalized, shifted;
  Value row, skip;
};

/// Reads tuple `t` of the flat `[N, k]` index buffer `indices`.
Tuple readTuple(OpBuilder &b, Location loc, Value indices, Value t,
                const TupleSpace &space);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_INDEXTUPLES_H
