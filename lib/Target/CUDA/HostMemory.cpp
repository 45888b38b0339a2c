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

#include "nd/Target/CUDA/Passes.h"

#include "nd/Conversion/NdToGPU/GPUSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDGPUHOSTMEMORY
#include "nd/Target/CUDA/Passes.h.inc"
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

/// The buffer `value` is a view of: through views, casts and the base buffer
/// of strided metadata.
static Value rootOf(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
      value = metadata.getSource();
      continue;
    }
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      value = cast.getSource();
      continue;
    }
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      break;
    value = view.getViewSource();
  }
  return value;
}

/// Whether `call` calls a private function of the module (a helper of the
/// host code, such as the deallocation pipeline's).
static bool callsPrivateHelper(func::CallOp call) {
  auto module = call->getParentOfType<ModuleOp>();
  auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
  return callee && callee.isPrivate() && !callee.isExternal();
}

/// Whether the users of `value` (through views) only read, write, free or
/// describe it on the host, or pass it to a host helper: bookkeeping the host
/// keeps for itself (the ownership flags of the deallocation pipeline), which
/// stays host memory.
static bool onlyHostUses(Value value) {
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    for (OpOperand &use : current.getUses()) {
      Operation *user = use.getOwner();
      if (user->getParentOfType<gpu::LaunchOp>())
        return false;
      if (isa<memref::LoadOp, memref::StoreOp, memref::DeallocOp, memref::DimOp,
              memref::ExtractAlignedPointerAsIndexOp,
              memref::ExtractStridedMetadataOp>(user))
        continue;
      if (isa<memref::CastOp, ViewLikeOpInterface>(user)) {
        llvm::append_range(worklist, user->getResults());
        continue;
      }
      if (auto call = dyn_cast<func::CallOp>(user);
          call && callsPrivateHelper(call))
        continue;
      return false;
    }
  }
  return true;
}

/// Whether `value` is a buffer in device memory: a GPU allocation, an
/// argument of a public function (callers pass device buffers), or a view of
/// one.
static bool isDeviceBuffer(Value value) {
  Value root = rootOf(value);
  if (root.getDefiningOp<gpu::AllocOp>())
    return true;
  auto arg = dyn_cast<BlockArgument>(root);
  if (!arg)
    return false;
  auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  return func && func.isPublic() && arg.getOwner()->isEntryBlock();
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
  auto copy = gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{},
                                    device, global.getResult());
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

/// Reports a host op that reads or writes a device buffer (as far as it can
/// tell: buffers that private functions receive are not followed).
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
    if (!value || !isa<MemRefType>(value.getType()) || !isDeviceBuffer(value))
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
          if (onlyHostUses(alloc.getResult()))
            continue;
          b.setInsertionPoint(alloc);
          auto replacement = gpu::AllocOp::create(
              b, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
              ValueRange{}, alloc.getDynamicSizes(), alloc.getSymbolOperands());
          alloc.replaceAllUsesWith(replacement.getMemref());
          alloc.erase();
        } else if (auto free = dyn_cast<memref::DeallocOp>(op)) {
          if (rootOf(free.getMemref()).getDefiningOp<memref::AllocOp>())
            continue;
          b.setInsertionPoint(free);
          dealloc(b, free.getLoc(), free.getMemref());
          free.erase();
        } else if (auto copy = dyn_cast<memref::CopyOp>(op)) {
          // A tensor of unknown rank has no device copy (the GPU runtime
          // and the strided copy take ranked buffers).
          if (isa<UnrankedMemRefType>(copy.getSource().getType()) ||
              isa<UnrankedMemRefType>(copy.getTarget().getType())) {
            copy.emitOpError("copies a buffer of unknown rank: the GPU "
                             "pipeline takes ranked tensors");
            return signalPassFailure();
          }
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
