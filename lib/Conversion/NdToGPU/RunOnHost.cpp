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
// reported at each return (ErrorRecord.h).
//
// Preconditions: kernels are `gpu.launch` regions (not outlined); the GPU
// operations of host functions are synchronous.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToGPU/NdToGPU.h"

#include "ErrorRecord.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDGPURUNONHOST
#include "nd/Conversion/Passes.h.inc"
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

static LogicalResult runOnHost(OpBuilder &b, gpu::LaunchOp launch) {
  if (!launch.getPrivateAttributions().empty())
    return launch.emitError("private attributions cannot run on the host");
  Block &body = launch.getBody().front();
  // Phases: ranges of top-level ops between barriers.
  DenseMap<Operation *, unsigned> phaseOf;
  SmallVector<SmallVector<Operation *>> phases(1);
  for (Operation &op : body.without_terminator()) {
    if (isa<gpu::BarrierOp>(op)) {
      phases.emplace_back();
      continue;
    }
    phaseOf[&op] = phases.size() - 1;
    phases.back().push_back(&op);
  }
  WalkResult nested = launch.getBody().walk([&](gpu::BarrierOp barrier) {
    if (barrier->getBlock() != &body)
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (nested.wasInterrupted())
    return launch.emitError("a barrier inside a nested region cannot run on "
                            "the host");

  Location loc = launch.getLoc();
  b.setInsertionPoint(launch);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  Value threads = arith::MulIOp::create(
      b, loc, arith::MulIOp::create(b, loc, block.x, block.y), block.z);

  // Values carried from one phase to a later one, in per-thread buffers.
  llvm::MapVector<Value, Value> carried;
  for (unsigned p = 0, e = phases.size(); p < e; ++p) {
    for (Operation *op : phases[p]) {
      for (Value result : op->getResults()) {
        bool later = llvm::any_of(result.getUsers(), [&](Operation *user) {
          Operation *top = topLevel(body, user);
          return top && phaseOf.lookup(top) > p;
        });
        if (!later)
          continue;
        Type type = result.getType();
        if (!type.isIntOrIndexOrFloat() && !isa<VectorType>(type))
          return op->emitError("a value of type ")
                 << type << " carried across a barrier cannot run on the host";
        auto bufferType = MemRefType::get({ShapedType::kDynamic}, type);
        carried[result] =
            memref::AllocOp::create(b, loc, bufferType, ValueRange{threads});
      }
    }
  }
  // Workgroup memory: one buffer, used by the blocks one after the other.
  // The launch's buffers are on the heap, freed after it: on the stack, a
  // function with many launches would keep them all.
  SmallVector<Value> shared;
  for (BlockArgument arg : launch.getWorkgroupAttributions())
    shared.push_back(memref::AllocOp::create(
        b, loc, inHostMemory(cast<MemRefType>(arg.getType()))));

  buildLoops3(
      b, loc, grid,
      [&](OpBuilder &gb, Location gloc, Value bx, Value by, Value bz) {
        for (unsigned p = 0, e = phases.size(); p < e; ++p) {
          ArrayRef<Operation *> ops = phases[p];
          buildLoops3(
              gb, gloc, block,
              [&](OpBuilder &tb, Location tloc, Value tx, Value ty, Value tz) {
                IRMapping mapping;
                mapping.map(launch.getBlockIds().x, bx);
                mapping.map(launch.getBlockIds().y, by);
                mapping.map(launch.getBlockIds().z, bz);
                mapping.map(launch.getThreadIds().x, tx);
                mapping.map(launch.getThreadIds().y, ty);
                mapping.map(launch.getThreadIds().z, tz);
                mapping.map(launch.getGridSize().x, grid.x);
                mapping.map(launch.getGridSize().y, grid.y);
                mapping.map(launch.getGridSize().z, grid.z);
                mapping.map(launch.getBlockSize().x, block.x);
                mapping.map(launch.getBlockSize().y, block.y);
                mapping.map(launch.getBlockSize().z, block.z);
                for (auto [arg, buffer] :
                     llvm::zip_equal(launch.getWorkgroupAttributions(), shared))
                  mapping.map(arg, buffer);
                // The thread's slot in the carried buffers.
                Value plane = arith::MulIOp::create(tb, tloc, block.x, block.y);
                Value zOffset = arith::MulIOp::create(tb, tloc, tz, plane);
                Value yOffset = arith::MulIOp::create(tb, tloc, ty, block.x);
                Value zyOffset =
                    arith::AddIOp::create(tb, tloc, zOffset, yOffset);
                Value slot = arith::AddIOp::create(tb, tloc, zyOffset, tx);
                for (auto [value, buffer] : carried) {
                  Operation *def = value.getDefiningOp();
                  if (phaseOf.lookup(def) >= p)
                    continue;
                  Value loaded = memref::LoadOp::create(tb, tloc, buffer,
                                                        ValueRange{slot});
                  mapping.map(value, loaded);
                }
                for (Operation *op : ops)
                  tb.clone(*op, mapping);
                for (auto [value, buffer] : carried)
                  if (phaseOf.lookup(value.getDefiningOp()) == p)
                    memref::StoreOp::create(tb, tloc, mapping.lookup(value),
                                            buffer, ValueRange{slot});
              });
        }
      });
  for (Value buffer : shared)
    memref::DeallocOp::create(b, loc, buffer);
  for (auto [value, buffer] : carried)
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
    gpu_lowering::expandErrorRecordsOnHost(getOperation());
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
