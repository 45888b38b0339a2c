//===- ElementSemantics.h - what one index value and update mean -*- C++ -*-=//
//
// nd's rules for one index value and one update (docs/Rationale.md), built as
// arith, complex and memref ops wherever a lowering or a transform needs them
// one element at a time: the CPU lowering, the tiling interface's scalar
// implementation of the nd ops and the GPU lowering. The rules, built with
// the same ops everywhere: a negative index counts from the end, `clamp` clamps
// into `[0, d-1]`, integers wrap, unsigned integers compare unsigned, `i1` is
// or/and/xor, floats propagate NaN under max/min, a mean sums exactly
// (integers) or in the element type (floats) and divides once.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_UTILS_ELEMENTSEMANTICS_H
#define ND_DIALECT_ND_UTILS_ELEMENTSEMANTICS_H

#include "mlir/IR/Builders.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"

namespace mlir::nd {

//===----------------------------------------------------------------------===//
// Index values
//===----------------------------------------------------------------------===//

/// Reads `flat[position]` of a 1-D index buffer as an `index` (i32
/// sign-extends).
Value loadIndexValue(OpBuilder &b, Location loc, Value flat, Value position);

/// An index value resolved under an oob mode: the position it addresses and
/// whether it addresses nothing (`bad`: out of range under error and skip, an
/// empty dim under clamp). `position` is in range only where `bad` is false.
/// `i < 0 ? i + size : i`; values outside `[-size, size)` stay outside
/// `[0, size)`.
Value normalizeIndex(OpBuilder &b, Location loc, Value index, Value size);

/// `normalized >= size` as unsigned, i.e. the raw index is out of range.
Value isOutOfRange(OpBuilder &b, Location loc, Value normalized, Value size);

struct ResolvedIndex {
  Value position;
  Value bad;
};
ResolvedIndex resolveIndex(OpBuilder &b, Location loc, OobMode oob, Value raw,
                           Value size);

//===----------------------------------------------------------------------===//
// Updates
//===----------------------------------------------------------------------===//

/// Whether `combine` supports `reduction` on `elementType` (the reductions the
/// verifier accepts; `mean` is combined as `add`, then divided).
bool isSupportedReduction(ReductionKind reduction, Type elementType);

/// The value in place combined with an update (scalars or vectors): `none`
/// replaces, `sub` is `current - update`, i1 treats add/max as or, mul/min as
/// and, sub as xor; integers wrap; unsigned integers compare unsigned; floats
/// propagate NaN under max/min.
Value combine(OpBuilder &b, Location loc, ReductionKind reduction,
              Value current, Value update);

/// The zero of `elementType` (false, 0, +0.0, or (0, 0)).
Value zeroValue(OpBuilder &b, Location loc, Type elementType);

/// A signless integer at least `extra` bits wider than the integer `type`, of
/// a power-of-two width (an exact sum of any number of updates; the memref
/// lowering sizes buffers of other widths differently from LLVM's layout of
/// their elements).
IntegerType widerInteger(Type type, unsigned extra);

/// `value` (of an integer element type, signed or unsigned) extended to
/// `wide`.
Value extendInteger(OpBuilder &b, Location loc, Value value, IntegerType wide);

/// The mean of an exact integer `sum` over `count` (an i64) updates, rounded
/// towards negative infinity (unsigned types divide unsigned), in
/// `elementType`.
Value integerMean(OpBuilder &b, Location loc, Type elementType, Value sum,
                  Value count);

/// A float sum divided by `count` (an i64) converted to the element type.
Value floatMean(OpBuilder &b, Location loc, Value sum, Value count);

} // namespace mlir::nd

#endif // ND_DIALECT_ND_UTILS_ELEMENTSEMANTICS_H
