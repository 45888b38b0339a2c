//===- RowEngine.cpp - rows moved by groups of GPU threads ------*- C++ -*-===//
//
// See RowEngine.h.
//
//===----------------------------------------------------------------------===//

#include "RowEngine.h"

#include "Semantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

/// Units each thread takes of a row before a row is cut among blocks of y.
static constexpr int64_t kUnitsPerThread = 4;

RowLayout gpu_lowering::rowLayout(OpBuilder &b, Location loc, Value rows,
                                  Value rowLen, int64_t vectorLength) {
  RowLayout layout;
  layout.vectorLength = vectorLength;
  layout.rows = rows;
  Value vl = constIndex(b, loc, vectorLength);
  layout.units = divIndex(b, loc, rowLen, vl);
  // Threads per row: a power of two up to the block size that divides the
  // units (so that every thread of the group takes as many), at least the
  // largest power of two up to 32 that the units reach (so that a row of
  // odd length still gets a warp).
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value negated = subIndex(b, loc, zero, layout.units);
  Value lowest = b.createOrFold<arith::AndIOp>(loc, layout.units, negated);
  Value tpr = minIndex(b, loc, lowest, constIndex(b, loc, kBlockSize));
  for (int64_t p = 2; p <= 32; p *= 2) {
    Value pValue = constIndex(b, loc, p);
    Value reaches =
        cmpIndex(b, loc, arith::CmpIPredicate::uge, layout.units, pValue);
    Value floor = select(b, loc, reaches, pValue, one);
    tpr = maxIndex(b, loc, tpr, floor);
  }
  tpr = maxIndex(b, loc, tpr, one);
  Value logTpr = zero;
  int64_t log = 1;
  for (int64_t p = 2; p <= kBlockSize; p *= 2, ++log) {
    Value is =
        cmpIndex(b, loc, arith::CmpIPredicate::eq, tpr, constIndex(b, loc, p));
    logTpr = select(b, loc, is, constIndex(b, loc, log), logTpr);
  }
  layout.threadsPerRow = tpr;
  layout.logThreadsPerRow = logTpr;
  Value block = constIndex(b, loc, kBlockSize);
  layout.rowsPerBlock = divIndex(b, loc, block, tpr);
  layout.gridX = gridFor(b, loc, rows, layout.rowsPerBlock, kMaxBlocks);
  Value perChunk = mulIndex(b, loc, tpr, constIndex(b, loc, kUnitsPerThread));
  layout.gridY = gridFor(b, loc, layout.units, perChunk, kMaxBlocksY);
  return layout;
}

Value gpu_lowering::canMoveVectors(OpBuilder &b, Location loc, Type elementType,
                                   Value rowLen, ArrayRef<Value> buffers) {
  if (!isVectorizable(elementType))
    return constBool(b, loc, false);
  Value vl = constIndex(b, loc, vectorLength(elementType));
  Value zero = constIndex(b, loc, 0);
  Value rest = remIndex(b, loc, rowLen, vl);
  Value ok = cmpIndex(b, loc, arith::CmpIPredicate::eq, rest, zero);
  for (Value buffer : buffers) {
    Value address = addressOf(b, loc, buffer, zero);
    ok = andBool(b, loc, ok, isAligned(b, loc, address, 16));
  }
  return ok;
}

void gpu_lowering::withVectorChoice(
    OpBuilder &b, Location loc, Type elementType, Value canVector,
    function_ref<void(OpBuilder &, Location, int64_t)> body) {
  if (!isVectorizable(elementType)) {
    body(b, loc, 1);
    return;
  }
  int64_t vl = vectorLength(elementType);
  buildIfElse(
      b, loc, canVector,
      [&](OpBuilder &nb, Location nloc) { body(nb, nloc, vl); },
      [&](OpBuilder &nb, Location nloc) { body(nb, nloc, 1); });
}

void gpu_lowering::forEachRowUnit(
    OpBuilder &b, Location loc, const KernelIds &ids, const RowLayout &layout,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value)> perRow,
    function_ref<void(OpBuilder &, Location, Value, ValueRange, Value)>
        perUnit) {
  Value one = constIndex(b, loc, 1);
  Value mask = subIndex(b, loc, layout.threadsPerRow, one);
  Value lane = b.createOrFold<arith::AndIOp>(loc, ids.threadX, mask);
  Value group =
      b.createOrFold<arith::ShRUIOp>(loc, ids.threadX, layout.logThreadsPerRow);
  Value rowStart = addIndex(
      b, loc, mulIndex(b, loc, ids.blockX, layout.rowsPerBlock), group);
  Value rowStep = mulIndex(b, loc, ids.gridX, layout.rowsPerBlock);
  Value unitStart = addIndex(
      b, loc, mulIndex(b, loc, ids.blockY, layout.threadsPerRow), lane);
  Value unitStep = mulIndex(b, loc, layout.threadsPerRow, ids.gridY);
  buildFor(b, loc, rowStart, layout.rows, rowStep,
           [&](OpBuilder &rb, Location rloc, Value r) {
             SmallVector<Value> values = perRow(rb, rloc, r);
             buildFor(rb, rloc, unitStart, layout.units, unitStep,
                      [&](OpBuilder &ub, Location uloc, Value u) {
                        perUnit(ub, uloc, r, values, u);
                      });
           });
}

void gpu_lowering::launchRows(OpBuilder &b, Location loc,
                              const RowLayout &layout, KernelBody body) {
  launch(b, loc, layout.gridX, layout.gridY, kBlockSize, body);
}

Value gpu_lowering::loadUnit(OpBuilder &b, Location loc, Value buffer, Value at,
                             int64_t vectorLength) {
  if (vectorLength == 1)
    return memref::LoadOp::create(b, loc, buffer, ValueRange{at});
  Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
  auto type = VectorType::get({vectorLength}, elementType);
  return vector::LoadOp::create(b, loc, type, buffer, ValueRange{at},
                                /*nontemporal=*/false, llvm::Align(16));
}

void gpu_lowering::storeUnit(OpBuilder &b, Location loc, Value value,
                             Value buffer, Value at, int64_t vectorLength) {
  if (vectorLength == 1) {
    memref::StoreOp::create(b, loc, value, buffer, ValueRange{at});
    return;
  }
  vector::StoreOp::create(b, loc, value, buffer, ValueRange{at},
                          /*nontemporal=*/false, llvm::Align(16));
}

Value gpu_lowering::zeroUnit(OpBuilder &b, Location loc, Type elementType,
                             int64_t vectorLength) {
  if (vectorLength == 1)
    return zeroValue(b, loc, elementType);
  Type storage = elementType;
  if (auto integer = dyn_cast<IntegerType>(elementType);
      integer && !integer.isSignless())
    storage = b.getIntegerType(integer.getWidth());
  auto storageType = VectorType::get({vectorLength}, storage);
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(storageType)));
  if (storage == elementType)
    return zero;
  auto type = VectorType::get({vectorLength}, elementType);
  return UnrealizedConversionCastOp::create(b, loc, type, zero).getResult(0);
}
