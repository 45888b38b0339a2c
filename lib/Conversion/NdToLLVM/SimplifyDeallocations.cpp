//===- SimplifyDeallocations.cpp - dealloc simplification by size -*- C++ -*-//
//
// `--nd-simplify-deallocations`: upstream's buffer-deallocation-
// simplification on the functions whose dealloc ops list few buffers (it
// compares every pair of them); the others keep their dealloc ops, which
// bufferization-lower-deallocations lowers as they are.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDSIMPLIFYDEALLOCATIONS
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

namespace {
struct NdSimplifyDeallocationsPass
    : public mlir::nd::impl::NdSimplifyDeallocationsBase<
          NdSimplifyDeallocationsPass> {
  using Base::Base;

  void runOnOperation() override {
    OpPassManager simplify(func::FuncOp::getOperationName());
    simplify.addPass(
        bufferization::createBufferDeallocationSimplificationPass());
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      int64_t buffers = 0;
      function.walk([&](bufferization::DeallocOp dealloc) {
        buffers += dealloc.getMemrefs().size() + dealloc.getRetained().size();
      });
      if (buffers > maxBuffers)
        continue;
      if (failed(runPipeline(simplify, function)))
        return signalPassFailure();
    }
  }
};
} // namespace
