//===- ElementSemantics.cpp - what one index value and update mean ------===//
//
// See ElementSemantics.h.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Utils/ElementSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::nd;

//===----------------------------------------------------------------------===//
// Index values
//===----------------------------------------------------------------------===//

Value mlir::nd::loadIndexValue(OpBuilder &b, Location loc, Value flat,
                               Value position) {
  Value raw = memref::LoadOp::create(b, loc, flat, ValueRange{position});
  if (raw.getType().isIndex())
    return raw;
  return b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), raw);
}

/// `index < zero ? index + size : index`.
static Value normalizeWithZero(OpBuilder &b, Location loc, Value index,
                               Value size, Value zero) {
  Value negative = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt,
                                                 index, zero);
  Value wrapped = b.createOrFold<arith::AddIOp>(loc, index, size);
  return b.createOrFold<arith::SelectOp>(loc, negative, wrapped, index);
}

Value mlir::nd::normalizeIndex(OpBuilder &b, Location loc, Value index,
                               Value size) {
  Value zero = constIndex(b, loc, 0);
  return normalizeWithZero(b, loc, index, size, zero);
}

Value mlir::nd::isOutOfRange(OpBuilder &b, Location loc, Value normalized,
                             Value size) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                       normalized, size);
}

ResolvedIndex mlir::nd::resolveIndex(OpBuilder &b, Location loc, OobMode oob,
                                     Value raw, Value size) {
  Value zero = constIndex(b, loc, 0);
  Value normalized = normalizeWithZero(b, loc, raw, size, zero);
  if (oob != OobMode::Clamp)
    return {normalized, isOutOfRange(b, loc, normalized, size)};
  // Below -size the normalized value is still negative: 0.
  Value one = constIndex(b, loc, 1);
  Value last = b.createOrFold<arith::SubIOp>(loc, size, one);
  Value below = b.createOrFold<arith::MinSIOp>(loc, normalized, last);
  Value clamped = b.createOrFold<arith::MaxSIOp>(loc, below, zero);
  // A test loops can hoist.
  Value empty =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, size, zero);
  return {clamped, empty};
}

//===----------------------------------------------------------------------===//
// Updates
//===----------------------------------------------------------------------===//

bool mlir::nd::isSupportedReduction(ReductionKind reduction, Type elementType) {
  if (reduction == ReductionKind::None)
    return true;
  // `mean` divides: integers (not i1) and floats.
  if (reduction == ReductionKind::Mean)
    return isa<FloatType>(elementType) ||
           (isa<IntegerType>(elementType) &&
            elementType.getIntOrFloatBitWidth() > 1);
  if (isa<FloatType, IntegerType>(elementType))
    return true;
  if (isa<ComplexType>(elementType))
    return reduction == ReductionKind::Add || reduction == ReductionKind::Mul ||
           reduction == ReductionKind::Sub;
  return false;
}

Value mlir::nd::combine(OpBuilder &b, Location loc, ReductionKind reduction,
                        Value current, Value update) {
  if (reduction == ReductionKind::None)
    return update;
  Type type = current.getType();
  Type elementType = getElementTypeOrSelf(type);

  if (isa<FloatType>(elementType)) {
    switch (reduction) {
    case ReductionKind::Add:
    case ReductionKind::Mean:
      return arith::AddFOp::create(b, loc, current, update);
    case ReductionKind::Mul:
      return arith::MulFOp::create(b, loc, current, update);
    case ReductionKind::Max:
      return arith::MaximumFOp::create(b, loc, current, update);
    case ReductionKind::Min:
      return arith::MinimumFOp::create(b, loc, current, update);
    case ReductionKind::Sub:
      return arith::SubFOp::create(b, loc, current, update);
    case ReductionKind::None:
      break;
    }
    llvm_unreachable("reduction handled above");
  }

  if (isa<ComplexType>(elementType)) {
    if (reduction == ReductionKind::Add)
      return complex::AddOp::create(b, loc, current, update);
    if (reduction == ReductionKind::Sub)
      return complex::SubOp::create(b, loc, current, update);
    return complex::MulOp::create(b, loc, current, update);
  }

  // arith takes signless integers only: reinterpret unsigned ones around the
  // combining op (the same iN in LLVM).
  auto intType = cast<IntegerType>(elementType);
  bool isUnsigned = intType.isUnsigned();
  Type signlessElement = b.getIntegerType(intType.getWidth());
  Type signless = signlessElement;
  if (auto vectorType = dyn_cast<VectorType>(type))
    signless = vectorType.clone(signlessElement);
  auto toSignless = [&](Value v) -> Value {
    if (v.getType() == signless)
      return v;
    return UnrealizedConversionCastOp::create(b, loc, signless, v).getResult(0);
  };
  Value lhs = toSignless(current);
  Value rhs = toSignless(update);
  Value result;
  if (intType.getWidth() == 1) {
    if (reduction == ReductionKind::Sub)
      result = b.createOrFold<arith::XOrIOp>(loc, lhs, rhs);
    else if (reduction == ReductionKind::Add || reduction == ReductionKind::Max)
      result = b.createOrFold<arith::OrIOp>(loc, lhs, rhs);
    else
      result = b.createOrFold<arith::AndIOp>(loc, lhs, rhs);
  } else {
    switch (reduction) {
    case ReductionKind::Add:
    case ReductionKind::Mean:
      result = b.createOrFold<arith::AddIOp>(loc, lhs, rhs);
      break;
    case ReductionKind::Mul:
      result = b.createOrFold<arith::MulIOp>(loc, lhs, rhs);
      break;
    case ReductionKind::Max:
      result = isUnsigned ? Value(b.createOrFold<arith::MaxUIOp>(loc, lhs, rhs))
                          : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
      break;
    case ReductionKind::Min:
      result = isUnsigned ? Value(b.createOrFold<arith::MinUIOp>(loc, lhs, rhs))
                          : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
      break;
    case ReductionKind::Sub:
      result = b.createOrFold<arith::SubIOp>(loc, lhs, rhs);
      break;
    case ReductionKind::None:
      llvm_unreachable("reduction handled above");
    }
  }
  if (result.getType() == type)
    return result;
  return UnrealizedConversionCastOp::create(b, loc, type, result).getResult(0);
}

Value mlir::nd::zeroValue(OpBuilder &b, Location loc, Type elementType) {
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    auto part = cast<FloatType>(complex.getElementType());
    Attribute zero = b.getFloatAttr(part, 0.0);
    auto parts = b.getArrayAttr({zero, zero});
    return complex::ConstantOp::create(b, loc, complex, parts);
  }
  // Unsigned integers are stored as signless ones of the same width.
  Type storage = elementType;
  if (auto integer = dyn_cast<IntegerType>(elementType);
      integer && !integer.isSignless())
    storage = b.getIntegerType(integer.getWidth());
  Value zero = sharedConstant(b, loc, cast<TypedAttr>(b.getZeroAttr(storage)));
  if (storage == elementType)
    return zero;
  return UnrealizedConversionCastOp::create(b, loc, elementType, zero)
      .getResult(0);
}

IntegerType mlir::nd::widerInteger(Type type, unsigned extra) {
  unsigned width = cast<IntegerType>(type).getWidth() + extra;
  return IntegerType::get(type.getContext(), llvm::PowerOf2Ceil(width));
}

Value mlir::nd::extendInteger(OpBuilder &b, Location loc, Value value,
                              IntegerType wide) {
  auto type = cast<IntegerType>(value.getType());
  Type signless = b.getIntegerType(type.getWidth());
  if (!type.isSignless())
    value = UnrealizedConversionCastOp::create(b, loc, signless, value)
                .getResult(0);
  if (type.isUnsigned())
    return arith::ExtUIOp::create(b, loc, wide, value);
  return arith::ExtSIOp::create(b, loc, wide, value);
}

Value mlir::nd::integerMean(OpBuilder &b, Location loc, Type elementType,
                            Value sum, Value count) {
  auto intType = cast<IntegerType>(elementType);
  auto wide = cast<IntegerType>(sum.getType());
  Value divisor = arith::ExtUIOp::create(b, loc, wide, count);
  Value quotient;
  if (intType.isUnsigned()) {
    quotient = arith::DivUIOp::create(b, loc, sum, divisor);
  } else {
    // Rounded towards negative infinity (the divisor is positive).
    Value truncated = arith::DivSIOp::create(b, loc, sum, divisor);
    Value product = arith::MulIOp::create(b, loc, truncated, divisor);
    Value rest = arith::SubIOp::create(b, loc, sum, product);
    Value wideZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(wide));
    Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, rest,
                                        wideZero);
    Value borrow = arith::ExtUIOp::create(b, loc, wide, below);
    quotient = arith::SubIOp::create(b, loc, truncated, borrow);
  }
  Type signless = b.getIntegerType(intType.getWidth());
  Value mean = arith::TruncIOp::create(b, loc, signless, quotient);
  if (intType.isSignless())
    return mean;
  return UnrealizedConversionCastOp::create(b, loc, elementType, mean)
      .getResult(0);
}

Value mlir::nd::floatMean(OpBuilder &b, Location loc, Value sum, Value count) {
  Value divisor = arith::UIToFPOp::create(b, loc, sum.getType(), count);
  return arith::DivFOp::create(b, loc, sum, divisor);
}
