//===- Semantics.h - nd's element semantics inside GPU kernels --*- C++ -*-===//
//
// Internal to the NdToGPU library: what one index value or one update means,
// built inside kernels. These are nd's rules (docs/Rationale.md) as the CPU
// lowering applies them (lib/Conversion/NdToLinalg: `resolveIndex`,
// `combine`, the tallies of `mean` and `use_init_val(false)`, the messages of
// failed checks), spelled with the same arith, complex and cast ops so that
// the GPU computes the same bits: a negative index counts from the end, `clamp`
// clamps into `[0, d-1]`, integers wrap, unsigned integers compare unsigned,
// `i1` is or/and/xor, floats propagate NaN under max/min.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_SEMANTICS_H
#define ND_LIB_CONVERSION_NDTOGPU_SEMANTICS_H

#include "mlir/IR/Builders.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

#include <string>

namespace mlir::nd::gpu_lowering {

/// Reads `flat[position]` of a 1-D index buffer as an `index` (i32
/// sign-extends).
Value loadIndexValue(OpBuilder &b, Location loc, Value flat, Value position);

/// An index value resolved under an oob mode: the position it addresses and
/// whether it addresses nothing (`bad`: out of range under error and skip, an
/// empty dim under clamp). `position` is in range only where `bad` is false.
struct ResolvedIndex {
  Value position;
  Value bad;
};
ResolvedIndex resolveIndex(OpBuilder &b, Location loc, OobMode oob, Value raw,
                           Value size);

/// Whether the GPU lowering combines `reduction` on `elementType` (the
/// reductions the verifier accepts).
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
/// a power-of-two width (an exact sum of any number of updates).
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

/// Whether elements of `elementType` move as 16-byte vectors (integers and
/// floats of 8 to 64 bits).
bool isVectorizable(Type elementType);

/// Elements of `elementType` per 16-byte vector.
int64_t vectorLength(Type elementType);

/// The messages of failed run-time checks, as the CPU lowering words them
/// (printf formats with two `%lld`).
std::string indexMessage(int64_t dataDim);
std::string dimMessage(StringRef lhsName, int64_t lhsDim, StringRef rhsText,
                       bool atMost);
std::string writeIndexMessage(int64_t axis, bool circular);

/// "file:line:col" of an op (an imported node: "file (node)"), with '%'
/// escaped for printf: what a message names as the op's location.
std::string describeLocation(Operation *op);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_SEMANTICS_H
