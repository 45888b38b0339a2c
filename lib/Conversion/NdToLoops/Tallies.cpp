//===- Tallies.cpp - per-element tallies of scatter_elements ----*- C++ -*-===//
//
// See Tallies.h.
//
//===----------------------------------------------------------------------===//

#include "Tallies.h"

#include "Buffers.h"
#include "nd/Dialect/Nd/Utils/ElementSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

bool lowering::needsTally(ScatterElementsOp op) {
  ReductionKind reduction = op.getReduction();
  return reduction == ReductionKind::Mean ||
         (!op.getUseInitVal() && reduction != ReductionKind::None);
}

ElementTally lowering::allocateTally(OpBuilder &b, Location loc,
                                     ScatterElementsOp op, Value numElements) {
  ElementTally tally;
  tally.reduction = op.getReduction();
  tally.useInit = op.getUseInitVal();
  // Without a mean, a count only tells a written element: one byte. A mean
  // counts in i32 where the updates are statically fewer than 2^31 (the
  // size of the scratch buffers is most of the cost of a tally), in index
  // otherwise.
  Type countType = b.getI8Type();
  if (tally.reduction == ReductionKind::Mean) {
    auto indicesType = op.getIndices().getType();
    bool few = indicesType.hasStaticShape() &&
               indicesType.getNumElements() < (int64_t(1) << 31);
    countType = few ? Type(b.getI32Type()) : Type(b.getIndexType());
  }
  tally.counts = allocScratch(b, loc, countType, numElements);
  Type elementType = op.getData().getType().getElementType();
  if (tally.reduction == ReductionKind::Mean && isa<IntegerType>(elementType))
    tally.sums =
        allocScratch(b, loc, widerInteger(elementType, 64), numElements);
  return tally;
}

/// The count `value` in the element type of `tally.counts`.
static Value countValue(OpBuilder &b, Location loc, const ElementTally &tally,
                        int64_t value) {
  Type type = cast<MemRefType>(tally.counts.getType()).getElementType();
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

void lowering::resetTally(OpBuilder &b, Location loc, const ElementTally &tally,
                          Value flat) {
  Value zero = countValue(b, loc, tally, 0);
  memref::StoreOp::create(b, loc, zero, tally.counts, ValueRange{flat});
}

void lowering::applyTallied(OpBuilder &b, Location loc,
                            const ElementTally &tally, Value dst, ValueRange at,
                            Value flat, Value update) {
  Value zero = countValue(b, loc, tally, 0);
  Value one = countValue(b, loc, tally, 1);
  Value count = memref::LoadOp::create(b, loc, tally.counts, flat);
  Value first =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, count, zero);
  Value current = memref::LoadOp::create(b, loc, dst, at);
  if (tally.reduction != ReductionKind::Mean) {
    // use_init_val(false): the first update is taken as is.
    Value combined = combine(b, loc, tally.reduction, current, update);
    Value value = arith::SelectOp::create(b, loc, first, update, combined);
    memref::StoreOp::create(b, loc, value, dst, at);
    memref::StoreOp::create(b, loc, one, tally.counts, flat);
    return;
  }
  // The count before this update: data's value counts once under
  // use_init_val.
  Value before = count;
  if (tally.useInit)
    before = arith::SelectOp::create(b, loc, first, one, count);
  Value after = b.createOrFold<arith::AddIOp>(loc, before, one);
  memref::StoreOp::create(b, loc, after, tally.counts, flat);
  if (tally.sums) {
    auto wide = cast<IntegerType>(
        cast<MemRefType>(tally.sums.getType()).getElementType());
    Value running = memref::LoadOp::create(b, loc, tally.sums, flat);
    Value start = arith::ConstantOp::create(b, loc, b.getZeroAttr(wide));
    if (tally.useInit)
      start = extendInteger(b, loc, current, wide);
    Value base = arith::SelectOp::create(b, loc, first, start, running);
    Value term = extendInteger(b, loc, update, wide);
    Value sum = arith::AddIOp::create(b, loc, base, term);
    memref::StoreOp::create(b, loc, sum, tally.sums, flat);
    return;
  }
  // Floats sum in their own type, in place, data's value first.
  Value sum = arith::AddFOp::create(b, loc, current, update);
  Value value = sum;
  if (!tally.useInit)
    value = arith::SelectOp::create(b, loc, first, update, sum);
  memref::StoreOp::create(b, loc, value, dst, at);
}

void lowering::finishTally(OpBuilder &b, Location loc,
                           const ElementTally &tally, Value dst, ValueRange at,
                           Value flat) {
  if (tally.reduction != ReductionKind::Mean)
    return;
  Value zero = countValue(b, loc, tally, 0);
  Value count = memref::LoadOp::create(b, loc, tally.counts, flat);
  Value taken =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, count, zero);
  auto ifOp = scf::IfOp::create(b, loc, taken, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Type elementType = cast<MemRefType>(dst.getType()).getElementType();
  Value count64 =
      count.getType().isIndex()
          ? Value(arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count))
          : Value(arith::ExtUIOp::create(b, loc, b.getI64Type(), count));
  // The mean fits the element type.
  Value mean;
  if (tally.sums) {
    Value sum = memref::LoadOp::create(b, loc, tally.sums, flat);
    mean = integerMean(b, loc, elementType, sum, count64);
  } else {
    Value sum = memref::LoadOp::create(b, loc, dst, at);
    mean = floatMean(b, loc, sum, count64);
  }
  memref::StoreOp::create(b, loc, mean, dst, at);
  memref::StoreOp::create(b, loc, zero, tally.counts, flat);
}
