//===- ElementSemantics.h - what one index value and update mean -*- C++ -*-=//
//
// nd's rules for one index value and one update (docs/Rationale.md), built as
// arith, complex and memref ops wherever a lowering or a transform needs them
// one element at a time: the CPU lowering, the tiling interface's scalar
// implementation of the nd ops and the GPU lowering; and evaluated on
// constants by the folder. The rules, built with the same ops everywhere: a
// negative index counts from the end, `clamp` clamps into `[0, d-1]` (the
// index rules of nd/Dialect/Nd/IR/NdRowAddressing.h), integers wrap, unsigned
// integers compare unsigned, `i1` is or/and/xor, floats propagate NaN under
// max/min, a mean sums exactly (integers) or in the element type (floats) and
// divides once. Which primitive operation combines an update under each
// reduction is one table (`getCombineOp`), read by the IR builder and by the
// constant evaluation alike.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_UTILS_ELEMENTSEMANTICS_H
#define ND_DIALECT_ND_UTILS_ELEMENTSEMANTICS_H

#include "mlir/IR/Builders.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

#include <complex>

namespace mlir::nd {

//===----------------------------------------------------------------------===//
// Index values
//===----------------------------------------------------------------------===//

/// Reads `flat[position]` of a 1-D index buffer as an `index` (i32
/// sign-extends).
Value loadIndexValue(OpBuilder &b, Location loc, Value flat, Value position);

/// `i < 0 ? i + size : i`; values outside `[-size, size)` stay outside
/// `[0, size)` (normalizeIndexWith).
Value normalizeIndex(OpBuilder &b, Location loc, Value index, Value size);

/// `normalized >= size` as unsigned, i.e. the raw index is out of range.
Value isOutOfRange(OpBuilder &b, Location loc, Value normalized, Value size);

/// An index value resolved under an oob mode (resolveIndexWith): the
/// position it addresses and whether it addresses nothing (`bad`: out of
/// range under error and skip, an empty dim under clamp). `position` is in
/// range only where `bad` is false.
using ResolvedIndex = ResolvedIndexOf<IndexBuilder>;
ResolvedIndex resolveIndex(OpBuilder &b, Location loc, OobMode oob, Value raw,
                           Value size);

//===----------------------------------------------------------------------===//
// Vectors
//===----------------------------------------------------------------------===//

/// Whether elements of `elementType` move as lanes of vectors: integers and
/// floats of 8, 16, 32 or 64 bits (each backend picks its vector width).
bool isVectorizable(Type elementType);

/// The lanes of `elementType` in a vector of `vectorBytes` bytes.
int64_t lanesPerVector(Type elementType, int64_t vectorBytes);

//===----------------------------------------------------------------------===//
// Updates
//===----------------------------------------------------------------------===//

/// The primitive operation that combines an update into the value in place
/// under a reduction, for an element type: `none` replaces; integers wrap and
/// unsigned ones compare unsigned; `i1` takes add and max as or, mul and min
/// as and, sub as xor; floats propagate NaN under max/min (maximumf,
/// minimumf); complex numbers have add, sub and mul only; `mean` combines as
/// add (the sum, divided afterwards) and is not defined on `i1`. Unsupported
/// where the reduction is not defined on the type.
enum class CombineOp {
  Replace,
  OrI,
  AndI,
  XOrI,
  AddI,
  SubI,
  MulI,
  MaxSI,
  MaxUI,
  MinSI,
  MinUI,
  AddF,
  SubF,
  MulF,
  MaximumF,
  MinimumF,
  AddC,
  SubC,
  MulC,
  Unsupported,
};
CombineOp getCombineOp(ReductionKind reduction, Type elementType);

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

//===----------------------------------------------------------------------===//
// Updates of constants
//===----------------------------------------------------------------------===//

// The same rules on constant elements (the folder's evaluation): `combine`
// applies getCombineOp's operation to `current` and returns false where it
// is not evaluated; `mean` is the mean of `values` as the lowering computes
// it.

/// Integer elements (APInt of the type's width).
struct ConstantIntElements {
  using ValueType = APInt;
  IntegerType type;

  APInt zero() const { return APInt(type.getWidth(), 0); }
  static bool equal(const APInt &a, const APInt &b) { return a == b; }
  bool combine(ReductionKind kind, APInt &current, const APInt &update) const;
  /// From the exact sum, rounded down (towards negative infinity).
  bool mean(ArrayRef<APInt> values, APInt &result) const;
};

/// Floating-point elements: IEEE arithmetic rounding to nearest even.
struct ConstantFloatElements {
  using ValueType = APFloat;
  FloatType type;

  APFloat zero() const { return APFloat::getZero(type.getFloatSemantics()); }
  static bool equal(const APFloat &a, const APFloat &b) {
    return a.bitwiseIsEqual(b);
  }
  bool combine(ReductionKind kind, APFloat &current,
               const APFloat &update) const;
  /// The sum in order, in the element type, divided once by the count.
  bool mean(ArrayRef<APFloat> values, APFloat &result) const;
};

/// Complex elements: the textbook product, which is what the lowering
/// computes for finite operands (it recovers infinities and NaNs in ways
/// not reproduced here, so such products are not evaluated).
struct ConstantComplexElements {
  using ValueType = std::complex<APFloat>;
  ComplexType type;

  ValueType zero() const;
  static bool equal(const ValueType &a, const ValueType &b) {
    return a.real().bitwiseIsEqual(b.real()) &&
           a.imag().bitwiseIsEqual(b.imag());
  }
  bool combine(ReductionKind kind, ValueType &current,
               const ValueType &update) const;
  /// mean is not defined on complex numbers (the verifier rejects it).
  bool mean(ArrayRef<ValueType>, ValueType &) const { return false; }
};

/// Calls `fn` with the constant element semantics of `elementType` (an nd
/// element type).
template <typename Fn> auto withConstantElements(Type elementType, Fn &&fn) {
  if (auto intType = dyn_cast<IntegerType>(elementType))
    return fn(ConstantIntElements{intType});
  if (auto floatType = dyn_cast<FloatType>(elementType))
    return fn(ConstantFloatElements{floatType});
  return fn(ConstantComplexElements{cast<ComplexType>(elementType)});
}

} // namespace mlir::nd

#endif // ND_DIALECT_ND_UTILS_ELEMENTSEMANTICS_H
