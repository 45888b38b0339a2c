//===- Bridges.h - bridges over gaps of MLIR 22 -----------------*- C++ -*-===//
//
// The passes that stand in for something MLIR 22 lacks or does slowly, each
// to be deleted once the upstream change its file's banner names is in the
// MLIR nd builds against (docs/Rationale.md, "Bridges over gaps of MLIR
// 22"): the tensor constants' globals (--nd-bufferize-constants), the dropped
// buffer results (--nd-drop-equivalent-buffer-results), the deallocations'
// simplification (--nd-simplify-deallocations), the alloca scopes of OpenMP
// loop bodies (--nd-inline-alloca-scopes), the functions ahead of the globals
// for convert-to-llvm (--nd-functions-first, --nd-restore-order) and the
// constant dim indices checked before the GPU canonicalizer
// (--nd-check-dim-indices), a buffer's collapse and expansion folded back to
// the buffer (--nd-fold-reshapes) and bufferization's constant globals named
// and ordered by use (--nd-stable-constant-names). The bridges of the shard pipeline live with the
// shard passes (nd/Dialect/Nd/Transforms/Passes.h).
//
//===----------------------------------------------------------------------===//

#ifndef ND_BRIDGES_BRIDGES_H
#define ND_BRIDGES_BRIDGES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nd {

#define GEN_PASS_DECL
#include "nd/Bridges/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nd/Bridges/Passes.h.inc"

} // namespace mlir::nd

#endif // ND_BRIDGES_BRIDGES_H
