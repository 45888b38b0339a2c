//===- SkipUnchosen.cpp - the nd-gpu-skip-unchosen pass ---------*- C++ -*-===//
//
// `--nd-gpu-skip-unchosen`: kernels of a path the device did not choose
// return before their first barrier (see the pass description).
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToGPU/NdToGPU.h"

#include "nd/Conversion/NdToGPU/GPUSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDGPUSKIPUNCHOSEN
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// The guard of `kernel`: a top-level op of its entry block marked by
/// guardKernels, or null.
static Operation *guardOf(gpu::GPUFuncOp kernel) {
  if (!kernel.getBody().hasOneBlock())
    return nullptr;
  for (Operation &op : kernel.getBody().front())
    if (op.hasAttr(gpu_lowering::kUniformGuardAttr))
      return &op;
  return nullptr;
}

/// Splits the entry block of `kernel` after `guard`: the rest runs where
/// the guard holds, the kernel returns where it does not.
static void returnUnlessGuarded(gpu::GPUFuncOp kernel, Operation *guard) {
  Block *entry = guard->getBlock();
  Block *rest = entry->splitBlock(guard->getNextNode());
  Region &body = kernel.getBody();
  Block *exit = new Block();
  body.push_back(exit);
  Location loc = guard->getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(exit);
  gpu::ReturnOp::create(b, loc);
  b.setInsertionPointToEnd(entry);
  cf::CondBranchOp::create(b, loc, guard->getResult(0), rest, ValueRange{},
                           exit, ValueRange{});
  guard->removeAttr(gpu_lowering::kUniformGuardAttr);
}

namespace {
struct NdGPUSkipUnchosenPass
    : public mlir::nd::impl::NdGPUSkipUnchosenBase<NdGPUSkipUnchosenPass> {
  void runOnOperation() override {
    for (auto kernel : getOperation().getOps<gpu::GPUFuncOp>())
      if (Operation *guard = guardOf(kernel))
        returnUnlessGuarded(kernel, guard);
  }
};
} // namespace
