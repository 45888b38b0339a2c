//===- Compare.h - Comparing host tensors -----------------------*- C++ -*-===//
//
// The tolerance-based comparison that checks results against expected
// outputs (nd-run --expect, nd-tensor-tool compare).
//
//===----------------------------------------------------------------------===//

#ifndef ND_RUNNER_COMPARE_H
#define ND_RUNNER_COMPARE_H

#include "nd/Runner/HostTensor.h"

#include "llvm/Support/Error.h"

#include <optional>

namespace mlir {
namespace nd {

/// Tolerances of `compare`; unset fields take the per-dtype defaults
/// (f32/f64/complex: rtol 1e-5, atol 1e-6; f16: rtol 1e-3, atol 1e-5; bf16:
/// rtol 1e-2, atol 1e-5).
struct CompareOptions {
  std::optional<double> rtol;
  std::optional<double> atol;
};

/// Checks that `actual` matches `expected`: same dtype and shape, integers
/// and bools exactly, floating-point and complex elements within
/// `|a - e| <= atol + rtol * |e|` (NaN matches NaN, infinities match
/// themselves). On a mismatch the error names the first differing
/// multi-dimensional index, both values and the number of differing elements.
llvm::Error compare(const HostTensor &actual, const HostTensor &expected,
                    const CompareOptions &options = {});

} // namespace nd
} // namespace mlir

#endif // ND_RUNNER_COMPARE_H
