//===- Scalars.cpp - scalars and index values -------------------*- C++ -*-===//
//
// See Scalars.h.
//
//===----------------------------------------------------------------------===//

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// The entry block of the function a SharedConstantScope is open for, where
/// constants go (null outside of every scope).
static thread_local Block *constantBlock = nullptr;

SharedConstantScope::SharedConstantScope(Block *entry) : outer(constantBlock) {
  constantBlock = entry;
}

SharedConstantScope::~SharedConstantScope() { constantBlock = outer; }

/// A constant of `attr`, shared within the function being built (see
/// SharedConstantScope). The insertion block cannot tell which function that
/// is: inside a region builder it is not attached yet.
static Value sharedConstant(OpBuilder &b, Location loc, TypedAttr attr) {
  if (!constantBlock)
    return arith::ConstantOp::create(b, loc, attr);
  for (Operation &op : *constantBlock) {
    auto constant = dyn_cast<arith::ConstantOp>(op);
    if (!constant)
      break;
    if (constant.getValue() == attr)
      return constant;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(constantBlock);
  return arith::ConstantOp::create(b, loc, attr);
}

Value lowering::constIndex(OpBuilder &b, Location loc, int64_t value) {
  return sharedConstant(b, loc, b.getIndexAttr(value));
}

Value lowering::constBool(OpBuilder &b, Location loc, bool value) {
  return sharedConstant(b, loc, b.getBoolAttr(value));
}

Value lowering::zeroValue(OpBuilder &b, Location loc, Type elementType) {
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

//===----------------------------------------------------------------------===//
// Dims and index arithmetic
//===----------------------------------------------------------------------===//

Value lowering::dimValue(OpBuilder &b, Location loc, Value shaped, int64_t d) {
  auto type = cast<MemRefType>(shaped.getType());
  if (!type.isDynamicDim(d))
    return constIndex(b, loc, type.getDimSize(d));
  return memref::DimOp::create(b, loc, shaped, d);
}

SmallVector<Value> lowering::dimValues(OpBuilder &b, Location loc, Value shaped,
                                       int64_t from, int64_t to) {
  SmallVector<Value> dims;
  for (int64_t d = from; d < to; ++d)
    dims.push_back(dimValue(b, loc, shaped, d));
  return dims;
}

Value lowering::product(OpBuilder &b, Location loc, ArrayRef<Value> values) {
  // Folded as built, so that static shapes give constants.
  Value result = constIndex(b, loc, 1);
  for (Value value : values)
    result = b.createOrFold<arith::MulIOp>(loc, result, value);
  return result;
}

SmallVector<Value> lowering::rowMajorStrides(OpBuilder &b, Location loc,
                                             ArrayRef<Value> dims) {
  SmallVector<Value> strides(dims.size());
  Value stride = constIndex(b, loc, 1);
  for (int64_t j = static_cast<int64_t>(dims.size()) - 1; j >= 0; --j) {
    strides[j] = stride;
    stride = b.createOrFold<arith::MulIOp>(loc, stride, dims[j]);
  }
  return strides;
}

Value lowering::ceilDiv(OpBuilder &b, Location loc, Value a, Value d) {
  return b.createOrFold<arith::CeilDivUIOp>(loc, a, d);
}

Value lowering::minIndex(OpBuilder &b, Location loc, Value a, Value c) {
  return b.createOrFold<arith::MinUIOp>(loc, a, c);
}

Value lowering::maxIndex(OpBuilder &b, Location loc, Value a, Value c) {
  return b.createOrFold<arith::MaxUIOp>(loc, a, c);
}

//===----------------------------------------------------------------------===//
// Index values under an oob mode
//===----------------------------------------------------------------------===//

Value lowering::loadIndex(OpBuilder &b, Location loc, Value flat,
                          Value position) {
  Value raw = memref::LoadOp::create(b, loc, flat, ValueRange{position});
  if (raw.getType().isIndex())
    return raw;
  return b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), raw);
}

Value lowering::normalizeIndex(OpBuilder &b, Location loc, Value index,
                               Value size) {
  Value zero = constIndex(b, loc, 0);
  Value isNegative = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::slt, index, zero);
  Value wrapped = b.createOrFold<arith::AddIOp>(loc, index, size);
  return b.createOrFold<arith::SelectOp>(loc, isNegative, wrapped, index);
}

Value lowering::isOutOfRange(OpBuilder &b, Location loc, Value normalized,
                             Value size) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                       normalized, size);
}

Value lowering::clampIfBad(OpBuilder &b, Location loc, Value bad,
                           Value normalized) {
  Value zero = constIndex(b, loc, 0);
  return b.createOrFold<arith::SelectOp>(loc, bad, zero, normalized);
}

ResolvedIndex lowering::resolveIndex(OpBuilder &b, Location loc, OobMode oob,
                                     Value raw, Value size) {
  Value normalized = normalizeIndex(b, loc, raw, size);
  if (oob != OobMode::Clamp)
    return {normalized, isOutOfRange(b, loc, normalized, size)};
  // Below -size, the normalized value is still negative: 0.
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value last = b.createOrFold<arith::SubIOp>(loc, size, one);
  Value below = b.createOrFold<arith::MinSIOp>(loc, normalized, last);
  Value clamped = b.createOrFold<arith::MaxSIOp>(loc, below, zero);
  // A test loops can hoist.
  Value empty =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, size, zero);
  return {clamped, empty};
}

std::pair<Value, Value> lowering::resolveOrSkip(OpBuilder &b, Location loc,
                                                OobMode oob, Value raw,
                                                Value size) {
  if (oob == OobMode::Error)
    return {normalizeIndex(b, loc, raw, size), Value()};
  ResolvedIndex index = resolveIndex(b, loc, oob, raw, size);
  return {index.position, index.bad};
}

//===----------------------------------------------------------------------===//
// Booleans and conditionals
//===----------------------------------------------------------------------===//

Value lowering::orBool(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::OrIOp>(loc, x, y);
}

Value lowering::notBool(OpBuilder &b, Location loc, Value x) {
  Value yes = constBool(b, loc, true);
  return b.createOrFold<arith::XOrIOp>(loc, x, yes);
}

Value lowering::buildIf(OpBuilder &b, Location loc, Value cond, Type type,
                        function_ref<Value(OpBuilder &, Location)> then,
                        function_ref<Value(OpBuilder &, Location)> otherwise) {
  if (std::optional<int64_t> known = getConstantIntValue(cond);
      known && *known != 0)
    return then(b, loc);
  // The result type is that of the yielded values.
  auto ifOp = scf::IfOp::create(
      b, loc, cond,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, then(nb, nloc));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, otherwise(nb, nloc));
      });
  assert(ifOp.getResult(0).getType() == type && "branches yield other types");
  return ifOp.getResult(0);
}

void lowering::buildIf(OpBuilder &b, Location loc, Value cond,
                       function_ref<void(OpBuilder &, Location)> then) {
  if (std::optional<int64_t> known = getConstantIntValue(cond);
      known && *known != 0) {
    then(b, loc);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  then(b, loc);
}

void lowering::reportUnless(OpBuilder &b, Location loc, Value ok,
                            function_ref<void(OpBuilder &, Location)> report) {
  Value failed = notBool(b, loc, ok);
  auto ifOp = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  report(b, loc);
}

void lowering::unlessSkipped(OpBuilder &b, Location loc, Value skip,
                             function_ref<void(OpBuilder &, Location)> body) {
  if (!skip) {
    body(b, loc);
    return;
  }
  Value keep = notBool(b, loc, skip);
  auto ifOp = scf::IfOp::create(b, loc, keep, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body(b, loc);
}
