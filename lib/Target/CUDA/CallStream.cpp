//===- CallStream.cpp - the nd-gpu-call-stream pass -------------*- C++ -*-===//
//
// `--nd-gpu-call-stream`: the host side of a call of GPU code as nd's CUDA
// runtime runs it (see the pass description):
//
// - every GPU operation of a host function runs on one stream, in program
//   order, and the host waits only where it reads what a copy brings into
//   its memory, never at a return: a call queues its work and returns.
//   `gpu-to-llvm` turns the stream token into the stream of
//   `mgpuStreamCreate`, which nd's CUDA runtime makes the caller's stream;
// - the error record comes from the runtime (ErrorRecordLowering.h);
// - a buffer the function allocates and never returns is scratch: a view of
//   a buffer of the runtime's per-stream arena (`nd_cuda_scratch`), which
//   costs no allocation of the driver once the arena is large enough. The
//   buffers a function may return stay `gpu.alloc`s (the caller frees them).
//
// Preconditions: kernels are outlined (`gpu.launch_func`); the GPU
// operations are synchronous (no async tokens yet).
//
//===----------------------------------------------------------------------===//

#include "nd/Target/CUDA/Passes.h"

#include "ErrorRecordLowering.h"
#include "nd-c/RuntimeABI.h"
#include "nd/Conversion/NdToGPU/GPUSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace mlir::nd {
#define GEN_PASS_DEF_NDGPUCALLSTREAM
#include "nd/Target/CUDA/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

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

//===----------------------------------------------------------------------===//
// Scratch buffers
//===----------------------------------------------------------------------===//

/// Adds to `worklist` the values that the use `use` of a buffer passes the
/// buffer on to; returns false where the buffer may leave the function (a
/// return, a control flow it does not follow).
static bool followUse(OpOperand &use, SmallVectorImpl<Value> &worklist) {
  Operation *user = use.getOwner();
  unsigned position = use.getOperandNumber();
  if (isa<func::ReturnOp>(user))
    return false;
  if (auto forOp = dyn_cast<scf::ForOp>(user)) {
    if (position < forOp.getNumControlOperands())
      return true;
    worklist.push_back(forOp.getTiedLoopRegionIterArg(&use));
    worklist.push_back(forOp.getTiedLoopResult(&use));
    return true;
  }
  if (isa<scf::YieldOp>(user)) {
    Operation *parent = user->getParentOp();
    if (auto forOp = dyn_cast<scf::ForOp>(parent)) {
      worklist.push_back(forOp.getRegionIterArgs()[position]);
      worklist.push_back(forOp.getResult(position));
      return true;
    }
    if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(parent)) {
      worklist.push_back(parent->getResult(position));
      return true;
    }
    return false;
  }
  if (user->hasTrait<OpTrait::IsTerminator>())
    return false;
  // A buffer stored as a value (a memref of memrefs) is not followed.
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return position != 0;
  if (isa<scf::WhileOp>(user))
    return false;
  // Views, casts, selects, calls: their buffer results may be this buffer.
  for (Value result : user->getResults())
    if (isa<BaseMemRefType>(result.getType()))
      worklist.push_back(result);
  return true;
}

/// Whether the buffer `alloc` makes, or a view of it, may be returned by its
/// function.
static bool mayBeReturned(gpu::AllocOp alloc) {
  SmallVector<Value> worklist = {alloc.getMemref()};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses())
      if (!followUse(use, worklist))
        return true;
  }
  return false;
}

/// Bytes per element of `type` in device memory, if nd knows them.
static std::optional<int64_t> elementBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (auto integer = dyn_cast<IntegerType>(type))
    return (integer.getWidth() + 7) / 8;
  if (auto floating = dyn_cast<FloatType>(type))
    return (floating.getWidth() + 7) / 8;
  if (auto complex = dyn_cast<ComplexType>(type)) {
    std::optional<int64_t> part = elementBytes(complex.getElementType());
    if (part)
      return 2 * *part;
  }
  return std::nullopt;
}

/// Whether `alloc` can come from the scratch arena: allocated once per call
/// (not in a loop), of a plain type, never returned.
static bool isScratch(gpu::AllocOp alloc, func::FuncOp func) {
  MemRefType type = alloc.getType();
  if (alloc.getHostShared() || !alloc.getSymbolOperands().empty() ||
      !type.getLayout().isIdentity() || type.getMemorySpace() ||
      !elementBytes(type.getElementType()))
    return false;
  for (Operation *parent = alloc->getParentOp(); parent != func;
       parent = parent->getParentOp())
    if (isa<LoopLikeOpInterface>(parent))
      return false;
  return !mayBeReturned(alloc);
}

/// Replaces the synchronous `alloc` by a view of a buffer of the call's
/// scratch arena.
static void allocateFromArena(OpBuilder &b, gpu::AllocOp alloc) {
  b.setInsertionPoint(alloc);
  Location loc = alloc.getLoc();
  MemRefType type = alloc.getType();
  Value bytes = constIndex(b, loc, *elementBytes(type.getElementType()));
  unsigned dynamic = 0;
  for (int64_t dim : type.getShape()) {
    Value size = ShapedType::isDynamic(dim) ? alloc.getDynamicSizes()[dynamic++]
                                            : constIndex(b, loc, dim);
    bytes = mulIndex(b, loc, bytes, size);
  }
  Type i64 = b.getI64Type();
  Value bytes64 = fromIndex(b, loc, i64, bytes);
  auto rawType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  StringRef scratchFn = ND_ABI_NAME(ND_ABI_CUDA_SCRATCH);
  Value raw =
      func::CallOp::create(b, loc, scratchFn, rawType, ValueRange{bytes64})
          .getResult(0);
  Value zero = constIndex(b, loc, 0);
  Value view =
      memref::ViewOp::create(b, loc, type, raw, zero, alloc.getDynamicSizes());
  alloc.getMemref().replaceAllUsesWith(view);
  alloc.erase();
}

/// The scratch buffers of `func` from the arena; returns whether any.
static bool useScratchArena(OpBuilder &b, func::FuncOp func) {
  SmallVector<gpu::AllocOp> scratch;
  func.walk([&](gpu::AllocOp alloc) {
    if (!alloc.getAsyncToken() && isScratch(alloc, func))
      scratch.push_back(alloc);
  });
  for (gpu::AllocOp alloc : scratch)
    allocateFromArena(b, alloc);
  return !scratch.empty();
}

/// Declares the runtime's scratch function in `module`.
static void declareScratch(OpBuilder &b, ModuleOp module) {
  StringRef name = ND_ABI_NAME(ND_ABI_CUDA_SCRATCH);
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto rawType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  auto fn = func::FuncOp::create(
      b, module.getLoc(), name, b.getFunctionType({b.getI64Type()}, {rawType}));
  fn.setPrivate();
  fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), b.getUnitAttr());
}

//===----------------------------------------------------------------------===//
// One stream
//===----------------------------------------------------------------------===//

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

/// The GPU operations of `func` on one stream; fails on asynchronous ones.
static LogicalResult orderOnOneStream(OpBuilder &b, func::FuncOp func) {
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
    return success();
  if (alreadyAsync)
    return func.emitError("nd-gpu-call-stream expects synchronous GPU "
                          "operations");
  b.setInsertionPointToStart(&func.getBody().front());
  Type token = gpu::AsyncTokenType::get(func.getContext());
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
  return success();
}

namespace {
struct NdGPUCallStreamPass
    : public mlir::nd::impl::NdGPUCallStreamBase<NdGPUCallStreamPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(&getContext());
    cuda::lowerErrorRecordsForDevice(module);
    bool scratch = false;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        scratch |= useScratchArena(b, func);
    if (scratch)
      declareScratch(b, module);
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      if (failed(orderOnOneStream(b, func)))
        return signalPassFailure();
    }
  }
};
} // namespace
