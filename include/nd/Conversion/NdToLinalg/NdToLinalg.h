//===- NdToLinalg.h - lower nd ops to upstream dialects ---------*- C++ -*-===//

#ifndef ND_CONVERSION_NDTOLINALG_NDTOLINALG_H
#define ND_CONVERSION_NDTOLINALG_NDTOLINALG_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace nd {

#define GEN_PASS_DECL_LOWERSCATTER
#include "nd/Conversion/Passes.h.inc"

/// Options of the nd lowering patterns.
struct NdLoweringOptions {
  /// Check every index component and every dynamic dimension the verifier
  /// could not check at run time; a failed check prints a message to stderr
  /// and exits with status 1.
  bool checkBounds = true;
};

/// Populates `patterns` with the conversions of the four nd ops to linalg,
/// scf, tensor, arith and complex. With `checkBounds`, the patterns insert the
/// error-reporting helper and its messages into the enclosing module, so they
/// must be applied from a pass anchored on the module.
void populateNdToLinalgPatterns(RewritePatternSet &patterns,
                                const NdLoweringOptions &options = {});

} // namespace nd
} // namespace mlir

#endif // ND_CONVERSION_NDTOLINALG_NDTOLINALG_H
