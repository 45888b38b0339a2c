//===- IndexTuples.cpp - index tuples of the ND ops -------------*- C++ -*-===//
//
// See IndexTuples.h.
//
//===----------------------------------------------------------------------===//

#include "IndexTuples.h"

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

TupleSpace lowering::tupleSpaceOf(OpBuilder &b, Location loc,
                                  const RowSizes &sizes) {
  TupleSpace space;
  space.oob = sizes.addressing().oob;
  space.sizes = sizes.componentSizes(b, loc);
  space.strides = rowMajorStrides(b, loc, space.sizes);
  return space;
}

Tuple lowering::readTuple(OpBuilder &b, Location loc, Value indices, Value t,
                          const TupleSpace &space) {
  int64_t k = space.sizes.size();
  Tuple tuple;
  Value kValue = constIndex(b, loc, k);
  Value base = b.createOrFold<arith::MulIOp>(loc, t, kValue);
  Value row = constIndex(b, loc, 0);
  for (int64_t j = 0; j < k; ++j) {
    Value jValue = constIndex(b, loc, j);
    Value at = b.createOrFold<arith::AddIOp>(loc, base, jValue);
    Value raw = loadIndexValue(b, loc, indices, at);
    auto [normalized, skip] =
        resolveOrSkip(b, loc, space.oob, raw, space.sizes[j]);
    if (skip)
      tuple.skip = tuple.skip ? orBool(b, loc, tuple.skip, skip) : skip;
    tuple.raw.push_back(raw);
    tuple.normalized.push_back(normalized);
    tuple.shifted.push_back(
        b.createOrFold<arith::AddIOp>(loc, raw, space.sizes[j]));
    Value term =
        b.createOrFold<arith::MulIOp>(loc, normalized, space.strides[j]);
    row = b.createOrFold<arith::AddIOp>(loc, row, term);
  }
  tuple.row = tuple.skip ? clampIfBad(b, loc, tuple.skip, row) : row;
  return tuple;
}
