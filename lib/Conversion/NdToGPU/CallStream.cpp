//===- CallStream.cpp - the nd-gpu-call-stream pass -------------*- C++ -*-===//
//
// `--nd-gpu-call-stream`: every GPU operation of a host function runs on one
// stream, in program order, and the host waits only where it must (see the
// pass description). `gpu-to-llvm` turns the stream token into the stream of
// `mgpuStreamCreate`, which nd's CUDA runtime makes the caller's stream.
//
// Preconditions: kernels are outlined (`gpu.launch_func`); the GPU operations
// are synchronous (no async tokens yet).
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToGPU/NdToGPU.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDGPUCALLSTREAM
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// Whether `value` is host memory (a `memref.alloca` or a view of one).
static bool isHostBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (isa<memref::AllocaOp>(def))
      return true;
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return false;
    value = view.getViewSource();
  }
  return false;
}

/// Rebuilds the synchronous GPU operation `op` on `stream`.
static void makeAsync(OpBuilder &b, Operation *op, Value stream) {
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  Type token = gpu::AsyncTokenType::get(b.getContext());
  ValueRange deps = stream;
  if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
    auto async = gpu::AllocOp::create(
        b, loc, alloc.getType(), token, deps, alloc.getDynamicSizes(),
        alloc.getSymbolOperands(), alloc.getHostShared());
    alloc.getMemref().replaceAllUsesWith(async.getMemref());
  } else if (auto free = dyn_cast<gpu::DeallocOp>(op)) {
    gpu::DeallocOp::create(b, loc, token, deps, free.getMemref());
  } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
    gpu::MemcpyOp::create(b, loc, token, deps, copy.getDst(), copy.getSrc());
  } else if (auto set = dyn_cast<gpu::MemsetOp>(op)) {
    gpu::MemsetOp::create(b, loc, token, deps, set.getDst(), set.getValue());
  } else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
    std::optional<gpu::KernelDim3> cluster;
    if (launch.hasClusterSize())
      cluster = launch.getClusterSizeOperandValues();
    gpu::LaunchFuncOp::create(
        b, loc, launch.getKernel(), launch.getGridSizeOperandValues(),
        launch.getBlockSizeOperandValues(), launch.getDynamicSharedMemorySize(),
        launch.getKernelOperands(), token, deps, cluster);
  }
  op->erase();
}

namespace {
struct NdGPUCallStreamPass
    : public mlir::nd::impl::NdGPUCallStreamBase<NdGPUCallStreamPass> {
  using Base::Base;

  void runOnOperation() override {
    OpBuilder b(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<Operation *> ops;
      bool alreadyAsync = false;
      func.walk([&](Operation *op) {
        if (!isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp,
                 gpu::LaunchFuncOp>(op))
          return;
        if (cast<gpu::AsyncOpInterface>(op).getAsyncToken())
          alreadyAsync = true;
        ops.push_back(op);
      });
      if (ops.empty())
        continue;
      if (alreadyAsync) {
        func.emitError("nd-gpu-call-stream expects synchronous GPU "
                       "operations");
        return signalPassFailure();
      }
      b.setInsertionPointToStart(&func.getBody().front());
      Type token = gpu::AsyncTokenType::get(&getContext());
      Value stream = gpu::WaitOp::create(b, func.getLoc(), token, ValueRange{})
                         .getAsyncToken();
      for (Operation *op : ops) {
        // The host reads what is copied into its memory: wait for it.
        bool toHost = false;
        if (auto copy = dyn_cast<gpu::MemcpyOp>(op))
          toHost = isHostBuffer(copy.getDst());
        Operation *next = op->getNextNode();
        Location loc = op->getLoc();
        makeAsync(b, op, stream);
        if (toHost) {
          b.setInsertionPoint(next);
          gpu::WaitOp::create(b, loc, Type(), ValueRange{stream});
        }
      }
      func.walk([&](func::ReturnOp ret) {
        b.setInsertionPoint(ret);
        gpu::WaitOp::create(b, ret.getLoc(), Type(), ValueRange{stream});
      });
    }
  }
};
} // namespace
