//===- OpenMPIf.cpp - fork only for several iterations ----------*- C++ -*-===//
//
// `--nd-openmp-if`: every `omp.parallel` whose body is one `omp.wsloop`
// without reductions gets `if(trip count > 1)`, so that a loop with a single
// iteration runs on the calling thread instead of forking a team.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDOPENMPIF
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// The loop nest of `parallel` if its body is exactly one worksharing loop
/// without reductions whose bounds are defined outside `parallel`.
static omp::LoopNestOp getSimpleLoopNest(omp::ParallelOp parallel) {
  Block &body = parallel.getRegion().front();
  if (body.getOperations().size() != 2)
    return nullptr;
  auto wsloop = dyn_cast<omp::WsloopOp>(body.front());
  if (!wsloop || !wsloop.getReductionVars().empty())
    return nullptr;
  auto nest = dyn_cast<omp::LoopNestOp>(wsloop.getWrappedLoop());
  if (!nest)
    return nullptr;
  for (Value bound : nest->getOperands()) {
    if (parallel->isAncestor(bound.getParentRegion()->getParentOp()))
      return nullptr;
  }
  return nest;
}

namespace {
struct NdOpenMPIfPass : public mlir::nd::impl::NdOpenMPIfBase<NdOpenMPIfPass> {
  void runOnOperation() override {
    getOperation().walk([&](omp::ParallelOp parallel) {
      if (parallel.getIfExpr())
        return;
      omp::LoopNestOp nest = getSimpleLoopNest(parallel);
      if (!nest)
        return;
      OpBuilder b(parallel);
      Location loc = parallel.getLoc();
      Value trips;
      for (auto [lb, ub, step] :
           llvm::zip_equal(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                           nest.getLoopSteps())) {
        Type type = lb.getType();
        if (!type.isIntOrIndex())
          return;
        Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
        Value span = arith::SubIOp::create(b, loc, ub, lb);
        Value positive = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::sgt, span, zero);
        Value count = arith::CeilDivSIOp::create(b, loc, span, step);
        count = arith::SelectOp::create(b, loc, positive, count, zero);
        if (!type.isIndex())
          count = arith::IndexCastOp::create(b, loc, b.getIndexType(), count);
        trips = trips ? arith::MulIOp::create(b, loc, trips, count).getResult()
                      : count;
      }
      if (!trips)
        return;
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      Value several =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt, trips, one);
      parallel.getIfExprMutable().assign(several);
    });
  }
};
} // namespace
