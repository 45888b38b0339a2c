//===- Scalars.cpp - scalars and index values -------------------*- C++ -*-===//
//
// See Scalars.h.
//
//===----------------------------------------------------------------------===//

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

//===----------------------------------------------------------------------===//
// Index values under an oob mode
//===----------------------------------------------------------------------===//

Value lowering::clampIfBad(OpBuilder &b, Location loc, Value bad,
                           Value normalized) {
  Value zero = constIndex(b, loc, 0);
  return b.createOrFold<arith::SelectOp>(loc, bad, zero, normalized);
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
