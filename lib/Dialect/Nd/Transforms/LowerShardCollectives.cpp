//===- LowerShardCollectives.cpp - collectives MLIR 22 cannot convert ----===//
//
// `--nd-lower-shard-collectives`: `shard.all_slice` and `shard.all_gather`,
// which `shard-partition` inserts to reshard values and which MLIR 22's
// `convert-shard-to-mpi` does not convert, become ops that it does:
// `all_slice` with upstream's own patterns (the process's slice, no
// communication), `all_gather` as a bitwise-or all-reduce of zero-padded
// shards.
//
// Preconditions of the all_gather rewrite, checked before any IR is created
// (the pass reports an op that misses one and fails): the gathered result
// has a static shape and an element type that getBitsType maps to an integer
// MPI can reduce, and the grid exists.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"): its `convert-shard-to-mpi` converts neither `shard.all_slice`
// nor `shard.all_gather`, and leaves the collectives it cannot convert in
// place with exit status 0 (test/Shard/Upstream/shard-to-mpi-collectives.mlir).
// Retired by `convert-shard-to-mpi` converting both, which upstream main
// does since PRs #176438 (all_slice) and #177202, #178870, #180243
// (all_gather as `mpi.allgather`), all of January and February 2026, after
// the 22.x branch: LLVM 23 should retire the rewrites. The report of the
// collectives that have no MPI lowering stays for as long as
// `convert-shard-to-mpi` leaves them without failing.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/Passes.h"

#include "ShardUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDLOWERSHARDCOLLECTIVES
#include "nd/Dialect/Nd/Transforms/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// Why `op` cannot be rewritten into an all-reduce, or an empty string.
static std::string whyNotRewritable(shard::AllGatherOp op,
                                    SymbolTableCollection &symbolTables) {
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (!resultType.hasStaticShape() || !inputType.hasStaticShape())
    return "the gathered tensor must have a static shape";
  if (!getBitsType(resultType.getElementType())) {
    std::string why;
    llvm::raw_string_ostream os(why);
    os << "MPI cannot reduce the bits of element type "
       << resultType.getElementType()
       << " (integers of 8 to 64 bits and floats of 16 to 64 bits can)";
    return why;
  }
  shard::GridOp grid = shard::getGridOrNull(op, op.getGridAttr(), symbolTables);
  if (!grid)
    return "no grid " + op.getGrid().str();
  if (ShapedType::isDynamic(
          shard::collectiveProcessGroupSize(op.getGridAxes(), grid)))
    return "the grid axes have a dynamic size";
  return {};
}

namespace {
/// all_gather(x) = all_reduce<bitwise_or>(zeros with x inserted at the
/// process's offset), on the bits of the elements: each element of the
/// result is written by one process and is zero on every other one.
struct AllGatherToAllReduce : public OpRewritePattern<shard::AllGatherOp> {
  AllGatherToAllReduce(MLIRContext *ctx, SymbolTableCollection &symbolTables)
      : OpRewritePattern(ctx), symbolTables(symbolTables) {}

  LogicalResult matchAndRewrite(shard::AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    std::string why = whyNotRewritable(op, symbolTables);
    if (!why.empty())
      return rewriter.notifyMatchFailure(op, why);

    ImplicitLocOpBuilder b(op.getLoc(), rewriter);
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    Type elementType = resultType.getElementType();
    IntegerType bits = getBitsType(elementType);
    int64_t axis = op.getGatherAxis().getSExtValue();
    ArrayRef<shard::GridAxis> gridAxes = op.getGridAxes();

    Value process = shard::createProcessLinearIndex(op.getGrid(), gridAxes, b);
    Value shardSize =
        arith::ConstantIndexOp::create(b, inputType.getDimSize(axis));
    Value offset = arith::MulIOp::create(b, process, shardSize);

    Value shardBits = bitcastElements(b, op.getInput(), bits);
    Value empty = tensor::EmptyOp::create(b, resultType.getShape(), bits);
    Value zero = arith::ConstantIntOp::create(b, bits, 0);
    Value zeros = linalg::FillOp::create(b, zero, empty).getResult(0);
    int64_t rank = resultType.getRank();
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    offsets[axis] = offset;
    SmallVector<OpFoldResult> sizes =
        getAsIndexOpFoldResult(b.getContext(), inputType.getShape());
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    Value padded = tensor::InsertSliceOp::create(b, shardBits, zeros, offsets,
                                                 sizes, strides);
    Value reduced =
        shard::AllReduceOp::create(b, padded.getType(), op.getGrid(), gridAxes,
                                   padded, shard::ReductionKind::BitwiseOr);
    Value gathered = bitcastElements(b, reduced, elementType);
    rewriter.replaceOp(op, gathered);
    return success();
  }

  SymbolTableCollection &symbolTables;
};

struct NdLowerShardCollectivesPass
    : public nd::impl::NdLowerShardCollectivesBase<
          NdLowerShardCollectivesPass> {
  void runOnOperation() override {
    SymbolTableCollection symbolTables;
    RewritePatternSet patterns(&getContext());
    shard::populateAllSliceOpLoweringPatterns(patterns, symbolTables);
    populateAllGatherToAllReducePatterns(patterns, symbolTables);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();

    // What is left would pass convert-shard-to-mpi unconverted: it reports
    // such ops but does not fail.
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (auto allGather = dyn_cast<shard::AllGatherOp>(op)) {
        allGather.emitOpError("cannot be lowered: ")
            << whyNotRewritable(allGather, symbolTables);
        return WalkResult::interrupt();
      }
      if (isa<shard::AllToAllOp, shard::BroadcastOp, shard::GatherOp,
              shard::RecvOp, shard::ReduceOp, shard::ReduceScatterOp,
              shard::ScatterOp, shard::SendOp, shard::ShiftOp>(op)) {
        op->emitOpError("has no lowering to MPI in MLIR 22 "
                        "(convert-shard-to-mpi converts all_reduce, halo "
                        "updates and the process index ops; nd adds "
                        "all_slice and all_gather)");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void mlir::nd::populateAllGatherToAllReducePatterns(
    RewritePatternSet &patterns, SymbolTableCollection &symbolTables) {
  patterns.add<AllGatherToAllReduce>(patterns.getContext(), symbolTables);
}
