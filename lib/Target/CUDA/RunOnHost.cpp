//===- RunOnHost.cpp - the nd-gpu-run-on-host pass --------------*- C++ -*-===//
//
// `--nd-gpu-run-on-host`: GPU code executed by the host CPU, for tests on
// machines without a GPU (see the pass description).
//
// A kernel body is cut at its top-level barriers into phases. For each block
// (loops over the grid), each phase is a loop over the block's threads; a
// value a phase defines and a later phase uses is stored, per thread, into a
// buffer at the end of its phase and loaded at the start of the phases that
// use it. Workgroup attributions become one host buffer per launch (the
// blocks run one after the other).
//
// The error records of nd's checks become host buffers whose failures are
// reported at each return (ErrorRecordLowering.h).
//
// Preconditions: kernels are `gpu.launch` regions (not outlined); the GPU
// operations of host functions are synchronous.
//
//===----------------------------------------------------------------------===//

#include "nd/Target/CUDA/Passes.h"

#include "ErrorRecordLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDGPURUNONHOST
#include "nd/Target/CUDA/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// A memref type like `type` in the host's memory.
static MemRefType inHostMemory(MemRefType type) {
  return MemRefType::get(type.getShape(), type.getElementType(),
                         type.getLayout());
}

/// `for (iv = 0; iv < ub; ++iv)` loops nested z, y, x; `body` gets (x, y, z).
static void buildLoops3(
    OpBuilder &b, Location loc, gpu::KernelDim3 bounds,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  scf::ForOp::create(
      b, loc, zero, bounds.z, one, ValueRange{},
      [&](OpBuilder &zb, Location zloc, Value z, ValueRange) {
        scf::ForOp::create(
            zb, zloc, zero, bounds.y, one, ValueRange{},
            [&](OpBuilder &yb, Location yloc, Value y, ValueRange) {
              scf::ForOp::create(
                  yb, yloc, zero, bounds.x, one, ValueRange{},
                  [&](OpBuilder &xb, Location xloc, Value x, ValueRange) {
                    body(xb, xloc, x, y, z);
                    scf::YieldOp::create(xb, xloc);
                  });
              scf::YieldOp::create(yb, yloc);
            });
        scf::YieldOp::create(zb, zloc);
      });
}

/// The top-level op of `body` that holds `op`.
static Operation *topLevel(Block &body, Operation *op) {
  while (op && op->getBlock() != &body)
    op = op->getParentOp();
  return op;
}

namespace {
/// A launch run on the host: its top-level ops in phases (the ranges between
/// barriers), the values carried from one phase to a later one in
/// per-thread buffers, and its workgroup memory.
struct HostLaunch {
  gpu::LaunchOp launch;
  Block *body = nullptr;
  gpu::KernelDim3 grid, block;
  DenseMap<Operation *, unsigned> phaseOf;
  SmallVector<SmallVector<Operation *>> phases{1};
  llvm::MapVector<Value, Value> carried;
  SmallVector<Value> shared;
};
} // namespace

/// Splits the launch's body into phases at its top-level barriers; a barrier
/// in a nested region cannot run on the host.
static LogicalResult splitPhases(HostLaunch &h) {
  for (Operation &op : h.body->without_terminator()) {
    if (isa<gpu::BarrierOp>(op)) {
      h.phases.emplace_back();
      continue;
    }
    h.phaseOf[&op] = h.phases.size() - 1;
    h.phases.back().push_back(&op);
  }
  WalkResult nested = h.launch.getBody().walk([&](gpu::BarrierOp barrier) {
    if (barrier->getBlock() != h.body)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (nested.wasInterrupted())
    return h.launch.emitError("a barrier inside a nested region cannot run "
                              "on the host");
  return success();
}

/// A buffer of one slot per thread for each value used in a later phase than
/// its own.
static LogicalResult allocateCarried(OpBuilder &b, Location loc,
                                     HostLaunch &h, Value threads) {
  for (unsigned p = 0, e = h.phases.size(); p < e; ++p) {
    for (Operation *op : h.phases[p]) {
      for (Value result : op->getResults()) {
        bool later = llvm::any_of(result.getUsers(), [&](Operation *user) {
          Operation *top = topLevel(*h.body, user);
          return top && h.phaseOf.lookup(top) > p;
        });
        if (!later)
          continue;
        Type type = result.getType();
        if (!type.isIntOrIndexOrFloat() && !isa<VectorType>(type))
          return op->emitError("a value of type ")
                 << type << " carried across a barrier cannot run on the host";
        auto bufferType = MemRefType::get({ShapedType::kDynamic}, type);
        h.carried[result] =
            memref::AllocOp::create(b, loc, bufferType, ValueRange{threads});
      }
    }
  }
  return success();
}

/// The launch's ids and sizes, and its workgroup memory, as the host loops
/// give them to thread (tx, ty, tz) of block (bx, by, bz).
static IRMapping mapIds(const HostLaunch &h, Value bx, Value by, Value bz,
                        Value tx, Value ty, Value tz) {
  gpu::LaunchOp launch = h.launch;
  IRMapping mapping;
  mapping.map(launch.getBlockIds().x, bx);
  mapping.map(launch.getBlockIds().y, by);
  mapping.map(launch.getBlockIds().z, bz);
  mapping.map(launch.getThreadIds().x, tx);
  mapping.map(launch.getThreadIds().y, ty);
  mapping.map(launch.getThreadIds().z, tz);
  mapping.map(launch.getGridSize().x, h.grid.x);
  mapping.map(launch.getGridSize().y, h.grid.y);
  mapping.map(launch.getGridSize().z, h.grid.z);
  mapping.map(launch.getBlockSize().x, h.block.x);
  mapping.map(launch.getBlockSize().y, h.block.y);
  mapping.map(launch.getBlockSize().z, h.block.z);
  for (auto [arg, buffer] :
       llvm::zip_equal(launch.getWorkgroupAttributions(), h.shared))
    mapping.map(arg, buffer);
  return mapping;
}

/// Phase `p` of one thread: the values of earlier phases loaded from the
/// thread's slot, the phase's ops cloned, its carried values stored.
static void emitThreadPhase(OpBuilder &b, Location loc, const HostLaunch &h,
                            unsigned p, IRMapping &mapping, Value tx, Value ty,
                            Value tz) {
  // The thread's slot in the carried buffers.
  Value plane = arith::MulIOp::create(b, loc, h.block.x, h.block.y);
  Value zOffset = arith::MulIOp::create(b, loc, tz, plane);
  Value yOffset = arith::MulIOp::create(b, loc, ty, h.block.x);
  Value zyOffset = arith::AddIOp::create(b, loc, zOffset, yOffset);
  Value slot = arith::AddIOp::create(b, loc, zyOffset, tx);
  for (auto [value, buffer] : h.carried) {
    Operation *def = value.getDefiningOp();
    if (h.phaseOf.lookup(def) >= p)
      continue;
    Value loaded = memref::LoadOp::create(b, loc, buffer, ValueRange{slot});
    mapping.map(value, loaded);
  }
  for (Operation *op : h.phases[p])
    b.clone(*op, mapping);
  for (auto [value, buffer] : h.carried)
    if (h.phaseOf.lookup(value.getDefiningOp()) == p)
      memref::StoreOp::create(b, loc, mapping.lookup(value), buffer,
                              ValueRange{slot});
}

static LogicalResult runOnHost(OpBuilder &b, gpu::LaunchOp launch) {
  if (!launch.getPrivateAttributions().empty())
    return launch.emitError("private attributions cannot run on the host");
  HostLaunch h;
  h.launch = launch;
  h.body = &launch.getBody().front();
  if (failed(splitPhases(h)))
    return failure();

  Location loc = launch.getLoc();
  b.setInsertionPoint(launch);
  h.grid = launch.getGridSizeOperandValues();
  h.block = launch.getBlockSizeOperandValues();
  Value blockPlane = arith::MulIOp::create(b, loc, h.block.x, h.block.y);
  Value threads = arith::MulIOp::create(b, loc, blockPlane, h.block.z);
  if (failed(allocateCarried(b, loc, h, threads)))
    return failure();
  // Workgroup memory: one buffer, used by the blocks one after the other.
  // The launch's buffers are on the heap, freed after it: on the stack, a
  // function with many launches would keep them all.
  for (BlockArgument arg : launch.getWorkgroupAttributions()) {
    MemRefType hostType = inHostMemory(cast<MemRefType>(arg.getType()));
    h.shared.push_back(memref::AllocOp::create(b, loc, hostType));
  }

  buildLoops3(
      b, loc, h.grid,
      [&](OpBuilder &gb, Location gloc, Value bx, Value by, Value bz) {
        for (unsigned p = 0, e = h.phases.size(); p < e; ++p)
          buildLoops3(gb, gloc, h.block,
                      [&](OpBuilder &tb, Location tloc, Value tx, Value ty,
                          Value tz) {
                        IRMapping mapping = mapIds(h, bx, by, bz, tx, ty, tz);
                        emitThreadPhase(tb, tloc, h, p, mapping, tx, ty, tz);
                      });
      });
  for (Value buffer : h.shared)
    memref::DeallocOp::create(b, loc, buffer);
  for (auto [value, buffer] : h.carried)
    memref::DeallocOp::create(b, loc, buffer);
  launch.erase();
  return success();
}

/// The synchronous GPU operation `op` of a host function, on the host.
static void hostOperation(OpBuilder &b, Operation *op) {
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
    Value buffer = memref::AllocOp::create(
        b, loc, alloc.getType(), alloc.getDynamicSizes(),
        alloc.getSymbolOperands(), b.getI64IntegerAttr(64));
    alloc.getMemref().replaceAllUsesWith(buffer);
  } else if (auto free = dyn_cast<gpu::DeallocOp>(op)) {
    memref::DeallocOp::create(b, loc, free.getMemref());
  } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
    memref::CopyOp::create(b, loc, copy.getSrc(), copy.getDst());
  } else if (auto set = dyn_cast<gpu::MemsetOp>(op)) {
    // nd fills 1-D buffers only.
    Value dst = set.getDst();
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value size = memref::DimOp::create(b, loc, dst, 0);
    scf::ForOp::create(b, loc, zero, size, one, ValueRange{},
                       [&](OpBuilder &nb, Location nloc, Value i, ValueRange) {
                         memref::StoreOp::create(nb, nloc, set.getValue(), dst,
                                                 ValueRange{i});
                         scf::YieldOp::create(nb, nloc);
                       });
  }
  op->erase();
}

namespace {
struct NdGPURunOnHostPass
    : public mlir::nd::impl::NdGPURunOnHostBase<NdGPURunOnHostPass> {
  using Base::Base;


  void runOnOperation() override {
    OpBuilder b(&getContext());
    cuda::expandErrorRecordsOnHost(getOperation());
    SmallVector<gpu::LaunchOp> launches;
    SmallVector<Operation *> operations;
    getOperation().walk([&](Operation *op) {
      if (auto launch = dyn_cast<gpu::LaunchOp>(op))
        launches.push_back(launch);
      else if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp,
                   gpu::WaitOp>(op))
        operations.push_back(op);
    });
    for (Operation *op : operations) {
      if (auto async = dyn_cast<gpu::AsyncOpInterface>(op);
          async && async.getAsyncToken() && !isa<gpu::WaitOp>(op)) {
        op->emitError("asynchronous GPU operations cannot run on the host");
        return signalPassFailure();
      }
      if (isa<gpu::WaitOp>(op)) {
        if (op->getNumResults() && !op->getResult(0).use_empty()) {
          op->emitError("asynchronous GPU operations cannot run on the host");
          return signalPassFailure();
        }
        op->erase();
        continue;
      }
      if (op->getParentOfType<gpu::LaunchOp>())
        continue;
      hostOperation(b, op);
    }
    for (gpu::LaunchOp launch : launches)
      if (failed(runOnHost(b, launch)))
        return signalPassFailure();
  }
};
} // namespace
