//===- IndexArithmetic.cpp - constants, dims and index arithmetic ---------===//
//
// See nd/Dialect/Nd/Utils/IndexArithmetic.h.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::nd;

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

// The insertion block cannot tell which function is being built: inside a
// region builder it is not attached yet.
Value mlir::nd::sharedConstant(OpBuilder &b, Location loc, TypedAttr attr) {
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

Value mlir::nd::constIndex(OpBuilder &b, Location loc, int64_t value) {
  return sharedConstant(b, loc, b.getIndexAttr(value));
}

Value mlir::nd::constBool(OpBuilder &b, Location loc, bool value) {
  return sharedConstant(b, loc, b.getBoolAttr(value));
}

//===----------------------------------------------------------------------===//
// Dims and index arithmetic
//===----------------------------------------------------------------------===//

Value mlir::nd::dimValue(OpBuilder &b, Location loc, Value memref, int64_t d) {
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(d))
    return constIndex(b, loc, type.getDimSize(d));
  return memref::DimOp::create(b, loc, memref, d);
}

SmallVector<Value> mlir::nd::dimValues(OpBuilder &b, Location loc, Value memref,
                                       int64_t from, int64_t to) {
  SmallVector<Value> dims;
  for (int64_t d = from; d < to; ++d)
    dims.push_back(dimValue(b, loc, memref, d));
  return dims;
}

Value mlir::nd::product(OpBuilder &b, Location loc, ArrayRef<Value> values) {
  Value result = constIndex(b, loc, 1);
  for (Value value : values)
    result = b.createOrFold<arith::MulIOp>(loc, result, value);
  return result;
}

SmallVector<Value> mlir::nd::rowMajorStrides(OpBuilder &b, Location loc,
                                             ArrayRef<Value> dims,
                                             Value *total) {
  SmallVector<Value> strides(dims.size());
  Value stride = constIndex(b, loc, 1);
  for (int64_t j = static_cast<int64_t>(dims.size()) - 1; j >= 0; --j) {
    strides[j] = stride;
    stride = b.createOrFold<arith::MulIOp>(loc, stride, dims[j]);
  }
  if (total)
    *total = stride;
  return strides;
}

Value mlir::nd::ceilDiv(OpBuilder &b, Location loc, Value a, Value d) {
  return b.createOrFold<arith::CeilDivUIOp>(loc, a, d);
}

Value mlir::nd::minIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::MinUIOp>(loc, x, y);
}

Value mlir::nd::maxIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::MaxUIOp>(loc, x, y);
}

//===----------------------------------------------------------------------===//
// Booleans
//===----------------------------------------------------------------------===//

Value mlir::nd::orBool(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::OrIOp>(loc, x, y);
}

void mlir::nd::buildIf(OpBuilder &b, Location loc, Value cond,
                       function_ref<void(OpBuilder &, Location)> then) {
  if (std::optional<int64_t> known = getConstantIntValue(cond)) {
    if (*known)
      then(b, loc);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  then(b, loc);
}

Value mlir::nd::notBool(OpBuilder &b, Location loc, Value x) {
  Value yes = constBool(b, loc, true);
  return b.createOrFold<arith::XOrIOp>(loc, x, yes);
}

//===----------------------------------------------------------------------===//
// The index rules on IR values
//===----------------------------------------------------------------------===//

Value IndexBuilder::add(Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}

Value IndexBuilder::sub(Value x, Value y) {
  return b.createOrFold<arith::SubIOp>(loc, x, y);
}

Value IndexBuilder::mul(Value x, Value y) {
  return b.createOrFold<arith::MulIOp>(loc, x, y);
}

Value IndexBuilder::remU(Value x, Value y) {
  return b.createOrFold<arith::RemUIOp>(loc, x, y);
}

Value IndexBuilder::select(Value c, Value x, Value y) {
  return b.createOrFold<arith::SelectOp>(loc, c, x, y);
}

Value IndexBuilder::minS(Value x, Value y) {
  return b.createOrFold<arith::MinSIOp>(loc, x, y);
}

Value IndexBuilder::maxS(Value x, Value y) {
  return b.createOrFold<arith::MaxSIOp>(loc, x, y);
}

Value IndexBuilder::lessThan(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::slt, x, y);
}

Value IndexBuilder::greaterThan(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::sgt, x, y);
}

Value IndexBuilder::atLeastU(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge, x, y);
}

Value IndexBuilder::equal(Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, x, y);
}
