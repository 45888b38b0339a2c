//===- Partition.cpp - propagate shardings and partition ------------------===//
//
// `--nd-partition`: upstream `sharding-propagation` and `shard-partition`,
// run on the functions that carry sharding annotations only. The upstream
// passes anchor on every function and fail on any op without a sharding
// interface and on declarations; a program that runs under MPI has both (its
// `main` initialises MPI, calls the sharded functions and prints).
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDPARTITION
#include "nd/Dialect/Nd/Transforms/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;

/// Whether `func` has a body with a sharding annotation.
static bool isSharded(func::FuncOp func) {
  if (func.isExternal())
    return false;
  WalkResult result =
      func.walk([](shard::ShardOp) { return WalkResult::interrupt(); });
  return result.wasInterrupted();
}

namespace {
struct NdPartitionPass : public nd::impl::NdPartitionBase<NdPartitionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> sharded;
    for (func::FuncOp func : module.getOps<func::FuncOp>())
      if (isSharded(func))
        sharded.push_back(func);

    OpPassManager pipeline(func::FuncOp::getOperationName());
    pipeline.addPass(shard::createShardingPropagation());
    pipeline.addPass(shard::createPartition());
    for (func::FuncOp func : sharded) {
      FunctionType before = func.getFunctionType();
      if (failed(runPipeline(pipeline, func)))
        return signalPassFailure();
      if (func.getFunctionType() == before)
        continue;
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(func, module);
      if (!uses || uses->empty())
        continue;
      InFlightDiagnostic diag = func.emitError()
                                << "partitioning changed the type of @"
                                << func.getSymName() << " from " << before
                                << " to " << func.getFunctionType()
                                << ", but it is called: a sharded function "
                                   "called from unsharded code takes and "
                                   "returns replicated tensors (annotate its "
                                   "arguments and results with split_axes = "
                                   "[[]])";
      diag.attachNote(uses->begin()->getUser()->getLoc()) << "called here";
      return signalPassFailure();
    }
  }
};
} // namespace
