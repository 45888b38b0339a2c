//===- Reductions.cpp - how an update combines with a value -----*- C++ -*-===//
//
// See Reductions.h.
//
//===----------------------------------------------------------------------===//

#include "Reductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

bool lowering::isSupportedReduction(ReductionKind reduction, Type elementType) {
  if (reduction == ReductionKind::None)
    return true;
  // `mean` divides: integers (not i1) and floats; the scatter keeps a count
  // per element, `combine` never sees it.
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

Value lowering::combine(OpBuilder &b, Location loc, ReductionKind reduction,
                        Value current, Value update) {
  if (reduction == ReductionKind::None)
    return update;
  Type type = current.getType();
  Type elementType = getElementTypeOrSelf(type);

  if (isa<FloatType>(elementType)) {
    switch (reduction) {
    case ReductionKind::Add:
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
    case ReductionKind::Mean:
      break;
    }
    llvm_unreachable("reduction handled above or rejected");
  }

  if (isa<ComplexType>(elementType)) {
    if (reduction == ReductionKind::Add)
      return complex::AddOp::create(b, loc, current, update);
    if (reduction == ReductionKind::Sub)
      return complex::SubOp::create(b, loc, current, update);
    return complex::MulOp::create(b, loc, current, update);
  }

  // arith only takes signless integers: reinterpret unsigned ones around
  // the combining op (both are the same iN in LLVM).
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
    bool isOr =
        reduction == ReductionKind::Add || reduction == ReductionKind::Max;
    if (reduction == ReductionKind::Sub)
      result = b.createOrFold<arith::XOrIOp>(loc, lhs, rhs);
    else if (isOr)
      result = b.createOrFold<arith::OrIOp>(loc, lhs, rhs);
    else
      result = b.createOrFold<arith::AndIOp>(loc, lhs, rhs);
  } else {
    switch (reduction) {
    case ReductionKind::Add:
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
    case ReductionKind::Mean:
      llvm_unreachable("reduction handled above or rejected");
    }
  }
  if (result.getType() == type)
    return result;
  return UnrealizedConversionCastOp::create(b, loc, type, result).getResult(0);
}
