//===- VerifyOp.h - Verify an imported op, keeping the messages -*- C++ -*-===//
//
// The importers build each op only after checking its operands, then run
// the op's verifier once more; what it reports belongs to the node or layer
// of the model the op came from, so its messages are collected rather than
// emitted at the op.
//
//===----------------------------------------------------------------------===//

#ifndef ND_TARGET_VERIFYOP_H
#define ND_TARGET_VERIFYOP_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Verifier.h"

#include <string>

namespace mlir {
namespace nd {

/// Verifies `op`. The error messages of the verifier are appended to
/// `messages` (separated by "; ") instead of being emitted.
inline LogicalResult verifyCollectingErrors(Operation *op,
                                            std::string &messages) {
  ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    if (!messages.empty())
      messages += "; ";
    messages += diag.str();
    return success();
  });
  return mlir::verify(op);
}

} // namespace nd
} // namespace mlir

#endif // ND_TARGET_VERIFYOP_H
