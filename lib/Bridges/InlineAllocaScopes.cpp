//===- InlineAllocaScopes.cpp - alloca scopes without allocations -*- C++ -*-===//
//
// `--nd-inline-alloca-scopes`: `convert-scf-to-openmp` wraps every loop body
// in a `memref.alloca_scope`, which must keep a single block: once
// `scf-to-cf` has turned the body's loops into blocks, a scope left in place
// is invalid IR. A scope whose body makes no stack allocation is inlined into
// its parent. Upstream's canonicalization does the same, but counts every
// call (and every op whose effects are unknown) as a possible allocation;
// calls (whose callees allocate in their own frames), nd's run-time ops
// (`nd_rt.store_fence` in loop bodies, the reports of failed checks: they
// read and write memory, like the calls they stand for) and
// nd-parallel-copy's `llvm.fence` allocate nothing and do not count here.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"; test/Conversion/NdToLLVM/Upstream): `convert-scf-to-openmp`
// wraps every loop body in a single-block scope, whether the body allocates
// on the stack or not, and `convert-scf-to-cf` then makes any scope the
// canonicalizer kept invalid ("expects region #0 to have 0 or 1 blocks").
// Upstream is right to count calls, which inlining can turn into stack
// allocations (upstream issue #197562): the fix belongs in
// `convert-scf-to-openmp`, which would add the scope only around bodies that
// allocate on the stack. Upstream main has not changed this as far as we
// found (onnx-mlir hit the same error, onnx/onnx-mlir#2751).
//
//===----------------------------------------------------------------------===//

#include "nd/Bridges/Bridges.h"
#include "nd-c/RuntimeABI.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDINLINEALLOCASCOPES
#include "nd/Bridges/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// nd's ops that stand for calls or fences: the run-time ops of the nd_rt
/// dialect (lower-scatter's store fences and reports), nd-parallel-copy's
/// `llvm.fence`.
static bool isRuntimeOrFence(Operation *op) {
  return isa<LLVM::FenceOp>(op) ||
         isa_and_nonnull<rt::NdRuntimeDialect>(op->getDialect());
}

/// Whether `op` itself (not the ops nested in it) may allocate on the stack
/// of the enclosing allocation scope. A call never does: the callee's stack
/// allocations live in its own frame (the nd ops' functions, called from
/// the bodies of loops that tiling made).
static bool mayAllocateOnStack(Operation *op) {
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
      isRuntimeOrFence(op) || isa<CallOpInterface>(op))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return true;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Allocate>(e.getEffect()) &&
           isa<SideEffects::AutomaticAllocationScopeResource>(e.getResource());
  });
}

namespace {
struct NdInlineAllocaScopesPass
    : public mlir::nd::impl::NdInlineAllocaScopesBase<
          NdInlineAllocaScopesPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation().walk([&](memref::AllocaScopeOp scope) {
      if (scope->getNumResults() != 0 ||
          !scope.getBodyRegion().hasOneBlock())
        return;
      WalkResult allocates = scope.getBodyRegion().walk([](Operation *op) {
        return mayAllocateOnStack(op) ? WalkResult::interrupt()
                                      : WalkResult::advance();
      });
      if (!allocates.wasInterrupted())
        scopes.push_back(scope);
    });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      Block &body = scope.getBodyRegion().front();
      rewriter.eraseOp(body.getTerminator());
      rewriter.inlineBlockBefore(&body, scope);
      rewriter.eraseOp(scope);
    }
  }
};
} // namespace
