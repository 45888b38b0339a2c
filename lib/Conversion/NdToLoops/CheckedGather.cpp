//===- CheckedGather.cpp - the skeleton of the gathers ----------*- C++ -*-===//
//
// See CheckedGather.h.
//
//===----------------------------------------------------------------------===//

#include "CheckedGather.h"

#include "Buffers.h"
#include "Parallel.h"
#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

/// The partitions of `gather`, each storing its failure flag with checks;
/// returns the flags (null without checks).
static Value runPartitions(OpBuilder &b, Location loc,
                           const GatherPartitions &gather) {
  Value flags;
  if (gather.check)
    flags = allocScratch(b, loc, b.getI1Type(), gather.parts);
  buildParallel(b, loc, gather.parts,
                [&](OpBuilder &pb, Location ploc, Value p) {
                  Value bad = gather.partition(pb, ploc, p);
                  if (gather.check)
                    memref::StoreOp::create(pb, ploc, bad, flags, p);
                });
  return flags;
}

void lowering::buildGuardedGather(
    OpBuilder &b, Location loc, const GatherPartitions &gather,
    Value emptyIndexedDim, OobMode oob,
    function_ref<void(OpBuilder &, Location)> zeroResult) {
  auto gatherIf = scf::IfOp::create(
      b, loc, emptyIndexedDim,
      [&](OpBuilder &nb, Location nloc) {
        if (oob != OobMode::Error) {
          zeroResult(nb, nloc);
          scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
          return;
        }
        Value zero = constIndex(nb, nloc, 0);
        Value none = nb.createOrFold<arith::CmpIOp>(
            nloc, arith::CmpIPredicate::eq, gather.numIndices, zero);
        scf::YieldOp::create(nb, nloc, none);
      },
      [&](OpBuilder &nb, Location nloc) {
        Value flags = runPartitions(nb, nloc, gather);
        if (!gather.check) {
          scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
          return;
        }
        Value failed = anyFlag(nb, nloc, flags, gather.parts);
        scf::YieldOp::create(nb, nloc, notBool(nb, nloc, failed));
      });
  if (gather.check)
    reportUnless(b, loc, gatherIf.getResult(0), gather.reportFirstBad);
}

void lowering::buildScannedGather(
    OpBuilder &b, Location loc, const GatherPartitions &gather, Value numReads,
    function_ref<Value(OpBuilder &, Location)> scanIndices) {
  Value flags = runPartitions(b, loc, gather);
  if (!gather.check)
    return;
  Value zero = constIndex(b, loc, 0);
  Value noReads = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                numReads, zero);
  Value someIndices = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::ne, gather.numIndices, zero);
  Value scanAll = b.createOrFold<arith::AndIOp>(loc, noReads, someIndices);
  auto scan = scf::IfOp::create(
      b, loc, scanAll,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, scanIndices(nb, nloc));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, anyFlag(nb, nloc, flags, gather.parts));
      });
  Value ok = notBool(b, loc, scan.getResult(0));
  reportUnless(b, loc, ok, gather.reportFirstBad);
}
