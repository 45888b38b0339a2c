//===- ShareReadBuffers.cpp - one buffer per read-only tensor ---*- C++ -*-===//
//
// `--nd-share-read-buffers` (before bufferization): the nd ops read tensors
// that nothing may write through one shared buffer each, and a scatter into
// such a tensor updates a copy (see the pass description in Passes.td).
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDSHAREREADBUFFERS
#include "nd/Dialect/Nd/Transforms/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// Whether nothing may write the buffer of `value`: a constant, or an
/// argument of a function that bufferization may not write
/// (`bufferization.writable = false`, as --nd-donation marks every argument
/// not donated).
static bool isNeverWritten(Value value) {
  if (value.getDefiningOp<arith::ConstantOp>())
    return true;
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto function = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!function)
    return false;
  auto writable = function.getArgAttrOfType<BoolAttr>(
      arg.getArgNumber(),
      bufferization::BufferizationDialect::kWritableAttrName);
  return writable && !writable.getValue();
}

namespace {
/// The shared buffers of one function, made where their tensors are
/// defined.
class SharedBuffers {
public:
  Value get(OpBuilder &b, Value tensor) {
    Value &buffer = buffers[tensor];
    if (buffer)
      return buffer;
    OpBuilder::InsertionGuard guard(b);
    if (auto arg = dyn_cast<BlockArgument>(tensor))
      b.setInsertionPointToStart(arg.getOwner());
    else
      b.setInsertionPointAfter(tensor.getDefiningOp());
    auto type = cast<RankedTensorType>(tensor.getType());
    auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
    buffer = bufferization::ToBufferOp::create(b, tensor.getLoc(), bufferType,
                                               tensor, /*read_only=*/true);
    return buffer;
  }

private:
  llvm::DenseMap<Value, Value> buffers;
};
} // namespace

/// A fresh, writable tensor holding a copy of the shared buffer `shared`:
/// the destination of a scatter into a tensor that nothing may write.
static Value copyOf(OpBuilder &b, Location loc, Value shared,
                    RankedTensorType type) {
  SmallVector<Value> sizes;
  for (auto [d, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      sizes.push_back(memref::DimOp::create(b, loc, shared, d));
  auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
  Value copy = memref::AllocOp::create(b, loc, bufferType, sizes,
                                       b.getI64IntegerAttr(64));
  memref::CopyOp::create(b, loc, shared, copy);
  return bufferization::ToTensorOp::create(b, loc, type, copy,
                                           /*restrict=*/true,
                                           /*writable=*/true);
}

namespace {
struct NdShareReadBuffersPass
    : public mlir::nd::impl::NdShareReadBuffersBase<NdShareReadBuffersPass> {
  void runOnOperation() override {
    OpBuilder b(&getContext());
    getOperation().walk([&](func::FuncOp function) {
      SharedBuffers shared;
      function.walk([&](IterationSpaceOpInterface op) {
        if (isOnBuffers(op))
          return;
        auto dps = dyn_cast<DestinationStyleOpInterface>(op.getOperation());
        for (OpOperand &operand : op->getOpOperands()) {
          Value value = operand.get();
          if (!isa<RankedTensorType>(value.getType()) || !isNeverWritten(value))
            continue;
          Value buffer = shared.get(b, value);
          if (dps && dps.isDpsInit(&operand)) {
            b.setInsertionPoint(op);
            operand.set(copyOf(b, op->getLoc(), buffer,
                               cast<RankedTensorType>(value.getType())));
            continue;
          }
          operand.set(buffer);
        }
      });
    });
  }
};
} // namespace
