//===- IndexChecks.cpp - run-time checks of index values --------*- C++ -*-===//
//
// See IndexChecks.h.
//
//===----------------------------------------------------------------------===//

#include "IndexChecks.h"

#include "IndexTuples.h"
#include "LoweringState.h"
#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

//===----------------------------------------------------------------------===//
// Range tests
//===----------------------------------------------------------------------===//

Value lowering::rangeBound(OpBuilder &b, Location loc, Value size) {
  Value two = constIndex(b, loc, 2);
  return b.createOrFold<arith::MulIOp>(loc, size, two);
}

Value lowering::anyOutOfRange(OpBuilder &b, Location loc, Value shiftedMax,
                              Value bound) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                       shiftedMax, bound);
}

Value lowering::maxShifted(OpBuilder &b, Location loc, Value indices, Value lo,
                           Value hi, Value size, Value bound) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lo, hi, one, ValueRange{zero},
      [&](OpBuilder &lb, Location lloc, Value q, ValueRange acc) {
        Value raw = loadIndexValue(lb, lloc, indices, q);
        Value shifted = lb.createOrFold<arith::AddIOp>(lloc, raw, size);
        scf::YieldOp::create(lb, lloc, maxIndex(lb, lloc, acc[0], shifted));
      });
  return anyOutOfRange(b, loc, loop.getResult(0), bound);
}

//===----------------------------------------------------------------------===//
// The report of the first bad index
//===----------------------------------------------------------------------===//

void lowering::reportFirstBadIndex(LoweringState &state, OpBuilder &b,
                                   Location loc, Operation *op,
                                   Value numEntries, ReadIndexEntry read) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value no = constBool(b, loc, false);
  scf::ForOp::create(
      b, loc, zero, numEntries, one, ValueRange{no},
      [&](OpBuilder &nb, Location nloc, Value e, ValueRange found) {
        SmallVector<IndexComponent> components = read(nb, nloc, e);
        Value done = found[0];
        for (const IndexComponent &component : components) {
          Value bad =
              isOutOfRange(nb, nloc, component.normalized, component.size);
          Value first = notBool(nb, nloc, done);
          Value fire = nb.createOrFold<arith::AndIOp>(nloc, first, bad);
          auto ifOp = scf::IfOp::create(nb, nloc, fire, false);
          {
            OpBuilder::InsertionGuard guard(nb);
            nb.setInsertionPointToStart(ifOp.thenBlock());
            state.report(nb, nloc, op, indexMessage(op, component.component),
                         component.raw, component.size);
          }
          done = orBool(nb, nloc, done, bad);
        }
        scf::YieldOp::create(nb, nloc, done);
      });
}

void lowering::reportFirstBadValue(LoweringState &state, OpBuilder &b,
                                   Location loc, Operation *op, Value indices,
                                   Value count, Value size) {
  reportFirstBadIndex(
      state, b, loc, op, count, [&](OpBuilder &nb, Location nloc, Value q) {
        Value raw = loadIndexValue(nb, nloc, indices, q);
        Value normalized = normalizeIndex(nb, nloc, raw, size);
        return SmallVector<IndexComponent>{{raw, normalized, size, 0}};
      });
}

void lowering::reportFirstBadTuple(LoweringState &state, OpBuilder &b,
                                   Location loc, Operation *op, Value indices,
                                   Value numTuples, const TupleSpace &space) {
  reportFirstBadIndex(
      state, b, loc, op, numTuples, [&](OpBuilder &nb, Location nloc, Value t) {
        Tuple tuple = readTuple(nb, nloc, indices, t, space);
        SmallVector<IndexComponent> components;
        for (auto [j, size] : llvm::enumerate(space.sizes))
          components.push_back({tuple.raw[j], tuple.normalized[j], size,
                                static_cast<int64_t>(j)});
        return components;
      });
}
