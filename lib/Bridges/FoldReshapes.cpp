//===- FoldReshapes.cpp - fold a buffer's collapse and expansion -*- C++
//-*-===//
//
// `--nd-fold-reshapes` (after one-shot bufferization): a row scatter views
// its destination as `[rows, row]` (`collapse_shape`) and gives it back in
// its own shape (`expand_shape`). Upstream's folder turns the pair back into
// the buffer only where no group has two dynamic dims; here the output sizes
// are compared with the buffer's own, so that the op's function returns the
// buffer it was given whatever its dynamic dims. What is left of
// `expand_shape` with a group of several dynamic dims becomes a
// `reinterpret_cast` (MLIR 22's expand-strided-metadata crashes on it).
//
// Bridge over two gaps of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"; test/Conversion/NdToLLVM/Upstream):
// - the fold: upstream's reshape folder (`foldReshapeOp` in
//   ReshapeOpsUtils.h, behind `memref.expand_shape`'s folder) gives up on a
//   group with two dynamic dims. Retired once it compares the expansion's
//   `output_shape` with the source's own sizes; upstream main does not yet
//   (PR #179209, February 2026, made the neighbouring expand-of-collapse to
//   cast fold stricter on dynamic dims and names this case as future work);
// - the reinterpret_cast: `expand-strided-metadata` crashes on an
//   `expand_shape` with several dynamic dims in a group (upstream issue
//   #186830). Retired by PR #187844 (March 2026, after the 22.x branch),
//   which computes the sizes and strides from `output_shape`: LLVM 23.
//
//===----------------------------------------------------------------------===//

#include "nd/Bridges/Bridges.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDFOLDRESHAPES
#include "nd/Bridges/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;

/// Whether `size` is the size of dim `d` of `buffer`: the static size, or
/// `memref.dim buffer, d`.
static bool isDimOf(OpFoldResult size, Value buffer, int64_t d) {
  auto type = cast<MemRefType>(buffer.getType());
  if (std::optional<int64_t> constant = getConstantIntValue(size))
    return !type.isDynamicDim(d) && *constant == type.getDimSize(d);
  auto dim = cast<Value>(size).getDefiningOp<memref::DimOp>();
  if (!dim || dim.getSource() != buffer)
    return false;
  std::optional<int64_t> index = getConstantIntValue(dim.getIndex());
  return index && *index == d;
}

namespace {
/// `expand_shape(collapse_shape(x))` with the same groups, back to `x`'s
/// type and sizes, is `x`.
struct FoldExpandOfCollapse : public OpRewritePattern<memref::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::ExpandShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto collapse = op.getSrc().getDefiningOp<memref::CollapseShapeOp>();
    if (!collapse)
      return failure();
    Value source = collapse.getSrc();
    if (source.getType() != op.getType() ||
        collapse.getReassociationIndices() != op.getReassociationIndices())
      return failure();
    SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
    for (auto [d, size] : llvm::enumerate(sizes))
      if (!isDimOf(size, source, static_cast<int64_t>(d)))
        return failure();
    rewriter.replaceOp(op, source);
    return success();
  }
};

/// An `expand_shape` with a group of several dynamic dims as a
/// `reinterpret_cast` of its source: within a group, each dim's stride is
/// the next one's times its size, the last one's the source dim's stride.
struct ExpandToReinterpretCast
    : public OpRewritePattern<memref::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::ExpandShapeOp op,
                                PatternRewriter &rewriter) const override {
    MemRefType type = op.getResultType();
    SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
    bool severalDynamic = llvm::any_of(groups, [&](const auto &g) {
      return llvm::count_if(
                 g, [&](int64_t d) { return type.isDynamicDim(d); }) > 1;
    });
    if (!severalDynamic)
      return failure();
    Location loc = op.getLoc();
    auto meta =
        memref::ExtractStridedMetadataOp::create(rewriter, loc, op.getSrc());
    SmallVector<OpFoldResult> sizes = op.getMixedOutputShape();
    SmallVector<OpFoldResult> strides(type.getRank());
    for (auto [j, group] : llvm::enumerate(groups)) {
      OpFoldResult stride = meta.getStrides()[j];
      for (int64_t d : llvm::reverse(group)) {
        strides[d] = stride;
        Value strideValue =
            getValueOrCreateConstantIndexOp(rewriter, loc, stride);
        Value sizeValue =
            getValueOrCreateConstantIndexOp(rewriter, loc, sizes[d]);
        stride =
            rewriter.createOrFold<arith::MulIOp>(loc, strideValue, sizeValue);
      }
    }
    // The result type's layout may be more static than the strides here.
    SmallVector<int64_t> dynamicStrides(type.getRank(), ShapedType::kDynamic);
    auto layout = StridedLayoutAttr::get(rewriter.getContext(),
                                         ShapedType::kDynamic, dynamicStrides);
    auto castType = MemRefType::get(type.getShape(), type.getElementType(),
                                    layout, type.getMemorySpace());
    OpFoldResult offset = meta.getOffset();
    Value view = memref::ReinterpretCastOp::create(
        rewriter, loc, castType, meta.getBaseBuffer(), offset, sizes, strides);
    rewriter.replaceOpWithNewOp<memref::CastOp>(op, type, view);
    return success();
  }
};

struct NdFoldReshapesPass
    : public mlir::nd::impl::NdFoldReshapesBase<NdFoldReshapesPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet folds(ctx);
    folds.add<FoldExpandOfCollapse>(ctx);
    scf::IfOp::getCanonicalizationPatterns(folds, ctx);
    bool folded = false, cast = false;
    if (failed(applyPatternsGreedily(getOperation(), std::move(folds),
                                     GreedyRewriteConfig(), &folded)))
      return signalPassFailure();
    RewritePatternSet casts(ctx);
    casts.add<ExpandToReinterpretCast>(ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(casts),
                                     GreedyRewriteConfig(), &cast)))
      return signalPassFailure();
    // Unchanged IR need not be verified again.
    if (!folded && !cast)
      markAllAnalysesPreserved();
  }
};
} // namespace
