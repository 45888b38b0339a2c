//===- Reductions.h - how an update combines with a value -------*- C++ -*-===//
//
// Internal to the NdToLoops library: the reductions of the scatters on
// scalars and vectors of every element type nd accepts.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_REDUCTIONS_H
#define ND_LIB_CONVERSION_NDTOLOOPS_REDUCTIONS_H

#include "mlir/IR/Builders.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

namespace mlir::nd::lowering {

/// Whether `combine` supports `reduction` on `elementType`.
bool isSupportedReduction(ReductionKind reduction, Type elementType);

/// The combination of the value in place with an update, for scalars or
/// vectors: `none` replaces; `sub` is `current - update`; i1 treats add/max
/// as `or`, mul/min as `and` and sub as `xor`; integers wrap; unsigned
/// integers compare unsigned; floats propagate NaN under max/min. Call only
/// where `isSupportedReduction` holds.
Value combine(OpBuilder &b, Location loc, ReductionKind reduction,
              Value current, Value update);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_REDUCTIONS_H
