//===- BufferizableOpInterfaceImpl.cpp - bufferizing nd ops -----*- C++ -*-===//
//
// Upstream's BufferizableOpInterface for the six nd ops, so that one-shot
// bufferization takes modules that mix nd ops with linalg, tensor and scf
// ops, and decides where each nd op works:
//
// - a scatter reads and writes its destination operand (`data`,
//   `past_cache`). The analysis updates it in place where the tensor is not
//   read later and may be written (a function argument only when donated,
//   see --nd-donation), and otherwise copies it once (`alloc_tensor copy`).
//   The scatter on buffers updates the buffer it is given, and the result is
//   that buffer. To the analysis the result is a new buffer rather than one
//   equivalent to the destination: sound, since an in-place destination is
//   never read after the op (the analysis made sure of that before writing
//   it in place), and it keeps the alias sets one op long. Declared as
//   equivalent (as upstream's destination-style ops are), a chain of N
//   scatters, each on the previous result, forms one alias set of N values
//   that the analysis compares read by write for every op: a chain of 1,000
//   took 97 s to bufferize, against a fraction of a second. Inside a loop
//   (a tiled program's), the result is the destination's equivalent, as
//   the loop's carried values need;
// - a gather reads its operands and allocates its result, which the gather
//   on buffers writes (`into`).
//
// A scatter whose destination is a fresh buffer (an allocation of the
// function: a copy the analysis made, the result of a gather, or a view of
// one) is marked `disposable`: nothing outside the call sees that buffer, so
// a failed run-time check may leave it partly updated, and the lowering
// checks the index values as it writes instead of in a pass of its own. An
// update of any other buffer (a donated argument, a loop's iteration
// argument) checks every index before it writes, so that a failed call
// leaves the buffer as it was.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/BufferizableOpInterfaceImpl.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::bufferization;

/// Whether `buffer` is memory the function allocated itself (possibly seen
/// through views): nothing outside a call sees it.
static bool isFreshBuffer(Value buffer) {
  while (Operation *def = buffer.getDefiningOp()) {
    if (isa<memref::AllocOp, memref::AllocaOp>(def))
      return true;
    if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
      buffer = view.getViewSource();
      continue;
    }
    if (auto cast = dyn_cast<memref::CastOp>(def)) {
      buffer = cast.getSource();
      continue;
    }
    // The buffer of a tensor bufferized earlier (a gather's result, seen
    // by the op that uses it before the casts fold away), or of an
    // allocation not bufferized yet.
    if (auto toBuffer = dyn_cast<ToBufferOp>(def)) {
      Operation *tensorDef = toBuffer.getTensor().getDefiningOp();
      if (isa_and_nonnull<AllocTensorOp>(tensorDef))
        return true;
      auto toTensor = dyn_cast_or_null<ToTensorOp>(tensorDef);
      if (!toTensor)
        return false;
      buffer = toTensor.getBuffer();
      continue;
    }
    return false;
  }
  return false;
}

/// The buffers of every operand of `op`.
static FailureOr<SmallVector<Value>>
getOperandBuffers(Operation *op, RewriterBase &rewriter,
                  const BufferizationOptions &options,
                  BufferizationState &state) {
  SmallVector<Value> buffers;
  for (Value operand : op->getOperands()) {
    // An operand read through a buffer already (--nd-share-read-buffers).
    if (isa<MemRefType>(operand.getType())) {
      buffers.push_back(operand);
      continue;
    }
    FailureOr<Value> buffer = getBuffer(rewriter, operand, options, state);
    if (failed(buffer))
      return failure();
    buffers.push_back(*buffer);
  }
  return buffers;
}

namespace {
/// A scatter: it reads and writes its destination operand, where the
/// analysis decides whether that is the destination's own buffer (in place)
/// or a copy of it; its result is that buffer, which the analysis sees as a
/// new one at a function's top level (see the file header: a chain of
/// scatters then forms no alias set longer than one op), and as the
/// destination's own inside a loop.
template <typename OpTy>
struct ScatterBufferizationModel
    : public BufferizableOpInterface::ExternalModel<
          ScatterBufferizationModel<OpTy>, OpTy> {
  static bool isDestination(Operation *op, OpOperand &operand) {
    return cast<DestinationStyleOpInterface>(op).isDpsInit(&operand);
  }

  /// Whether the op is inside a loop, whose loop-carried values need a
  /// scatter's result equivalent to its destination (a loop's yield must be
  /// its iteration argument's buffer: tiling makes such loops).
  static bool inLoop(Operation *op) {
    return static_cast<bool>(op->getParentOfType<LoopLikeOpInterface>());
  }

  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &state) const {
    return true;
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &state) const {
    return isDestination(op, operand);
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &state) const {
    if (!isDestination(op, operand) || !inLoop(op))
      return {};
    return {{op->getResult(0), BufferRelation::Equivalent}};
  }

  bool bufferizesToAllocation(Operation *op, Value value) const {
    return !inLoop(op);
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> buffers =
        getOperandBuffers(op, rewriter, options, state);
    if (failed(buffers))
      return failure();
    auto dps = cast<DestinationStyleOpInterface>(op);
    Value destination =
        (*buffers)[dps.getDpsInitOperand(0)->getOperandNumber()];
    Operation *onBuffers = mlir::clone(rewriter, op, TypeRange{}, *buffers);
    if (isFreshBuffer(destination))
      cast<IterationSpaceOpInterface>(onBuffers).setDisposable();
    replaceOpWithBufferizedValues(rewriter, op, destination);
    return success();
  }
};

/// A gather: reads its operands, allocates its result.
template <typename OpTy>
struct GatherBufferizationModel
    : public BufferizableOpInterface::ExternalModel<
          GatherBufferizationModel<OpTy>, OpTy> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &operand,
                              const AnalysisState &state) const {
    return true;
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &operand,
                               const AnalysisState &state) const {
    return false;
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &operand,
                                      const AnalysisState &state) const {
    return {};
  }

  bool bufferizesToAllocation(Operation *op, Value value) const {
    return true;
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    FailureOr<SmallVector<Value>> buffers =
        getOperandBuffers(op, rewriter, options, state);
    if (failed(buffers))
      return failure();
    FailureOr<Value> allocation =
        allocateTensorForShapedValue(rewriter, op->getLoc(), op->getResult(0),
                                     options, state, /*copy=*/false);
    if (failed(allocation))
      return failure();
    FailureOr<Value> into = getBuffer(rewriter, *allocation, options, state);
    if (failed(into))
      return failure();
    buffers->push_back(*into);
    mlir::clone(rewriter, op, TypeRange{}, *buffers);
    // The allocation may know a dim the result type leaves dynamic (its
    // size folded to a constant): the result is the buffer as that type.
    Value result = *into;
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto intoType = cast<MemRefType>(result.getType());
    auto declaredType = MemRefType::get(resultType.getShape(),
                                        resultType.getElementType(),
                                        intoType.getLayout(),
                                        intoType.getMemorySpace());
    if (declaredType != intoType)
      result = memref::CastOp::create(rewriter, op->getLoc(), declaredType,
                                      result);
    replaceOpWithBufferizedValues(rewriter, op, result);
    return success();
  }
};
} // namespace

template <typename... OpTys>
static void attachScatterModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<ScatterBufferizationModel<OpTys>>(*ctx),
   ...);
}

template <typename... OpTys>
static void attachGatherModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<GatherBufferizationModel<OpTys>>(*ctx),
   ...);
}

void mlir::nd::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NdDialect *) {
    // What the ops on buffers and their allocations are built from.
    ctx->loadDialect<bufferization::BufferizationDialect,
                     memref::MemRefDialect>();
    attachScatterModels<ScatterNDOp, ScatterElementsOp, TensorScatterOp>(ctx);
    attachGatherModels<GatherNDOp, GatherElementsOp, GatherOp>(ctx);
  });
}
