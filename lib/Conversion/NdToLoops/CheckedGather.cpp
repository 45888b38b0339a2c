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
                           const CheckedGather &gather) {
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

/// The guarded gather: whether its index values were all good (true
/// without checks).
static Value gatherUnlessEmpty(OpBuilder &b, Location loc,
                               const CheckedGather &gather) {
  auto gatherIf = scf::IfOp::create(
      b, loc, gather.emptyIndexedDim,
      [&](OpBuilder &nb, Location nloc) {
        if (gather.oob != OobMode::Error) {
          gather.zeroResult(nb, nloc);
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
        Value ok =
            gather.check
                ? notBool(nb, nloc, anyFlag(nb, nloc, flags, gather.parts))
                : constBool(nb, nloc, true);
        scf::YieldOp::create(nb, nloc, ok);
      });
  return gatherIf.getResult(0);
}

/// The unguarded gather, with checks: whether a partition failed or, where
/// no partition read an index value, whether the scan found a bad one.
static Value gatherAndScan(OpBuilder &b, Location loc,
                           const CheckedGather &gather) {
  Value flags = runPartitions(b, loc, gather);
  Value zero = constIndex(b, loc, 0);
  Value noReads = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                gather.numReads, zero);
  Value someIndices = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::ne, gather.numIndices, zero);
  Value scanAll = b.createOrFold<arith::AndIOp>(loc, noReads, someIndices);
  auto scan = scf::IfOp::create(
      b, loc, scanAll,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, gather.scanIndices(nb, nloc));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, anyFlag(nb, nloc, flags, gather.parts));
      });
  return scan.getResult(0);
}

void lowering::buildCheckedGather(OpBuilder &b, Location loc,
                                  const CheckedGather &gather) {
  if (gather.emptyIndexedDim) {
    Value ok = gatherUnlessEmpty(b, loc, gather);
    if (gather.check)
      reportUnless(b, loc, ok, gather.reportFirstBad);
    return;
  }
  if (!gather.check) {
    runPartitions(b, loc, gather);
    return;
  }
  Value failed = gatherAndScan(b, loc, gather);
  Value ok = notBool(b, loc, failed);
  reportUnless(b, loc, ok, gather.reportFirstBad);
}
