//===- TensorToNd.cpp - tensor.gather/scatter to nd ops -------------------===//
//
// `tensor.gather` becomes `nd.gather_nd` and `tensor.scatter` becomes
// `nd.scatter_nd` (batch_dims 0, reduction none).
//
// Both upstream ops address the dims listed in `gather_dims` /
// `scatter_dims` (strictly increasing, checked by their verifiers) with the
// k-tuples in the last dim of `indices`, while nd's ops address the leading k
// dims. The source (gather) or destination (scatter) is therefore permuted so
// that the addressed dims come first, in order, followed by the others in
// theirs; the slices then come out (gather) or go in (scatter) in the
// rank-reduced layout `indices.shape[:-1] ++ <other dims>`, which nd uses and
// which the rank-preserving form reaches by a copy-free reshape.
//
// Preconditions (checked before any IR is created; the pass reports the
// others): the element type is one of nd's, the indices are at most 64 bits
// wide, and a scatter's result type is `dest`'s type or a less static one.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/TensorToNd/TensorToNd.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Transforms/DialectConversion.h"
#include "nd/Conversion/ConvertToNd/ConvertToNdUtils.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

namespace mlir::nd {
#define GEN_PASS_DEF_CONVERTTENSORTOND
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// The permutation that puts the addressed dims `dims` (strictly increasing)
/// first and the other dims of a rank-`rank` tensor after them, each in
/// order.
static SmallVector<int64_t> addressedDimsFirst(ArrayRef<int64_t> dims,
                                               int64_t rank) {
  SmallVector<int64_t> permutation(dims);
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      permutation.push_back(d);
  return permutation;
}

static Unconvertible whyUnconvertible(tensor::GatherOp op) {
  if (Unconvertible reason = checkNdDataType(op.getSourceType(), "source"))
    return reason;
  return checkIndicesType(op.getIndicesType(), "indices");
}

static Unconvertible whyUnconvertible(tensor::ScatterOp op) {
  if (Unconvertible reason = checkNdDataType(op.getDestType(), "dest"))
    return reason;
  if (Unconvertible reason = checkIndicesType(op.getIndicesType(), "indices"))
    return reason;
  // The verifier leaves the result type unchecked; the op's documentation
  // says it is dest's type.
  return checkScatterResultType(op.getResultType(), op.getDestType(), "dest");
}

static Unconvertible whyUnconvertible(Operation *op) {
  if (auto gather = dyn_cast<tensor::GatherOp>(op))
    return whyUnconvertible(gather);
  if (auto scatter = dyn_cast<tensor::ScatterOp>(op))
    return whyUnconvertible(scatter);
  return std::nullopt;
}

namespace {
/// `tensor.gather` -> [permute source] + `nd.gather_nd` [+ expand_shape].
struct GatherToNd : OpRewritePattern<tensor::GatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::GatherOp op,
                                PatternRewriter &rewriter) const override {
    if (Unconvertible reason = whyUnconvertible(op))
      return rewriter.notifyMatchFailure(op, *reason);
    Location loc = getReplacementLoc(op);
    RankedTensorType sourceType = op.getSourceType();
    ArrayRef<int64_t> dims = op.getGatherDims();
    SmallVector<int64_t> permutation =
        addressedDimsFirst(dims, sourceType.getRank());
    Value data = permuteDims(rewriter, loc, op.getSource(), permutation);
    Value indices = extendIndicesForNd(rewriter, loc, op.getIndices());
    RankedTensorType slicesType = tensor::GatherOp::inferResultType(
        sourceType, op.getIndicesType(), dims, /*rankReduced=*/true);
    Value gathered =
        GatherNDOp::create(rewriter, loc, slicesType, data, indices);
    Value result = reshapeUnitDims(rewriter, loc, gathered, op.getResultType());
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `tensor.scatter` -> [permute dest] + [collapse_shape source] +
/// `nd.scatter_nd` [+ permute back] [+ cast].
struct ScatterToNd : OpRewritePattern<tensor::ScatterOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ScatterOp op,
                                PatternRewriter &rewriter) const override {
    if (Unconvertible reason = whyUnconvertible(op))
      return rewriter.notifyMatchFailure(op, *reason);
    Location loc = getReplacementLoc(op);
    RankedTensorType destType = op.getDestType();
    ArrayRef<int64_t> dims = op.getScatterDims();
    SmallVector<int64_t> permutation =
        addressedDimsFirst(dims, destType.getRank());
    Value data = permuteDims(rewriter, loc, op.getDest(), permutation);
    Value indices = extendIndicesForNd(rewriter, loc, op.getIndices());
    // The verifier made `source` this type or its rank-preserving version.
    RankedTensorType slicesType = tensor::GatherOp::inferResultType(
        destType, op.getIndicesType(), dims, /*rankReduced=*/true);
    Value updates = reshapeUnitDims(rewriter, loc, op.getSource(), slicesType);
    Value scattered = ScatterNDOp::create(rewriter, loc, data.getType(), data,
                                          indices, updates);
    SmallVector<int64_t> inverse = invertPermutationVector(permutation);
    Value result = permuteDims(rewriter, loc, scattered, inverse);
    rewriter.replaceOp(op,
                       castIfNeeded(rewriter, loc, result, op.getResultType()));
    return success();
  }
};

struct ConvertTensorToNdPass
    : public nd::impl::ConvertTensorToNdBase<ConvertTensorToNdPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTensorToNdPatterns(patterns);
    FrozenRewritePatternSet frozen(std::move(patterns));
    ConversionTarget target(getContext());
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           NdDialect, tensor::TensorDialect>();
    target.addIllegalOp<tensor::GatherOp, tensor::ScatterOp>();
    if (failed(convertToNd(getOperation(), target, frozen,
                           [](Operation *op) { return whyUnconvertible(op); })))
      signalPassFailure();
  }
};
} // namespace

void mlir::nd::populateTensorToNdPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherToNd, ScatterToNd>(patterns.getContext());
}
