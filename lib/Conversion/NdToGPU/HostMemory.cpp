//===- HostMemory.cpp - the nd-gpu-host-memory pass -------------*- C++ -*-===//
//
// `--nd-gpu-host-memory`: the buffers of host functions are device buffers.
// Bufferization allocates, copies and frees with the memref dialect, on the
// host's memory; here those become their GPU counterparts. Constants
// (`memref.get_global`) live in host memory and are copied to the device
// where they are used.
//
// Preconditions: after bufferization and the lowering of nd's ops; GPU
// kernels are still `gpu.launch` regions (not outlined).
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToGPU/NdToGPU.h"

#include "GPUSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDGPUHOSTMEMORY
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

/// The host ops of `func`: those outside GPU kernels.
static SmallVector<Operation *> hostOps(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp>(op))
      return WalkResult::skip();
    ops.push_back(op);
    return WalkResult::advance();
  });
  return ops;
}

/// Whether `value` is a buffer of host memory that host code may touch: a
/// `memref.alloca` or a view of one.
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

static bool hasIdentityLayout(Value value) {
  return cast<MemRefType>(value.getType()).getLayout().isIdentity();
}

static void rewriteCopy(OpBuilder &b, memref::CopyOp copy) {
  b.setInsertionPoint(copy);
  Location loc = copy.getLoc();
  Value source = copy.getSource(), target = copy.getTarget();
  if (hasIdentityLayout(source) && hasIdentityLayout(target) &&
      source.getType() == target.getType()) {
    gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, target,
                          source);
  } else {
    copyStrided(b, loc, source, target);
  }
  copy.erase();
}

/// A constant's device copy, made where the constant is taken and freed
/// before each return (unless returned).
static void rewriteGlobal(OpBuilder &b, memref::GetGlobalOp global,
                          func::FuncOp func) {
  b.setInsertionPointAfter(global);
  Location loc = global.getLoc();
  auto type = cast<MemRefType>(global.getType());
  Value device = gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(),
                                      ValueRange{}, ValueRange{}, ValueRange{})
                     .getMemref();
  auto copy = gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(),
                                    ValueRange{}, device, global.getResult());
  global.getResult().replaceAllUsesExcept(device, copy);
  bool escapes = llvm::any_of(device.getUsers(), [](Operation *user) {
    return isa<func::ReturnOp>(user);
  });
  if (escapes)
    return;
  func.walk([&](func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    dealloc(b, ret.getLoc(), device);
  });
}

/// Reports a host op that reads or writes a device buffer.
static LogicalResult checkHostAccess(Operation *op) {
  if (isa<gpu::GPUDialect>(op->getDialect()))
    return success();
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return success();
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  for (const MemoryEffects::EffectInstance &instance : instances) {
    if (!isa<MemoryEffects::Read, MemoryEffects::Write>(instance.getEffect()))
      continue;
    Value value = instance.getValue();
    if (!value || !isa<MemRefType>(value.getType()) || isHostBuffer(value))
      continue;
    return op->emitOpError(
        "reads or writes a device buffer on the host: the GPU pipeline runs "
        "only nd ops, copies and elementwise linalg ops on tensor contents");
  }
  return success();
}

namespace {
struct NdGPUHostMemoryPass
    : public mlir::nd::impl::NdGPUHostMemoryBase<NdGPUHostMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    OpBuilder b(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      for (Operation *op : hostOps(func)) {
        if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
          b.setInsertionPoint(alloc);
          auto replacement = gpu::AllocOp::create(
              b, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
              ValueRange{}, alloc.getDynamicSizes(), alloc.getSymbolOperands());
          alloc.replaceAllUsesWith(replacement.getMemref());
          alloc.erase();
        } else if (auto free = dyn_cast<memref::DeallocOp>(op)) {
          b.setInsertionPoint(free);
          dealloc(b, free.getLoc(), free.getMemref());
          free.erase();
        } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
          rewriteCopy(b, copy);
        } else if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
          rewriteGlobal(b, global, func);
        }
      }
      for (Operation *op : hostOps(func))
        if (failed(checkHostAccess(op)))
          return signalPassFailure();
    }
  }
};
} // namespace
