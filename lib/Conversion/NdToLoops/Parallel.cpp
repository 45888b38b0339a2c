//===- Parallel.cpp - parallel structure of the nd lowering -----*- C++ -*-===//
//
// See Parallel.h.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

std::pair<Value, Value> lowering::partRange(OpBuilder &b, Location loc, Value n,
                                            Value parts, Value p) {
  // lo(p) = p * (n / parts) + min(p, n % parts): no overflow for any n.
  Value base = b.createOrFold<arith::DivUIOp>(loc, n, parts);
  Value extra = b.createOrFold<arith::RemUIOp>(loc, n, parts);
  auto start = [&](Value part) -> Value {
    Value full = b.createOrFold<arith::MulIOp>(loc, part, base);
    Value bonus = minIndex(b, loc, part, extra);
    return b.createOrFold<arith::AddIOp>(loc, full, bonus);
  };
  Value one = constIndex(b, loc, 1);
  Value next = b.createOrFold<arith::AddIOp>(loc, p, one);
  Value lo = start(p);
  Value hi = start(next);
  return {lo, hi};
}

void lowering::buildParallel(
    OpBuilder &b, Location loc, Value parts,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{parts},
                          ValueRange{one},
                          [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                            body(nb, nloc, ivs[0]);
                          });
}

Value lowering::anyFlag(OpBuilder &b, Location loc, Value flags, Value count) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value no = constBool(b, loc, false);
  auto loop = scf::ForOp::create(
      b, loc, zero, count, one, ValueRange{no},
      [&](OpBuilder &nb, Location nloc, Value i, ValueRange acc) {
        Value flag = memref::LoadOp::create(nb, nloc, flags, ValueRange{i});
        Value any = orBool(nb, nloc, acc[0], flag);
        scf::YieldOp::create(nb, nloc, any);
      });
  return loop.getResult(0);
}

MemRefType lowering::sliceMemRefType(Type elementType, ArrayRef<int64_t> shape,
                                     bool contiguousRows) {
  SmallVector<int64_t> strides(shape.size(), ShapedType::kDynamic);
  if (contiguousRows && !strides.empty())
    strides.back() = 1;
  auto layout = StridedLayoutAttr::get(elementType.getContext(),
                                       ShapedType::kDynamic, strides);
  return MemRefType::get(shape, elementType, layout);
}

Value lowering::hasElements(OpBuilder &b, Location loc, Value memref) {
  int64_t rank = cast<MemRefType>(memref.getType()).getRank();
  Value numElements = product(b, loc, dimValues(b, loc, memref, 0, rank));
  Value zero = constIndex(b, loc, 0);
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                       numElements, zero);
}

void lowering::buildPartitionedUpdate(
    OpBuilder &b, Location loc, Value dest, Value parts, MemRefType sliceType,
    function_ref<SliceRegion(OpBuilder &, Location, Value)> region,
    function_ref<void(OpBuilder &, Location, Value, Value)> body) {
  auto destType = cast<MemRefType>(dest.getType());
  // A destination without elements is not partitioned (a partition's slice
  // of it would be empty, or out of its bounds where a dim is 0).
  Value nonEmpty = hasElements(b, loc, dest);
  auto guard = scf::IfOp::create(b, loc, nonEmpty, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPointToStart(guard.thenBlock());
  buildParallel(b, loc, parts, [&](OpBuilder &nb, Location nloc, Value p) {
    SliceRegion slice = region(nb, nloc, p);
    SmallVector<OpFoldResult> strides(destType.getRank(), nb.getIndexAttr(1));
    Value part = memref::SubViewOp::create(nb, nloc, dest, slice.offsets,
                                           slice.sizes, strides);
    // One layout for every slice the body sees.
    auto partType = cast<MemRefType>(part.getType());
    auto viewType = MemRefType::get(partType.getShape(),
                                    partType.getElementType(),
                                    sliceType.getLayout());
    if (viewType != partType)
      part = memref::CastOp::create(nb, nloc, viewType, part);
    body(nb, nloc, p, part);
  });
}

/// `if (!bad) apply(lo, hi)`, returning `bad`.
static Value applyUnlessBad(OpBuilder &b, Location loc, Value bad, Value lo,
                            Value hi, EntryRangeFn apply) {
  Value ok = notBool(b, loc, bad);
  auto ifOk = scf::IfOp::create(b, loc, ok, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOk.thenBlock());
  apply(b, loc, lo, hi);
  return bad;
}

Value lowering::checkedApply(OpBuilder &b, Location loc, bool inPlace,
                             Value lo, Value hi, EntryCheckFn check,
                             EntryRangeFn apply, Value failed) {
  if (!failed)
    failed = constBool(b, loc, false);
  if (inPlace) {
    Value bad = orBool(b, loc, failed, check(b, loc, lo, hi));
    return applyUnlessBad(b, loc, bad, lo, hi, apply);
  }
  Value block = constIndex(b, loc, kCheckBlockEntries);
  auto blocks = scf::ForOp::create(
      b, loc, lo, hi, block, ValueRange{failed},
      [&](OpBuilder &lb, Location lloc, Value first, ValueRange failed) {
        // After a bad block, nothing more is checked or applied.
        auto ifFailed = scf::IfOp::create(
            lb, lloc, failed[0],
            [&](OpBuilder &nb, Location nloc) {
              scf::YieldOp::create(nb, nloc, failed[0]);
            },
            [&](OpBuilder &nb, Location nloc) {
              Value end = nb.createOrFold<arith::AddIOp>(nloc, first, block);
              Value last = minIndex(nb, nloc, end, hi);
              Value bad = check(nb, nloc, first, last);
              bad = applyUnlessBad(nb, nloc, bad, first, last, apply);
              scf::YieldOp::create(nb, nloc, bad);
            });
        scf::YieldOp::create(lb, lloc, ifFailed.getResult(0));
      });
  return blocks.getResult(0);
}
