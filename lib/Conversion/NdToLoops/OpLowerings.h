//===- OpLowerings.h - the lowering patterns of the nd ops ------*- C++ -*-===//
//
// Internal to the NdToLoops library: each op's lowering lives in a file of
// its own and adds its pattern through one of the functions below; the
// patterns of one pass run share one LoweringState. What the patterns of
// several ops share is in OpLowerings.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_OPLOWERINGS_H
#define ND_LIB_CONVERSION_NDTOLOOPS_OPLOWERINGS_H

#include "LoweringState.h"

#include "mlir/Transforms/DialectConversion.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

#include <memory>

namespace mlir::nd::lowering {

/// A conversion pattern of an nd op sharing the pass run's LoweringState.
template <typename OpTy>
class NdLoweringPattern : public OpConversionPattern<OpTy> {
public:
  NdLoweringPattern(MLIRContext *ctx, std::shared_ptr<LoweringState> state)
      : OpConversionPattern<OpTy>(ctx), state(std::move(state)) {}

protected:
  std::shared_ptr<LoweringState> state;
};

//===----------------------------------------------------------------------===//
// The outlined, checked skeleton of the patterns
//===----------------------------------------------------------------------===//

/// The body of an outlined op, built where its shape checks hold: the
/// function's arguments are the op's operands.
using CheckedBodyFn = function_ref<void(OpBuilder &, Location, ValueRange)>;

/// Outlines `op` (LoweringState::outline): its function checks the op's
/// shape constraints that are left to run time (LoweringState::checkShapes)
/// and, where they hold, runs `body`.
void outlineChecked(LoweringState &state, Operation *op, ValueRange operands,
                    ConversionPatternRewriter &rewriter, CheckedBodyFn body);

/// How a gather gathers, from `data` at `indices` into `into`.
using GatherFn = function_ref<void(OpBuilder &, Location, Value, Value, Value)>;

/// The pattern of a gather on buffers of `data` at `indices` into `into` (its
/// operands, in that order: gather_nd, gather_elements, gather): outlines
/// the op (outlineChecked) with `gather(data, indices, into)` for a body.
void outlineGather(LoweringState &state, Operation *op, ValueRange operands,
                   ConversionPatternRewriter &rewriter, GatherFn gather);

/// How a scatter scatters (into `data`, in place, whether or not `inPlace`:
/// see checkedApply).
using ScatterFn =
    function_ref<void(OpBuilder &, Location, Value, Value, Value, bool)>;

/// The pattern of an op on buffers that updates `data` with `updates` at
/// `indices` (its operands, in that order: scatter_nd, scatter_elements)
/// under `reduction`: fails to match where the element type does not support
/// the reduction; otherwise outlines the op (outlineChecked) with
/// `scatter(data, indices, updates, inPlace)` for a body, `inPlace` unless
/// the op's destination is `disposable`.
LogicalResult outlineScatter(LoweringState &state, Operation *op,
                             ReductionKind reduction, ValueRange operands,
                             ConversionPatternRewriter &rewriter,
                             ScatterFn scatter);

/// Whether a scatter on buffers must leave its destination as it was when a
/// check fails: unless its destination is `disposable`.
bool updatesInPlace(Operation *op);

/// The pattern of an nd op on buffers (the form the lowering takes; on
/// tensors the op goes through OnTensors.cpp first): the subclass outlines it.
template <typename OpTy>
class NdBufferPattern : public NdLoweringPattern<OpTy> {
public:
  using NdLoweringPattern<OpTy>::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(OpTy op, typename OpTy::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const final {
    if (!isOnBuffers(op))
      return rewriter.notifyMatchFailure(op, "expects an op on buffers");
    return outline(op, adaptor.getOperands(), rewriter);
  }

protected:
  virtual LogicalResult outline(OpTy op, ValueRange operands,
                                ConversionPatternRewriter &rewriter) const = 0;
};

/// The pattern of a gather (gather_nd, gather_elements, gather): outlines
/// it (outlineGather) with the subclass's `gather` for a body.
template <typename OpTy>
class NdGatherPattern : public NdBufferPattern<OpTy> {
public:
  using NdBufferPattern<OpTy>::NdBufferPattern;

protected:
  /// Gathers from `data` at `indices` into `into` (the outlined function's
  /// arguments, in the op's map order).
  virtual void gather(OpBuilder &b, Location loc, OpTy op, Value data,
                      Value indices, Value into) const = 0;

private:
  LogicalResult outline(OpTy op, ValueRange operands,
                        ConversionPatternRewriter &rewriter) const final {
    auto body = [&](OpBuilder &b, Location loc, Value data, Value indices,
                    Value into) { gather(b, loc, op, data, indices, into); };
    outlineGather(*this->state, op, operands, rewriter, body);
    return success();
  }
};

/// The pattern of a scatter that updates `data` with `updates` at `indices`
/// under its reduction (scatter_nd, scatter_elements): outlines it
/// (outlineScatter) with the subclass's `scatter` for a body.
template <typename OpTy>
class NdScatterPattern : public NdBufferPattern<OpTy> {
public:
  using NdBufferPattern<OpTy>::NdBufferPattern;

protected:
  /// Updates `data` with `updates` at `indices` (the outlined function's
  /// arguments), in place whether or not `inPlace` (see checkedApply).
  virtual void scatter(OpBuilder &b, Location loc, OpTy op, Value data,
                       Value indices, Value updates, bool inPlace) const = 0;

private:
  LogicalResult outline(OpTy op, ValueRange operands,
                        ConversionPatternRewriter &rewriter) const final {
    auto body = [&](OpBuilder &b, Location loc, Value data, Value indices,
                    Value updates, bool inPlace) {
      scatter(b, loc, op, data, indices, updates, inPlace);
    };
    return outlineScatter(*this->state, op, op.getReduction(), operands,
                          rewriter, body);
  }
};

//===----------------------------------------------------------------------===//
// The patterns, one file each
//===----------------------------------------------------------------------===//

/// GatherND.cpp, GatherElements.cpp, Gather.cpp, ScatterND.cpp,
/// ScatterElements.cpp, TensorScatter.cpp.
void populateGatherNDLowering(RewritePatternSet &patterns,
                              std::shared_ptr<LoweringState> state);
void populateGatherElementsLowering(RewritePatternSet &patterns,
                                    std::shared_ptr<LoweringState> state);
void populateGatherLowering(RewritePatternSet &patterns,
                            std::shared_ptr<LoweringState> state);
void populateScatterNDLowering(RewritePatternSet &patterns,
                               std::shared_ptr<LoweringState> state);
void populateScatterElementsLowering(RewritePatternSet &patterns,
                                     std::shared_ptr<LoweringState> state);
void populateTensorScatterLowering(RewritePatternSet &patterns,
                                   std::shared_ptr<LoweringState> state);

/// OnTensors.cpp: each op on tensors as its form on buffers, on a buffer of
/// its own, which the patterns above then lower.
void populateOnTensorsLowering(RewritePatternSet &patterns);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_OPLOWERINGS_H
