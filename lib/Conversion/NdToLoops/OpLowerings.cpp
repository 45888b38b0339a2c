//===- OpLowerings.cpp - what several op lowerings share --------*- C++ -*-===//
//
// See OpLowerings.h.
//
//===----------------------------------------------------------------------===//

#include "OpLowerings.h"

#include "Parallel.h"
#include "Reductions.h"
#include "Scalars.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

void lowering::outlineGather(LoweringState &state, Operation *op,
                             ValueRange operands,
                             ConversionPatternRewriter &rewriter,
                             GatherSizesFn resultSizes,
                             CheckGatherDimsFn checkDims, GatherFn gather) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  state.outline(rewriter, op, operands,
                [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
                  Value data = args[0], indices = args[1];
                  SmallVector<Value> sizes = resultSizes(b, loc, data, indices);
                  LoweringState::CheckChain chain(state, b, loc, op);
                  checkDims(chain, data, indices);
                  return buildIf(
                      b, loc, chain.ok(), resultType,
                      [&](OpBuilder &nb, Location nloc) {
                        return gather(nb, nloc, data, indices, sizes);
                      },
                      [&](OpBuilder &nb, Location nloc) -> Value {
                        return tensor::EmptyOp::create(nb, nloc, resultType,
                                                       sizes);
                      });
                });
}

LogicalResult lowering::outlineScatter(LoweringState &state, Operation *op,
                                       ReductionKind reduction,
                                       ValueRange operands,
                                       ConversionPatternRewriter &rewriter,
                                       CheckScatterDimsFn checkDims,
                                       ScatterFn scatter) {
  auto dataType = cast<RankedTensorType>(op->getOperand(0).getType());
  if (!isSupportedReduction(reduction, dataType.getElementType()))
    return rewriter.notifyMatchFailure(
        op, "reduction is not supported for this element type");
  // The caller's data buffer, to tell an in-place update from a copy.
  Value dataPointer = basePointer(rewriter, op->getLoc(), operands[0]);
  SmallVector<Value> callOperands = {operands[0], operands[1], operands[2],
                                     dataPointer};
  state.outline(rewriter, op, callOperands,
                [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
                  Value data = args[0], indices = args[1], updates = args[2];
                  LoweringState::CheckChain chain(state, b, loc, op);
                  checkDims(chain, data, indices, updates);
                  return buildIf(
                      b, loc, chain.ok(), dataType,
                      [&](OpBuilder &nb, Location nloc) {
                        return scatter(nb, nloc, data, indices, updates,
                                       args[3]);
                      },
                      [&](OpBuilder &, Location) { return data; });
                });
  return success();
}
