//===- Positions.h - walks over the positions of a tensor -------*- C++ -*-===//
//
// Internal to the NdToLoops library: loops over the positions of a
// row-major tensor in a range of flat positions and of columns, in
// row-major order, as gather_elements and scatter_elements walk their
// indices. The walks build `scf.for` loops over rows and columns that carry
// values from one position to the next.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_POSITIONS_H
#define ND_LIB_CONVERSION_NDTOLOOPS_POSITIONS_H

#include "mlir/IR/Builders.h"

namespace mlir::nd::lowering {

/// What a walk does with one row segment: `segment(coords, rowStart, from,
/// to, carried)` gets the row's coordinates (the last one unset), its first
/// flat position, its columns `[from, to)` (possibly empty) and the
/// loop-carried values, and returns the new ones.
using RowSegmentFn = function_ref<SmallVector<Value>(
    OpBuilder &, Location, SmallVectorImpl<Value> &, Value, Value, Value,
    ValueRange)>;

/// What a walk does with one position: `body(coords, q, carried)` gets the
/// coordinates, the flat position and the loop-carried values and returns
/// the new ones.
using PositionFn = function_ref<SmallVector<Value>(
    OpBuilder &, Location, ArrayRef<Value>, Value, ValueRange)>;

/// Walks the rows of a row-major tensor with dims `dims` (rank >= 1) that
/// hold flat positions in `[lo, hi)`, in row-major order, restricted to the
/// last coordinates in `[colLo, colHi)`, calling `segment` once per row.
/// Returns the values the last row carries out (`init` when there is none).
SmallVector<Value> walkRowSegments(OpBuilder &b, Location loc,
                                   ArrayRef<Value> dims, Value lo, Value hi,
                                   Value colLo, Value colHi, ValueRange init,
                                   RowSegmentFn segment);

/// The columns `[from, to)` of a row segment (see walkRowSegments) one by
/// one, calling `body` for each.
SmallVector<Value> walkColumns(OpBuilder &b, Location loc,
                               SmallVectorImpl<Value> &coords, Value rowStart,
                               Value from, Value to, ValueRange carried,
                               PositionFn body);

/// Walks the positions of a row-major tensor with dims `dims` (rank >= 1)
/// whose flat position lies in `[lo, hi)` and whose last coordinate lies in
/// `[colLo, colHi)`, in row-major order, calling `body` for each.
SmallVector<Value> walkPositions(OpBuilder &b, Location loc,
                                 ArrayRef<Value> dims, Value lo, Value hi,
                                 Value colLo, Value colHi, ValueRange init,
                                 PositionFn body);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_POSITIONS_H
