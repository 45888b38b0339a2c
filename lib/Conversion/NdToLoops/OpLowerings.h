//===- OpLowerings.h - the lowering patterns of the nd ops ------*- C++ -*-===//
//
// Internal to the NdToLoops library: each op's lowering lives in a file of
// its own and adds its pattern through one of the functions below; the
// patterns of one pass run share one LoweringState.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_OPLOWERINGS_H
#define ND_LIB_CONVERSION_NDTOLOOPS_OPLOWERINGS_H

#include "LoweringState.h"

#include "mlir/Transforms/DialectConversion.h"

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
