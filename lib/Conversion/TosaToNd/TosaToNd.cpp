//===- TosaToNd.cpp - tosa.gather/scatter to nd ops -----------------------===//
//
// `tosa.gather` (values [N,K,C], indices [N,W] -> [N,W,C]) is
// `nd.gather_nd` with batch_dims 1 on the indices reshaped to [N,W,1].
//
// `tosa.scatter` (values_in [N,K,C], indices [N,W], input [N,W,C]) is
// `nd.scatter_nd` on values_in with the index tuples (n, indices[n,w]) and
// input as the updates; with a static N of 1 the batch dim is reshaped away
// instead and the indices, reshaped to [W,1], are the tuples.
//
// Preconditions, checked before any IR is created (a pattern does not match
// an op that misses one; the pass reports the op and why): ranked tensors,
// an element type nd supports, and a result type compatible with the
// inferred one, where a gather's extra static sizes are checked by nd at run
// time and a scatter's result may not be more static than values_in.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/TosaToNd/TosaToNd.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "nd/Conversion/ConvertToNd/ConvertToNdUtils.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

#include <limits>

namespace mlir::nd {
#define GEN_PASS_DEF_CONVERTTOSATOND
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// `type` with its last dim split off as a unit dim: [N,W] -> [N,W,1].
static RankedTensorType withTrailingUnitDim(RankedTensorType type) {
  SmallVector<int64_t> shape(type.getShape());
  shape.push_back(1);
  return RankedTensorType::get(shape, type.getElementType());
}

/// The type nd gives a tosa.gather's result: the inferred type, made more
/// static by the declared one (nd checks those sizes at run time).
static std::optional<RankedTensorType> gatherResultType(tosa::GatherOp op) {
  auto valuesType = cast<RankedTensorType>(op.getValues().getType());
  auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
  FailureOr<RankedTensorType> inferred = GatherNDOp::inferResultType(
      valuesType, withTrailingUnitDim(indicesType), /*batchDims=*/1,
      /*emitError=*/nullptr);
  if (failed(inferred))
    return std::nullopt;
  return joinTypes(*inferred, cast<RankedTensorType>(op.getType()));
}

static Unconvertible whyUnconvertible(tosa::GatherOp op) {
  if (Unconvertible reason =
          checkNdDataType(op.getValues().getType(), "values"))
    return reason;
  if (Unconvertible reason =
          checkIndicesType(op.getIndices().getType(), "indices"))
    return reason;
  if (Unconvertible reason = checkNdDataType(op.getType(), "output"))
    return reason;
  // The TOSA verifier rejects these first.
  if (!gatherResultType(op))
    return std::string("the shapes of 'values' and 'indices' do not give the "
                       "shape of 'output'");
  return std::nullopt;
}

static Unconvertible whyUnconvertible(tosa::ScatterOp op) {
  if (Unconvertible reason =
          checkNdDataType(op.getValuesIn().getType(), "values_in"))
    return reason;
  if (Unconvertible reason =
          checkIndicesType(op.getIndices().getType(), "indices"))
    return reason;
  if (Unconvertible reason = checkNdDataType(op.getInput().getType(), "input"))
    return reason;
  if (Unconvertible reason =
          checkNdDataType(op.getValuesOut().getType(), "values_out"))
    return reason;
  return checkScatterResultType(
      cast<RankedTensorType>(op.getValuesOut().getType()),
      cast<RankedTensorType>(op.getValuesIn().getType()), "values_in");
}

static Unconvertible whyUnconvertibleOp(Operation *op) {
  if (auto gather = dyn_cast<tosa::GatherOp>(op))
    return whyUnconvertible(gather);
  if (auto scatter = dyn_cast<tosa::ScatterOp>(op))
    return whyUnconvertible(scatter);
  return std::nullopt;
}

/// The tuples (n, indices[n,w]) of shape [N,W,2]. Their element type is that
/// of `indices`, or i64 where i32 might not hold every n.
static Value buildBatchTuples(OpBuilder &b, Location loc, Value indices) {
  auto indicesType = cast<RankedTensorType>(indices.getType());
  Type element = indicesType.getElementType();
  int64_t batch = indicesType.getDimSize(0);
  bool batchFitsI32 = !ShapedType::isDynamic(batch) &&
                      batch - 1 <= std::numeric_limits<int32_t>::max();
  if (element.isInteger(32) && !batchFitsI32)
    element = b.getI64Type();

  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, indices);
  sizes.push_back(b.getIndexAttr(2));
  Value init = tensor::EmptyOp::create(b, loc, sizes, element);
  MLIRContext *ctx = b.getContext();
  AffineMap byPosition = AffineMap::get(
      3, 0, {getAffineDimExpr(0, ctx), getAffineDimExpr(1, ctx)}, ctx);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(3, ctx);
  SmallVector<utils::IteratorType> iterators(3, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), ValueRange{indices}, ValueRange{init},
      ArrayRef<AffineMap>{byPosition, identity}, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value n = linalg::IndexOp::create(nested, nestedLoc, 0);
        Value component = linalg::IndexOp::create(nested, nestedLoc, 2);
        Value zero = arith::ConstantIndexOp::create(nested, nestedLoc, 0);
        Value isBatch = arith::CmpIOp::create(
            nested, nestedLoc, arith::CmpIPredicate::eq, component, zero);
        Value batchIndex =
            arith::IndexCastOp::create(nested, nestedLoc, element, n);
        Value index = args[0];
        if (index.getType() != element)
          index = arith::ExtSIOp::create(nested, nestedLoc, element, index);
        Value tupleValue = arith::SelectOp::create(nested, nestedLoc, isBatch,
                                                   batchIndex, index);
        linalg::YieldOp::create(nested, nestedLoc, tupleValue);
      });
  return generic->getResult(0);
}

namespace {
/// `tosa.gather` -> expand_shape indices + `nd.gather_nd` batch_dims(1).
struct GatherToNd : ToNdPattern<tosa::GatherOp> {
  explicit GatherToNd(MLIRContext *context)
      : ToNdPattern(context, whyUnconvertible) {}

  Value convert(tosa::GatherOp op, Location loc,
                PatternRewriter &rewriter) const override {
    auto indicesType = cast<RankedTensorType>(op.getIndices().getType());
    Value indices = reshapeUnitDims(rewriter, loc, op.getIndices(),
                                    withTrailingUnitDim(indicesType));
    RankedTensorType resultType = *gatherResultType(op);
    Value gathered =
        GatherNDOp::create(rewriter, loc, resultType, op.getValues(), indices,
                           /*batch_dims=*/1)
            .getResult();
    return castIfNeeded(rewriter, loc, gathered, op.getType());
  }
};

/// `tosa.scatter` -> (n, index) tuples + `nd.scatter_nd`; with N == 1,
/// reshapes + `nd.scatter_nd`.
struct ScatterToNd : ToNdPattern<tosa::ScatterOp> {
  explicit ScatterToNd(MLIRContext *context)
      : ToNdPattern(context, whyUnconvertible) {}

  Value convert(tosa::ScatterOp op, Location loc,
                PatternRewriter &rewriter) const override {
    Value valuesIn = op.getValuesIn();
    Value indices = op.getIndices();
    Value input = op.getInput();
    auto valuesInType = cast<RankedTensorType>(valuesIn.getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    auto inputType = cast<RankedTensorType>(input.getType());

    Value result;
    if (valuesInType.getDimSize(0) == 1 && indicesType.getDimSize(0) == 1 &&
        inputType.getDimSize(0) == 1) {
      // One batch: [K,C] data, [W,1] tuples, [W,C] updates, no copy.
      auto dropBatch = [](RankedTensorType type) {
        return RankedTensorType::get(type.getShape().drop_front(),
                                     type.getElementType());
      };
      Value data =
          reshapeUnitDims(rewriter, loc, valuesIn, dropBatch(valuesInType));
      Value tuples = reshapeUnitDims(
          rewriter, loc, indices, withTrailingUnitDim(dropBatch(indicesType)));
      Value updates =
          reshapeUnitDims(rewriter, loc, input, dropBatch(inputType));
      Value scattered = ScatterNDOp::create(rewriter, loc, data.getType(), data,
                                            tuples, updates)
                            .getResult();
      result = reshapeUnitDims(rewriter, loc, scattered, valuesInType);
    } else {
      Value tuples = buildBatchTuples(rewriter, loc, indices);
      result = ScatterNDOp::create(rewriter, loc, valuesInType, valuesIn,
                                   tuples, input)
                   .getResult();
    }
    return castIfNeeded(rewriter, loc, result, op.getType());
  }
};

struct ConvertTosaToNdPass
    : public nd::impl::ConvertTosaToNdBase<ConvertTosaToNdPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateTosaToNdPatterns(patterns);
    bool converted = false;
    if (failed(convertToNd<tosa::GatherOp, tosa::ScatterOp>(
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

void mlir::nd::populateTosaToNdPatterns(RewritePatternSet &patterns) {
  patterns.add<GatherToNd, ScatterToNd>(patterns.getContext());
}
