//===- DropEquivalentBufferResults.cpp - where there is a result -*- C++ -*-===//
//
// `--nd-drop-equivalent-buffer-results`: upstream's
// `drop-equivalent-buffer-results` on a module that has a private function
// with a body and a result, the only functions that pass changes (it leaves
// public and external ones as they are); any other module is left as it is.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"): before looking at any function, the upstream pass resolves the
// callee of every `func.call` of the module with
// `CallOpInterface::resolveCallable`, a lookup that scans the module's
// symbols: O(calls x symbols), seconds for 10,000 nd ops (calls of their
// functions) with 10,000 constant globals, even where nothing is dropped.
// Retired once the pass resolves callees through a SymbolTableCollection.
//
//===----------------------------------------------------------------------===//

#include "nd/Bridges/Bridges.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDDROPEQUIVALENTBUFFERRESULTS
#include "nd/Bridges/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;

/// Whether upstream's pass may change `module`: whether a function it looks
/// at (not public, with a body) has a result.
static bool hasCandidate(ModuleOp module) {
  return llvm::any_of(module.getOps<func::FuncOp>(), [](func::FuncOp f) {
    return !f.isPublic() && !f.isExternal() && f.getNumResults() > 0;
  });
}

namespace {
struct NdDropEquivalentBufferResultsPass
    : public mlir::nd::impl::NdDropEquivalentBufferResultsBase<
          NdDropEquivalentBufferResultsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (!hasCandidate(module))
      return markAllAnalysesPreserved();
    if (failed(bufferization::dropEquivalentBufferResults(module)))
      signalPassFailure();
  }
};
} // namespace
