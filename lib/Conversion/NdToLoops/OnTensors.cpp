//===- OnTensors.cpp - the nd ops on tensors, on buffers of their own -----===//
//
// `--lower-scatter` on the programs users write: an nd op on tensors becomes
// its form on buffers, which the patterns of the other files then lower, in
// the same conversion. The op reads each tensor operand through
// `bufferization.to_buffer read_only` and works on a buffer of its own,
// allocated here: a gather's `into`, and a copy of a scatter's destination
// (`data`, `past_cache`), which the scatter updates as a `disposable` buffer
// (nothing else sees it, so it checks its indices a block at a time, just
// before the block's writes). That buffer
// is the op's result, through `bufferization.to_tensor restrict writable`:
// the rest of the program stays on tensors, in the form one-shot
// bufferization (run by --nd-to-llvm after it) takes. Value semantics hold
// without an analysis of the program; the price is a copy per scatter, which
// bufferizing first (--nd-to-llvm alone does) avoids where the destination
// may be updated in place.
//
// Preconditions: the op verifies. An operand already on a buffer (a read
// operand of --nd-share-read-buffers) is used as it is.
//
//===----------------------------------------------------------------------===//

#include "OpLowerings.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

/// The alignment of the buffers allocated here: one-shot bufferization's
/// default, so that a gather's result may take streaming stores alike.
static constexpr int64_t kBufferAlignment = 64;

/// The identity-layout buffer type of the tensor type `type`.
static MemRefType getBufferType(Type type) {
  auto tensorType = cast<RankedTensorType>(type);
  return MemRefType::get(tensorType.getShape(), tensorType.getElementType());
}

/// The buffers `op` reads its operands from: each tensor operand through a
/// read-only buffer, each buffer operand as it is.
static SmallVector<Value> readOperands(OpBuilder &b, Operation *op) {
  SmallVector<Value> buffers;
  for (Value operand : op->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType())) {
      buffers.push_back(operand);
      continue;
    }
    Value buffer = bufferization::ToBufferOp::create(
        b, op->getLoc(), getBufferType(operand.getType()), operand,
        /*read_only=*/true);
    buffers.push_back(buffer);
  }
  return buffers;
}

/// A fresh buffer of `type` whose dims are `sizes`.
static Value allocate(OpBuilder &b, Location loc, MemRefType type,
                      ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(sizes)) {
    if (!type.isDynamicDim(dim))
      continue;
    Value value = getValueOrCreateConstantIndexOp(b, loc, size);
    dynamicSizes.push_back(value);
  }
  IntegerAttr alignment = b.getI64IntegerAttr(kBufferAlignment);
  return memref::AllocOp::create(b, loc, type, dynamicSizes, alignment);
}

/// The buffer a scatter on tensors updates: a copy of its destination's,
/// which replaces it in `buffers`.
static Value copyDestination(OpBuilder &b, Operation *op,
                             SmallVectorImpl<Value> &buffers) {
  auto dps = cast<DestinationStyleOpInterface>(op);
  unsigned position = dps.getDpsInitOperand(0)->getOperandNumber();
  Value source = buffers[position];
  Location loc = op->getLoc();
  SmallVector<OpFoldResult> sizes = memref::getMixedSizes(b, loc, source);
  MemRefType type = getBufferType(op->getResult(0).getType());
  Value copy = allocate(b, loc, type, sizes);
  memref::CopyOp::create(b, loc, source, copy);
  buffers[position] = copy;
  return copy;
}

/// The buffer a gather on tensors writes, its `into`, appended to `buffers`.
static Value allocateResult(OpBuilder &b, Operation *op,
                            ArrayRef<OpFoldResult> resultSizes,
                            SmallVectorImpl<Value> &buffers) {
  MemRefType type = getBufferType(op->getResult(0).getType());
  Value into = allocate(b, op->getLoc(), type, resultSizes);
  buffers.push_back(into);
  return into;
}

namespace {
/// An nd op on tensors: its form on buffers, on a buffer of its own.
template <typename OpTy>
struct OnTensorsPattern : public OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (isOnBuffers(op))
      return rewriter.notifyMatchFailure(op, "expects an op on tensors");
    constexpr bool isScatter =
        OpTy::template hasTrait<DestinationStyleOpInterface::Trait>();
    // A gather's result dims, from its operands' (the op's own rules).
    ReifiedRankedShapedTypeDims resultShapes;
    if (!isScatter && failed(reifyResultShapes(rewriter, op, resultShapes)))
      return rewriter.notifyMatchFailure(op, "cannot reify the result dims");
    SmallVector<Value> buffers = readOperands(rewriter, op);
    Value result;
    if constexpr (isScatter)
      result = copyDestination(rewriter, op, buffers);
    else
      result = allocateResult(rewriter, op, resultShapes.front(), buffers);
    Operation *onBuffers = mlir::clone(rewriter, op, TypeRange{}, buffers);
    if constexpr (isScatter)
      cast<OpTy>(onBuffers).setDisposable(true);
    rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
        op, op->getResult(0).getType(), result, /*restrict=*/true,
        /*writable=*/true);
    return success();
  }
};
} // namespace

void lowering::populateOnTensorsLowering(RewritePatternSet &patterns) {
  patterns.add<OnTensorsPattern<ScatterNDOp>, OnTensorsPattern<GatherNDOp>,
               OnTensorsPattern<ScatterElementsOp>,
               OnTensorsPattern<GatherElementsOp>, OnTensorsPattern<GatherOp>,
               OnTensorsPattern<TensorScatterOp>>(patterns.getContext());
}
