//===- OpLowerings.cpp - what several op lowerings share --------*- C++ -*-===//
//
// See OpLowerings.h.
//
//===----------------------------------------------------------------------===//

#include "OpLowerings.h"

#include "Parallel.h"
#include "Scalars.h"


using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

bool lowering::updatesInPlace(Operation *op) {
  return !cast<IterationSpaceOpInterface>(op).isDisposable();
}

void lowering::outlineGather(LoweringState &state, Operation *op,
                             ValueRange operands,
                             ConversionPatternRewriter &rewriter,
                             CheckGatherDimsFn checkDims, GatherFn gather) {
  state.outline(rewriter, op, operands,
                [&](OpBuilder &b, Location loc, ValueRange args) {
                  Value data = args[0], indices = args[1], into = args[2];
                  LoweringState::CheckChain chain(state, b, loc, op);
                  checkDims(chain, data, indices, into);
                  buildIf(b, loc, chain.ok(), [&](OpBuilder &nb, Location nloc) {
                    gather(nb, nloc, data, indices, into);
                  });
                });
}

LogicalResult lowering::outlineScatter(LoweringState &state, Operation *op,
                                       ReductionKind reduction,
                                       ValueRange operands,
                                       ConversionPatternRewriter &rewriter,
                                       CheckScatterDimsFn checkDims,
                                       ScatterFn scatter) {
  auto dataType = cast<MemRefType>(op->getOperand(0).getType());
  if (!isSupportedReduction(reduction, dataType.getElementType()))
    return rewriter.notifyMatchFailure(
        op, "reduction is not supported for this element type");
  bool inPlace = updatesInPlace(op);
  state.outline(rewriter, op, operands,
                [&](OpBuilder &b, Location loc, ValueRange args) {
                  Value data = args[0], indices = args[1], updates = args[2];
                  LoweringState::CheckChain chain(state, b, loc, op);
                  checkDims(chain, data, indices, updates);
                  buildIf(b, loc, chain.ok(), [&](OpBuilder &nb, Location nloc) {
                    scatter(nb, nloc, data, indices, updates, inPlace);
                  });
                });
  return success();
}
