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

/// How a gather finds the dynamic dims of its result, checks its dims (the
/// dims `data` and `indices` have at run time) and gathers.
using GatherSizesFn =
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value)>;
using CheckGatherDimsFn =
    function_ref<void(LoweringState::CheckChain &, Value, Value)>;
using GatherFn =
    function_ref<Value(OpBuilder &, Location, Value, Value, ValueRange)>;

/// The pattern of a gather of `data` at `indices` (its converted operands,
/// in that order: gather_nd, gather_elements, gather): outlines the op. Its
/// function takes the result's dynamic dims from `resultSizes`, checks the
/// dims with `checkDims` and, where they hold, returns `gather(data,
/// indices, sizes)`, an empty tensor otherwise.
void outlineGather(LoweringState &state, Operation *op, ValueRange operands,
                   ConversionPatternRewriter &rewriter,
                   GatherSizesFn resultSizes, CheckGatherDimsFn checkDims,
                   GatherFn gather);

/// How a scatter checks its dims (the dims `data`, `indices` and `updates`
/// have at run time) and scatters (with the base pointer of the caller's
/// data last).
using CheckScatterDimsFn =
    function_ref<void(LoweringState::CheckChain &, Value, Value, Value)>;
using ScatterFn =
    function_ref<Value(OpBuilder &, Location, Value, Value, Value, Value)>;

/// The pattern of an op that updates `data` with `updates` at `indices`
/// (its converted operands, in that order: scatter_nd, scatter_elements)
/// under `reduction`: fails to match where the element type does not support
/// the reduction; otherwise outlines the op, its data passed with its base
/// pointer (see basePointer). The function checks the dims with `checkDims`
/// and, where they hold, returns `scatter(data, indices, updates,
/// dataPointer)`, data as it was otherwise.
LogicalResult outlineScatter(LoweringState &state, Operation *op,
                             ReductionKind reduction, ValueRange operands,
                             ConversionPatternRewriter &rewriter,
                             CheckScatterDimsFn checkDims, ScatterFn scatter);

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

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_OPLOWERINGS_H
