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
// Vectors
//===----------------------------------------------------------------------===//

bool mlir::nd::isVectorizable(Type elementType) {
  if (!isa<IntegerType, FloatType>(elementType))
    return false;
  unsigned width = elementType.getIntOrFloatBitWidth();
  return width == 8 || width == 16 || width == 32 || width == 64;
}

int64_t mlir::nd::lanesPerVector(Type elementType, int64_t vectorBytes) {
  return vectorBytes * 8 / elementType.getIntOrFloatBitWidth();
}

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

Value mlir::nd::normalizeIndex(OpBuilder &b, Location loc, Value index,
                               Value size) {
  IndexBuilder a(b, loc);
  Value zero = a.constant(0);
  return normalizeIndexWith(a, index, size, zero);
}

Value mlir::nd::isOutOfRange(OpBuilder &b, Location loc, Value normalized,
                             Value size) {
  return IndexBuilder(b, loc).atLeastU(normalized, size);
}

ResolvedIndex mlir::nd::resolveIndex(OpBuilder &b, Location loc, OobMode oob,
                                     Value raw, Value size) {
  IndexBuilder a(b, loc);
  return resolveIndexWith(a, oob, raw, size);
}

//===----------------------------------------------------------------------===//
// Updates
//===----------------------------------------------------------------------===//

/// The operation of `reduction` on `i1`: add and max are or, mul and min
/// and, sub xor.
static CombineOp getBoolCombineOp(ReductionKind reduction) {
  switch (reduction) {
  case ReductionKind::Add:
  case ReductionKind::Max:
    return CombineOp::OrI;
  case ReductionKind::Mul:
  case ReductionKind::Min:
    return CombineOp::AndI;
  case ReductionKind::Sub:
    return CombineOp::XOrI;
  default:
    return CombineOp::Unsupported;
  }
}

static CombineOp getIntCombineOp(ReductionKind reduction, bool isUnsigned) {
  switch (reduction) {
  case ReductionKind::Add:
  case ReductionKind::Mean:
    return CombineOp::AddI;
  case ReductionKind::Sub:
    return CombineOp::SubI;
  case ReductionKind::Mul:
    return CombineOp::MulI;
  case ReductionKind::Max:
    return isUnsigned ? CombineOp::MaxUI : CombineOp::MaxSI;
  case ReductionKind::Min:
    return isUnsigned ? CombineOp::MinUI : CombineOp::MinSI;
  case ReductionKind::None:
    break;
  }
  return CombineOp::Replace;
}

static CombineOp getFloatCombineOp(ReductionKind reduction) {
  switch (reduction) {
  case ReductionKind::Add:
  case ReductionKind::Mean:
    return CombineOp::AddF;
  case ReductionKind::Sub:
    return CombineOp::SubF;
  case ReductionKind::Mul:
    return CombineOp::MulF;
  case ReductionKind::Max:
    return CombineOp::MaximumF;
  case ReductionKind::Min:
    return CombineOp::MinimumF;
  case ReductionKind::None:
    break;
  }
  return CombineOp::Replace;
}

static CombineOp getComplexCombineOp(ReductionKind reduction) {
  switch (reduction) {
  case ReductionKind::Add:
    return CombineOp::AddC;
  case ReductionKind::Sub:
    return CombineOp::SubC;
  case ReductionKind::Mul:
    return CombineOp::MulC;
  default:
    return CombineOp::Unsupported;
  }
}

CombineOp mlir::nd::getCombineOp(ReductionKind reduction, Type elementType) {
  if (reduction == ReductionKind::None)
    return CombineOp::Replace;
  if (auto intType = dyn_cast<IntegerType>(elementType)) {
    if (intType.getWidth() == 1)
      return getBoolCombineOp(reduction);
    return getIntCombineOp(reduction, intType.isUnsigned());
  }
  if (isa<FloatType>(elementType))
    return getFloatCombineOp(reduction);
  if (isa<ComplexType>(elementType))
    return getComplexCombineOp(reduction);
  return CombineOp::Unsupported;
}

bool mlir::nd::isSupportedReduction(ReductionKind reduction, Type elementType) {
  return getCombineOp(reduction, elementType) != CombineOp::Unsupported;
}

/// `op` on floats or complex numbers.
static Value combineFloats(OpBuilder &b, Location loc, CombineOp op,
                           Value current, Value update) {
  switch (op) {
  case CombineOp::AddF:
    return arith::AddFOp::create(b, loc, current, update);
  case CombineOp::SubF:
    return arith::SubFOp::create(b, loc, current, update);
  case CombineOp::MulF:
    return arith::MulFOp::create(b, loc, current, update);
  case CombineOp::MaximumF:
    return arith::MaximumFOp::create(b, loc, current, update);
  case CombineOp::MinimumF:
    return arith::MinimumFOp::create(b, loc, current, update);
  case CombineOp::AddC:
    return complex::AddOp::create(b, loc, current, update);
  case CombineOp::SubC:
    return complex::SubOp::create(b, loc, current, update);
  case CombineOp::MulC:
    return complex::MulOp::create(b, loc, current, update);
  default:
    llvm_unreachable("not an operation on floats or complex numbers");
  }
}

/// `op` on signless integers.
static Value combineSignless(OpBuilder &b, Location loc, CombineOp op,
                             Value lhs, Value rhs) {
  switch (op) {
  case CombineOp::OrI:
    return b.createOrFold<arith::OrIOp>(loc, lhs, rhs);
  case CombineOp::AndI:
    return b.createOrFold<arith::AndIOp>(loc, lhs, rhs);
  case CombineOp::XOrI:
    return b.createOrFold<arith::XOrIOp>(loc, lhs, rhs);
  case CombineOp::AddI:
    return b.createOrFold<arith::AddIOp>(loc, lhs, rhs);
  case CombineOp::SubI:
    return b.createOrFold<arith::SubIOp>(loc, lhs, rhs);
  case CombineOp::MulI:
    return b.createOrFold<arith::MulIOp>(loc, lhs, rhs);
  case CombineOp::MaxUI:
    return b.createOrFold<arith::MaxUIOp>(loc, lhs, rhs);
  case CombineOp::MinUI:
    return b.createOrFold<arith::MinUIOp>(loc, lhs, rhs);
  case CombineOp::MaxSI:
    return arith::MaxSIOp::create(b, loc, lhs, rhs);
  case CombineOp::MinSI:
    return arith::MinSIOp::create(b, loc, lhs, rhs);
  default:
    llvm_unreachable("not an operation on integers");
  }
}

Value mlir::nd::combine(OpBuilder &b, Location loc, ReductionKind reduction,
                        Value current, Value update) {
  if (reduction == ReductionKind::None)
    return update;
  Type type = current.getType();
  Type elementType = getElementTypeOrSelf(type);
  CombineOp op = getCombineOp(reduction, elementType);
  if (!isa<IntegerType>(elementType))
    return combineFloats(b, loc, op, current, update);

  // arith takes signless integers only: reinterpret unsigned ones around the
  // combining op (the same iN in LLVM).
  auto intType = cast<IntegerType>(elementType);
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
  Value result = combineSignless(b, loc, op, lhs, rhs);
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

//===----------------------------------------------------------------------===//
// Updates of constants
//===----------------------------------------------------------------------===//

bool ConstantIntElements::combine(ReductionKind kind, APInt &current,
                                  const APInt &update) const {
  switch (getCombineOp(kind, type)) {
  case CombineOp::Replace:
    current = update;
    return true;
  case CombineOp::OrI:
    current |= update;
    return true;
  case CombineOp::AndI:
    current &= update;
    return true;
  case CombineOp::XOrI:
    current ^= update;
    return true;
  case CombineOp::AddI:
    current += update;
    return true;
  case CombineOp::SubI:
    current -= update;
    return true;
  case CombineOp::MulI:
    current *= update;
    return true;
  case CombineOp::MaxSI:
    current = llvm::APIntOps::smax(current, update);
    return true;
  case CombineOp::MaxUI:
    current = llvm::APIntOps::umax(current, update);
    return true;
  case CombineOp::MinSI:
    current = llvm::APIntOps::smin(current, update);
    return true;
  case CombineOp::MinUI:
    current = llvm::APIntOps::umin(current, update);
    return true;
  default:
    return false;
  }
}

bool ConstantIntElements::mean(ArrayRef<APInt> values, APInt &result) const {
  unsigned width = type.getWidth();
  bool isUnsigned = type.isUnsigned();
  unsigned wide = width + 64;
  APInt sum(wide, 0);
  for (const APInt &value : values)
    sum += isUnsigned ? value.zext(wide) : value.sext(wide);
  APInt count(wide, values.size());
  APInt quotient =
      isUnsigned
          ? sum.udiv(count)
          : llvm::APIntOps::RoundingSDiv(sum, count, APInt::Rounding::DOWN);
  result = quotient.trunc(width);
  return true;
}

bool ConstantFloatElements::combine(ReductionKind kind, APFloat &current,
                                    const APFloat &update) const {
  switch (getCombineOp(kind, type)) {
  case CombineOp::Replace:
    current = update;
    return true;
  case CombineOp::AddF:
    current = current + update;
    return true;
  case CombineOp::SubF:
    current = current - update;
    return true;
  case CombineOp::MulF:
    current = current * update;
    return true;
  case CombineOp::MaximumF:
    current = llvm::maximum(current, update);
    return true;
  case CombineOp::MinimumF:
    current = llvm::minimum(current, update);
    return true;
  default:
    return false;
  }
}

bool ConstantFloatElements::mean(ArrayRef<APFloat> values,
                                 APFloat &result) const {
  APFloat sum = values.front();
  for (const APFloat &value : values.drop_front())
    sum = sum + value;
  APFloat count(type.getFloatSemantics());
  count.convertFromAPInt(APInt(64, values.size()), /*IsSigned=*/false,
                         APFloat::rmNearestTiesToEven);
  sum.divide(count, APFloat::rmNearestTiesToEven);
  result = sum;
  return true;
}

ConstantComplexElements::ValueType ConstantComplexElements::zero() const {
  const llvm::fltSemantics &semantics =
      cast<FloatType>(type.getElementType()).getFloatSemantics();
  return {APFloat::getZero(semantics), APFloat::getZero(semantics)};
}

bool ConstantComplexElements::combine(ReductionKind kind, ValueType &current,
                                      const ValueType &update) const {
  APFloat a = current.real(), b = current.imag();
  const APFloat &c = update.real(), &d = update.imag();
  switch (getCombineOp(kind, type)) {
  case CombineOp::Replace:
    current = update;
    return true;
  case CombineOp::AddC:
    current = ValueType(a + c, b + d);
    return true;
  case CombineOp::SubC:
    current = ValueType(a - c, b - d);
    return true;
  case CombineOp::MulC:
    if (!a.isFinite() || !b.isFinite() || !c.isFinite() || !d.isFinite())
      return false;
    current = ValueType(a * c - b * d, a * d + b * c);
    return true;
  default:
    return false;
  }
}
