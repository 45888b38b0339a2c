//===- NdToLoops.h - lower nd ops to loops over buffers ---------*- C++ -*-===//

#ifndef ND_CONVERSION_NDTOLOOPS_NDTOLOOPS_H
#define ND_CONVERSION_NDTOLOOPS_NDTOLOOPS_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace nd {

#define GEN_PASS_DECL_LOWERSCATTER
#include "nd/Conversion/Passes.h.inc"

/// Options of the nd lowering patterns.
struct NdLoweringOptions {
  /// Check every index component and every dynamic dimension the verifier
  /// could not check at run time; a failed check hands a message to the
  /// host's reporter and the op writes nothing.
  bool checkBounds = true;
  /// Work (element moves) per partition below which an op does not split
  /// its work among threads.
  int64_t parallelGrain = 32768;
};

/// Populates `patterns` with the conversions of the six nd ops to tensor,
/// bufferization, memref, scf, vector, arith, math and complex ops, and the
/// ops of nd's run-time dialect (`nd_rt`: the thread count, reports, sites
/// and store fences, which `--convert-nd-runtime-to-llvm` lowers). The
/// patterns outline each distinct op into a private function of the
/// enclosing module, so they must be applied from a pass anchored on the
/// module.
void populateNdToLoopsPatterns(RewritePatternSet &patterns,
                                const NdLoweringOptions &options = {});

} // namespace nd
} // namespace mlir

#endif // ND_CONVERSION_NDTOLOOPS_NDTOLOOPS_H
