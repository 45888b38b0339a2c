//===- CheckDimIndices.cpp - constant dim indices in range ------*- C++ -*-===//
//
// `--nd-check-dim-indices` (first in nd's bufferization, so in nd-to-llvm
// and nd-to-gpu): a `tensor.dim` or
// `memref.dim` whose index is a constant outside the rank of its ranked
// operand is an error, before any canonicalization sees it.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"): with the GPU dialect loaded, the canonicalizer runs the GPU
// dialect's `memref.dim` pattern (`SimplifyDimOfAllocOp`, GPUDialect.cpp),
// which asks the type whether the dim is dynamic before checking the index
// and crashes on a negative one (llvm-project issue #205073). nd-to-gpu's
// canonicalizer meets the `memref.dim` that bufferization makes of a
// `tensor.dim`; nd-to-llvm's, the same once a module holds a GPU op. Retired by
// PR #205338 (June 2026, after the 22.x branch), which checks the index first:
// LLVM 23.
//
//===----------------------------------------------------------------------===//

#include "nd/Bridges/Bridges.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDCHECKDIMINDICES
#include "nd/Bridges/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;

/// Checks the constant index `index` of the dim op `op` of `source`.
static LogicalResult checkIndex(Operation *op, Value source,
                                std::optional<int64_t> index) {
  auto type = dyn_cast<ShapedType>(source.getType());
  if (!index || !type || !type.hasRank())
    return success();
  if (*index >= 0 && *index < type.getRank())
    return success();
  return op->emitOpError() << "index " << *index
                           << " is out of range for an operand of rank "
                           << type.getRank()
                           << " (nd's pipelines reject it: MLIR 22's "
                              "canonicalizer crashes on it)";
}

namespace {
struct NdCheckDimIndicesPass
    : public nd::impl::NdCheckDimIndicesBase<NdCheckDimIndicesPass> {
  void runOnOperation() override {
    bool bad = false;
    getOperation().walk([&](Operation *op) {
      if (auto dim = dyn_cast<tensor::DimOp>(op))
        bad |= failed(checkIndex(op, dim.getSource(), dim.getConstantIndex()));
      else if (auto dim = dyn_cast<memref::DimOp>(op))
        bad |= failed(checkIndex(op, dim.getSource(), dim.getConstantIndex()));
    });
    if (bad)
      return signalPassFailure();
    // The pass only checks: the IR it leaves needs no verification again.
    markAllAnalysesPreserved();
  }
};
} // namespace
