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

void lowering::outlineChecked(LoweringState &state, Operation *op,
                              ValueRange operands,
                              ConversionPatternRewriter &rewriter,
                              CheckedBodyFn body) {
  state.outline(rewriter, op, operands,
                [&](OpBuilder &b, Location loc, ValueRange args) {
                  LoweringState::CheckChain chain(state, b, loc, op);
                  state.checkShapes(chain, args);
                  buildIf(b, loc, chain.ok(), [&](OpBuilder &nb, Location nloc) {
                    body(nb, nloc, args);
                  });
                });
}

void lowering::outlineGather(LoweringState &state, Operation *op,
                             ValueRange operands,
                             ConversionPatternRewriter &rewriter,
                             GatherFn gather) {
  outlineChecked(state, op, operands, rewriter,
                 [&](OpBuilder &b, Location loc, ValueRange args) {
                   gather(b, loc, args[0], args[1], args[2]);
                 });
}

LogicalResult lowering::outlineScatter(LoweringState &state, Operation *op,
                                       ReductionKind reduction,
                                       ValueRange operands,
                                       ConversionPatternRewriter &rewriter,
                                       ScatterFn scatter) {
  auto dataType = cast<MemRefType>(op->getOperand(0).getType());
  if (!isSupportedReduction(reduction, dataType.getElementType()))
    return rewriter.notifyMatchFailure(
        op, "reduction is not supported for this element type");
  bool inPlace = updatesInPlace(op);
  outlineChecked(state, op, operands, rewriter,
                 [&](OpBuilder &b, Location loc, ValueRange args) {
                   scatter(b, loc, args[0], args[1], args[2], inPlace);
                 });
  return success();
}
