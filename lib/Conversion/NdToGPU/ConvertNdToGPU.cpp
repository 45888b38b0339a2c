//===- ConvertNdToGPU.cpp - the convert-nd-to-gpu pass ----------*- C++ -*-===//
//
// `--convert-nd-to-gpu`: each host function's nd ops on buffers, in program
// order, through the lowering of their op family (Lowering.h), sharing the
// function's error record (ErrorRecord.h).
//
// Preconditions: the nd ops are on buffers (after one-shot bufferization),
// in `func.func`s whose buffers are device memory.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToGPU/NdToGPU.h"

#include "ErrorRecord.h"
#include "Lowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"
#include "llvm/ADT/TypeSwitch.h"

#include <optional>

namespace mlir::nd {
#define GEN_PASS_DEF_CONVERTNDTOGPU
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

LogicalResult mlir::nd::lowerNdOpsToGPU(func::FuncOp func, bool checkBounds) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip();
    if (isa<NdDialect>(op->getDialect()))
      ops.push_back(op);
    return WalkResult::advance();
  });
  if (ops.empty())
    return success();
  for (Operation *op : ops)
    if (op->getNumResults() != 0)
      return op->emitOpError(
          "must be on buffers to be lowered to GPU kernels (bufferize first)");

  OpBuilder b(func.getContext());
  std::optional<ErrorRecord> record;
  if (checkBounds)
    record.emplace(b, func, static_cast<int64_t>(ops.size()));
  for (Operation *op : ops) {
    b.setInsertionPoint(op);
    OpLowering lowering(b, op, record ? &*record : nullptr);
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](GatherNDOp op) { return lowerGatherND(lowering, op); })
            .Case([&](GatherOp op) { return lowerGather(lowering, op); })
            .Case([&](GatherElementsOp op) {
              return lowerGatherElements(lowering, op);
            })
            .Case([&](ScatterNDOp op) { return lowerScatterND(lowering, op); })
            .Case([&](ScatterElementsOp op) {
              return lowerScatterElements(lowering, op);
            })
            .Case([&](TensorScatterOp op) {
              return lowerTensorScatter(lowering, op);
            })
            .Default([](Operation *op) {
              return op->emitOpError("has no GPU lowering");
            });
    if (failed(result))
      return failure();
    op->erase();
  }
  if (record)
    record->emitReports(b, func);
  return success();
}

namespace {
struct ConvertNdToGPUPass
    : public mlir::nd::impl::ConvertNdToGPUBase<ConvertNdToGPUPass> {
  using Base::Base;


  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(lowerNdOpsToGPU(func, checkBounds)))
        return signalPassFailure();
    }
  }
};
} // namespace
