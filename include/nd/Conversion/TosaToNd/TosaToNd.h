//===- TosaToNd.h - tosa.gather/scatter to nd ops ---------------*- C++ -*-===//

#ifndef ND_CONVERSION_TOSATOND_TOSATOND_H
#define ND_CONVERSION_TOSATOND_TOSATOND_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace nd {

#define GEN_PASS_DECL_CONVERTTOSATOND
#include "nd/Conversion/Passes.h.inc"

/// Populates `patterns` with the conversions of `tosa.gather` to
/// `nd.gather_nd` and of `tosa.scatter` to `nd.scatter_nd`. A pattern that
/// cannot convert its op (unranked tensors, unsupported element type, see
/// `--convert-tosa-to-nd`) fails to match and creates no IR.
void populateTosaToNdPatterns(RewritePatternSet &patterns);

} // namespace nd
} // namespace mlir

#endif // ND_CONVERSION_TOSATOND_TOSATOND_H
