//===- TensorToNd.h - tensor.gather/scatter to nd ops -----------*- C++ -*-===//

#ifndef ND_CONVERSION_TENSORTOND_TENSORTOND_H
#define ND_CONVERSION_TENSORTOND_TENSORTOND_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace nd {

#define GEN_PASS_DECL_CONVERTTENSORTOND
#include "nd/Conversion/Passes.h.inc"

/// Populates `patterns` with the conversions of `tensor.gather` to
/// `nd.gather_nd` and of `tensor.scatter` to `nd.scatter_nd` (plus the
/// transposes, reshapes and index extensions they need). A pattern that
/// cannot convert its op (unsupported element or index type, see
/// `--convert-tensor-to-nd`) fails to match and creates no IR.
void populateTensorToNdPatterns(RewritePatternSet &patterns);

} // namespace nd
} // namespace mlir

#endif // ND_CONVERSION_TENSORTOND_TENSORTOND_H
