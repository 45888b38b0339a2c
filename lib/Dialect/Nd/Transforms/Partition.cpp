//===- Partition.cpp - propagate shardings and partition ------------------===//
//
// `--nd-partition`: upstream `sharding-propagation` and `shard-partition`,
// run on the functions that carry sharding annotations only. The upstream
// passes anchor on every function and fail on any op without a sharding
// interface and on declarations; a program that runs under MPI has both (its
// `main` initialises MPI, calls the sharded functions and prints).
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"): `sharding-propagation` rejects every op without a
// ShardingInterface and every function declaration, anywhere in the module
// (test/Shard/Upstream/propagation-rejects-calls.mlir). Retired once
// upstream's ShardingPropagation.cpp and Partition.cpp skip declarations and
// leave ops without the interface unsharded, as they leave terminators and
// constants, instead of failing. Upstream main skips functions without a
// body since PR #185050 (March 2026, after the 22.x branch); the newest
// upstream ShardingPropagation.cpp we could read still rejects ops without
// the interface (to be checked again at the move to LLVM 23). The
// process-count check (`check-process-count`) is nd's own and stays.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"
#include "llvm/ADT/SetVector.h"

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

/// The grids `func` refers to, in order of first use.
static SmallVector<shard::GridOp> gridsUsedBy(func::FuncOp func,
                                              SymbolTableCollection &symbols) {
  llvm::SetVector<Operation *> grids;
  func.walk([&](Operation *op) {
    for (NamedAttribute attr : op->getAttrs()) {
      auto ref = dyn_cast<FlatSymbolRefAttr>(attr.getValue());
      if (!ref)
        continue;
      if (auto grid = symbols.lookupNearestSymbolFrom<shard::GridOp>(op, ref))
        grids.insert(grid);
    }
  });
  return llvm::map_to_vector(
      grids, [](Operation *op) { return cast<shard::GridOp>(op); });
}

/// Inserts at the entry of `func` a check that the processes running it are
/// as many as `grid` has: every process contributes a 1 to an all-reduce
/// over the whole grid, and a sum that differs is reported through nd's
/// run-time error report, which under mlir-runner prints the message and
/// ends the process with status 1 (mpiexec then ends the others). A
/// `cf.assert` would abort every process instead, each dumping a crash
/// report.
static void insertProcessCountCheck(func::FuncOp func, shard::GridOp grid) {
  ArrayRef<int64_t> shape = grid.getShape();
  if (ShapedType::isDynamicShape(shape))
    return;
  int64_t processes = ShapedType::getNumElements(shape);
  auto builder = ImplicitLocOpBuilder::atBlockBegin(
      func.getLoc(), &func.getFunctionBody().front());
  auto type = RankedTensorType::get({1}, builder.getI32Type());
  Value one = arith::ConstantOp::create(
      builder, DenseElementsAttr::get(type, builder.getI32IntegerAttr(1)));
  SmallVector<shard::GridAxis> axes = llvm::to_vector(
      llvm::seq<shard::GridAxis>(0, static_cast<int16_t>(shape.size())));
  Value count = shard::AllReduceOp::create(
      builder, type, grid.getSymName(), axes, one, shard::ReductionKind::Sum);
  Value zero = arith::ConstantIndexOp::create(builder, 0);
  Value sum = tensor::ExtractOp::create(builder, count, zero);
  Value expected =
      arith::ConstantIntOp::create(builder, builder.getI32Type(), processes);
  Value differs =
      arith::CmpIOp::create(builder, arith::CmpIPredicate::ne, sum, expected);
  auto ifOp = scf::IfOp::create(builder, differs, /*withElseRegion=*/false);
  builder.setInsertionPointToStart(ifOp.thenBlock());
  Value got = arith::ExtSIOp::create(builder, builder.getI64Type(), sum);
  Value want = arith::ConstantIntOp::create(builder, builder.getI64Type(),
                                            processes);
  // The message is a printf format: a `%` of a symbol name is doubled.
  std::string message;
  llvm::raw_string_ostream os(message);
  auto escaped = [](StringRef name) {
    std::string text;
    for (char c : name) {
      if (c == '%')
        text += '%';
      text += c;
    }
    return text;
  };
  os << "@" << escaped(func.getSymName()) << " is partitioned for the "
     << processes << " processes of grid @" << escaped(grid.getSymName())
     << ", but a different number runs it";
  nd::createRuntimeErrorReport(builder, builder.getLoc(), message, got, want);
}

namespace {
struct NdPartitionPass : public nd::impl::NdPartitionBase<NdPartitionPass> {
  using NdPartitionBase::NdPartitionBase;


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
      if (checkProcessCount) {
        SymbolTableCollection symbols;
        for (shard::GridOp grid : gridsUsedBy(func, symbols))
          insertProcessCountCheck(func, grid);
      }
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
