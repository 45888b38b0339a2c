//===- Positions.cpp - walks over the positions of a tensor -----*- C++ -*-===//
//
// See Positions.h.
//
//===----------------------------------------------------------------------===//

#include "Positions.h"

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

SmallVector<Value> lowering::walkRowSegments(OpBuilder &b, Location loc,
                                             ArrayRef<Value> dims, Value lo,
                                             Value hi, Value colLo, Value colHi,
                                             ValueRange init,
                                             RowSegmentFn segment) {
  int64_t rank = dims.size();
  Value one = constIndex(b, loc, 1);
  Value rowLen = dims.back();
  // A zero-length row means no positions; divide by at least 1.
  Value divisor = maxIndex(b, loc, rowLen, one);
  Value firstRow = b.createOrFold<arith::DivUIOp>(loc, lo, divisor);
  Value lastRow = ceilDiv(b, loc, hi, divisor);
  auto rows = scf::ForOp::create(
      b, loc, firstRow, lastRow, one, init,
      [&](OpBuilder &nb, Location nloc, Value row, ValueRange carried) {
        // Coordinates of the row: unflatten over dims[0, rank-1).
        SmallVector<Value> coords(rank);
        Value rest = row;
        for (int64_t d = rank - 2; d >= 0; --d) {
          coords[d] = nb.createOrFold<arith::RemUIOp>(nloc, rest, dims[d]);
          rest = nb.createOrFold<arith::DivUIOp>(nloc, rest, dims[d]);
        }
        Value rowStart = nb.createOrFold<arith::MulIOp>(nloc, row, rowLen);
        Value fromFlat = nb.createOrFold<arith::SubIOp>(
            nloc, maxIndex(nb, nloc, lo, rowStart), rowStart);
        Value rowEnd = nb.createOrFold<arith::AddIOp>(nloc, rowStart, rowLen);
        Value toFlat = nb.createOrFold<arith::SubIOp>(
            nloc, minIndex(nb, nloc, hi, rowEnd), rowStart);
        Value from = maxIndex(nb, nloc, fromFlat, colLo);
        Value to = minIndex(nb, nloc, toFlat, colHi);
        // An empty range may have from > to: start at most at the end.
        from = minIndex(nb, nloc, from, to);
        SmallVector<Value> next =
            segment(nb, nloc, coords, rowStart, from, to, carried);
        scf::YieldOp::create(nb, nloc, next);
      });
  return SmallVector<Value>(rows.getResults());
}

SmallVector<Value> lowering::walkColumns(OpBuilder &b, Location loc,
                                         SmallVectorImpl<Value> &coords,
                                         Value rowStart, Value from, Value to,
                                         ValueRange carried, PositionFn body) {
  Value one = constIndex(b, loc, 1);
  auto cols = scf::ForOp::create(
      b, loc, from, to, one, carried,
      [&](OpBuilder &cb, Location cloc, Value col, ValueRange inner) {
        coords.back() = col;
        Value q = cb.createOrFold<arith::AddIOp>(cloc, rowStart, col);
        SmallVector<Value> next = body(cb, cloc, coords, q, inner);
        scf::YieldOp::create(cb, cloc, next);
      });
  return SmallVector<Value>(cols.getResults());
}

SmallVector<Value> lowering::walkPositions(OpBuilder &b, Location loc,
                                           ArrayRef<Value> dims, Value lo,
                                           Value hi, Value colLo, Value colHi,
                                           ValueRange init, PositionFn body) {
  return walkRowSegments(
      b, loc, dims, lo, hi, colLo, colHi, init,
      [&](OpBuilder &nb, Location nloc, SmallVectorImpl<Value> &coords,
          Value rowStart, Value from, Value to, ValueRange carried) {
        return walkColumns(nb, nloc, coords, rowStart, from, to, carried, body);
      });
}
