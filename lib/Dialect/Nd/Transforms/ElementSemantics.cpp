//===- ElementSemantics.cpp - what one index value and update mean -*- C++
//-*-===//
//
// See ElementSemantics.h.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/ElementSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::nd;

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

static Value constantIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value mlir::nd::loadIndexValue(OpBuilder &b, Location loc, Value flat,
                               Value position) {
  Value raw = memref::LoadOp::create(b, loc, flat, ValueRange{position});
  if (raw.getType().isIndex())
    return raw;
  return b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), raw);
}

ResolvedIndex mlir::nd::resolveIndex(OpBuilder &b, Location loc, OobMode oob,
                                     Value raw, Value size) {
  Value zero = constantIndex(b, loc, 0);
  Value negative =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, raw, zero);
  Value wrapped = b.createOrFold<arith::AddIOp>(loc, raw, size);
  Value normalized =
      b.createOrFold<arith::SelectOp>(loc, negative, wrapped, raw);
  if (oob != OobMode::Clamp) {
    Value bad = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                              normalized, size);
    return {normalized, bad};
  }
  // Below -size the normalized value is still negative: 0.
  Value one = constantIndex(b, loc, 1);
  Value last = b.createOrFold<arith::SubIOp>(loc, size, one);
  Value below = b.createOrFold<arith::MinSIOp>(loc, normalized, last);
  Value clamped = b.createOrFold<arith::MaxSIOp>(loc, below, zero);
  Value empty =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, size, zero);
  return {clamped, empty};
}

bool mlir::nd::isSupportedReduction(ReductionKind reduction, Type elementType) {
  if (reduction == ReductionKind::None)
    return true;
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
      result = arith::XOrIOp::create(b, loc, lhs, rhs);
    else if (reduction == ReductionKind::Add || reduction == ReductionKind::Max)
      result = arith::OrIOp::create(b, loc, lhs, rhs);
    else
      result = arith::AndIOp::create(b, loc, lhs, rhs);
  } else {
    switch (reduction) {
    case ReductionKind::Add:
    case ReductionKind::Mean:
      result = arith::AddIOp::create(b, loc, lhs, rhs);
      break;
    case ReductionKind::Mul:
      result = arith::MulIOp::create(b, loc, lhs, rhs);
      break;
    case ReductionKind::Max:
      result = isUnsigned ? Value(arith::MaxUIOp::create(b, loc, lhs, rhs))
                          : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
      break;
    case ReductionKind::Min:
      result = isUnsigned ? Value(arith::MinUIOp::create(b, loc, lhs, rhs))
                          : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
      break;
    case ReductionKind::Sub:
      result = arith::SubIOp::create(b, loc, lhs, rhs);
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
  Type storage = elementType;
  if (auto integer = dyn_cast<IntegerType>(elementType);
      integer && !integer.isSignless())
    storage = b.getIntegerType(integer.getWidth());
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(storage)));
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
