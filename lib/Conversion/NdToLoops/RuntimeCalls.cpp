//===- RuntimeCalls.cpp - calls into the run time and checks ----*- C++ -*-===//
//
// The members of LoweringState that call into the run time (see
// LoweringState.h): the thread count, the store fence, the report of a
// failed check, and the run-time checks of the op's shape constraints.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "nd/Conversion/ShapeChecks.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

Value LoweringState::numPartitions(OpBuilder &b, Location loc, Operation *op,
                                   Value work, Value limit) {
  Value threads = rt::MaxThreadsOp::create(b, loc);
  Value grainValue = constIndex(b, loc, grain);
  Value one = constIndex(b, loc, 1);
  // min(max(work / grain, 1), threads[, max(limit, 1)]): at least 1, and
  // never a constant, so that canonicalization keeps the parallel loops
  // whatever the static sizes.
  Value byWork = b.createOrFold<arith::DivUIOp>(loc, work, grainValue);
  byWork = maxIndex(b, loc, byWork, one);
  Value parts = minIndex(b, loc, byWork, threads);
  if (limit)
    parts = minIndex(b, loc, parts, maxIndex(b, loc, limit, one));
  return parts;
}

void LoweringState::fenceStreamedStores(OpBuilder &b, Location loc,
                                        Operation *op, Value streamed) {
  std::optional<int64_t> known = getConstantIntValue(streamed);
  if (known && *known == 0)
    return;
  auto ifOp = scf::IfOp::create(b, loc, streamed, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  rt::StoreFenceOp::create(b, loc);
}

void LoweringState::report(OpBuilder &b, Location loc, Operation *op,
                           StringRef text, Value a, Value b2) {
  std::string message = (op->getName().getStringRef() + ": " + text).str();
  auto toI64 = [&](Value v) -> Value {
    if (v.getType().isInteger(64))
      return v;
    return b.createOrFold<arith::IndexCastOp>(loc, b.getI64Type(), v);
  };
  Value lhs = toI64(a);
  Value rhs = toI64(b2);
  if (site) {
    rt::ReportAtOp::create(b, loc, site, message, lhs, rhs);
    return;
  }
  message = describeLocation(op) + ": " + message;
  rt::ReportOp::create(b, loc, message, lhs, rhs);
}

LoweringState::CheckChain::CheckChain(LoweringState &state, OpBuilder &b,
                                      Location loc, Operation *op)
    : state(state), b(b), loc(loc), op(op), allOk(constBool(b, loc, true)) {}

LoweringState::CheckChain::CheckChain(LoweringState &state, OpBuilder &b,
                                      Location loc, Operation *op, Value ok)
    : state(state), b(b), loc(loc), op(op), allOk(ok) {}

void LoweringState::CheckChain::check(Value bad, StringRef text, Value a,
                                      Value b2) {
  Value fire = b.createOrFold<arith::AndIOp>(loc, allOk, bad);
  auto ifOp = scf::IfOp::create(b, loc, fire, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    state.report(b, loc, op, text, a, b2);
  }
  Value good = b.createOrFold<arith::XOrIOp>(loc, bad, constBool(b, loc, true));
  allOk = b.createOrFold<arith::AndIOp>(loc, allOk, good);
}

void LoweringState::checkShapes(CheckChain &chain, ValueRange values) {
  if (!checkBounds)
    return;
  forEachRuntimeShapeCheck(
      chain.builder(), chain.location(),
      cast<IterationSpaceOpInterface>(chain.operation()), values,
      [&](const RuntimeShapeCheck &check) {
        chain.check(check.violated, check.message, check.lhs, check.rhs);
      });
}
