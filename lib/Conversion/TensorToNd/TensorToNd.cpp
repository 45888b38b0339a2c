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
// Preconditions, checked before any IR is created (a pattern does not match
// an op that misses one; the pass reports the op and why): the element type
// is one of nd's, the indices are at most 64 bits wide, and a scatter's
// result type is `dest`'s type or a less static one.
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

static Unconvertible whyUnconvertibleOp(Operation *op) {
  if (auto gather = dyn_cast<tensor::GatherOp>(op))
    return whyUnconvertible(gather);
  if (auto scatter = dyn_cast<tensor::ScatterOp>(op))
    return whyUnconvertible(scatter);
  return std::nullopt;
}

namespace {
/// The operands of the nd op replacing a gather from, or a scatter into,
/// `tensor` at the dims `dims`.
struct NdOperands {
  /// How `tensor` is permuted into `data`.
  SmallVector<int64_t> permutation;
  /// `tensor` with the addressed dims first.
  Value data;
  /// The indices in a type nd takes.
  Value indices;
  /// The rank-reduced slices: `indices.shape[:-1] ++ <the other dims>`.
  RankedTensorType slicesType;
};
} // namespace

static NdOperands buildNdOperands(OpBuilder &b, Location loc, Value tensor,
                                  Value indices, ArrayRef<int64_t> dims) {
  auto tensorType = cast<RankedTensorType>(tensor.getType());
  auto indicesType = cast<RankedTensorType>(indices.getType());
  NdOperands operands;
  operands.permutation = addressedDimsFirst(dims, tensorType.getRank());
  operands.data = permuteDims(b, loc, tensor, operands.permutation);
  operands.indices = extendIndicesForNd(b, loc, indices);
  // The slices of a scatter have the type of the rank-reduced gather result.
  operands.slicesType = tensor::GatherOp::inferResultType(
      tensorType, indicesType, dims, /*rankReduced=*/true);
  return operands;
}

namespace {
/// `tensor.gather` -> [permute source] + `nd.gather_nd` [+ expand_shape].
struct GatherToNd : ToNdPattern<tensor::GatherOp> {
  explicit GatherToNd(MLIRContext *context)
      : ToNdPattern(context, whyUnconvertible) {}

  Value convert(tensor::GatherOp op, Location loc,
                PatternRewriter &rewriter) const override {
    NdOperands nd = buildNdOperands(rewriter, loc, op.getSource(),
                                    op.getIndices(), op.getGatherDims());
    Value gathered =
        GatherNDOp::create(rewriter, loc, nd.slicesType, nd.data, nd.indices)
            .getResult();
    return reshapeUnitDims(rewriter, loc, gathered, op.getResultType());
  }
};

/// `tensor.scatter` -> [permute dest] + [collapse_shape source] +
/// `nd.scatter_nd` [+ permute back] [+ cast].
struct ScatterToNd : ToNdPattern<tensor::ScatterOp> {
  explicit ScatterToNd(MLIRContext *context)
      : ToNdPattern(context, whyUnconvertible) {}

  Value convert(tensor::ScatterOp op, Location loc,
                PatternRewriter &rewriter) const override {
    NdOperands nd = buildNdOperands(rewriter, loc, op.getDest(),
                                    op.getIndices(), op.getScatterDims());
    // The verifier made `source` the slices type or its rank-preserving
    // version.
    Value updates =
        reshapeUnitDims(rewriter, loc, op.getSource(), nd.slicesType);
    Value scattered = ScatterNDOp::create(rewriter, loc, nd.data.getType(),
                                          nd.data, nd.indices, updates)
                          .getResult();
    SmallVector<int64_t> inverse = invertPermutationVector(nd.permutation);
    Value result = permuteDims(rewriter, loc, scattered, inverse);
    return castIfNeeded(rewriter, loc, result, op.getResultType());
  }
};

struct ConvertTensorToNdPass
    : public nd::impl::ConvertTensorToNdBase<ConvertTensorToNdPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTensorToNdPatterns(patterns);
    bool converted = false;
    if (failed(convertToNd<tensor::GatherOp, tensor::ScatterOp>(
            getOperation(), std::move(patterns), whyUnconvertibleOp,
            &converted)))
      return signalPassFailure();
    // Nothing to convert: the IR is as it was, and the pass manager need not
    // verify it again.
    if (!converted)
      markAllAnalysesPreserved();
  }
};
} // namespace

void mlir::nd::populateTensorToNdPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherToNd, ScatterToNd>(patterns.getContext());
}
