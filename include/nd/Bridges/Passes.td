//===- Passes.td - bridges over gaps of MLIR 22 ------------*- tablegen -*-===//
//
// The passes that exist only because MLIR 22 lacks something (docs/
// Rationale.md, "Bridges over gaps of MLIR 22"): each description and each
// file's banner under lib/Bridges names the gap and the upstream change that
// retires it.
//
//===----------------------------------------------------------------------===//

#ifndef ND_BRIDGES_PASSES_TD
#define ND_BRIDGES_PASSES_TD

include "mlir/Pass/PassBase.td"

def NdBufferizeConstants : Pass<"nd-bufferize-constants", "ModuleOp"> {
  let summary = "Give the functions' tensor constants their constant "
                "globals, in one pass over the module";
  let description = [{
    Runs right before one-shot bufferization and does for every
    `arith.constant` of a ranked tensor type in the module's functions what
    that bufferization would: the value goes into a private constant
    `memref.global` named `__constant_<shape>x<element type>` (`_N` where
    the name is taken) with the given `alignment`, one global per distinct
    value (a global the module already has with the same initial value and
    alignment serves, as upstream's does), and the constant becomes
    `memref.get_global` of it read as `bufferization.to_tensor restrict`.
    The tensor is not writable, as a constant's is not: an op that writes it
    works on a copy. One-shot bufferization then has no constant left to
    make a global for, and its output is the same.

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
    MLIR 22"): upstream's `bufferization::getGlobalFor` looks for a global of
    the same value by scanning every op of the module, once per constant, so
    a module of N constants takes O(N^2) (10,000 independent nd ops, each
    with constant indices, spent seconds there). Retired once that lookup
    keeps a map of the globals by value.
  }];
  let options = [
    Option<"alignment", "alignment", "uint64_t", /*default=*/"64",
           "The alignment of the globals: one-shot bufferization's "
           "buffer-alignment">
  ];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def NdDropEquivalentBufferResults
    : Pass<"nd-drop-equivalent-buffer-results", "ModuleOp"> {
  let summary = "Run drop-equivalent-buffer-results only where it has "
                "something to drop";
  let description = [{
    Upstream's `drop-equivalent-buffer-results` (a function's result that is
    one of its arguments' buffers is dropped and its callers use the
    argument) on a module with a private function that has a body and a
    result, the only functions it changes; any other module is left as it
    is, without the pass's walk.

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
    MLIR 22"): the upstream pass first resolves the callee of every
    `func.call` of the module with a lookup that scans the module's
    symbols, so a module with N calls and N symbols (the globals of N
    constants) takes O(N^2) even when no function has a result to drop.
    Retired once the pass resolves callees through a symbol table
    collection.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def NdSimplifyDeallocations : Pass<"nd-simplify-deallocations", "ModuleOp"> {
  let summary = "Simplify the deallocations of functions with few buffers";
  let description = [{
    Runs upstream's `buffer-deallocation-simplification` on each function
    whose `bufferization.dealloc` ops list at most `max-buffers` buffers in
    all (memrefs and retained values). The simplification compares every
    buffer of a dealloc op with every other, which is quadratic in their
    number: a function calling N nd ops that each allocate (a gather's
    result, an out-of-place scatter's copy) frees N buffers at its end, and
    took minutes to simplify at N = 10,000. The functions of the nd ops
    themselves, and ordinary functions, have few. In the others, a dealloc
    op whose buffers all come from distinct allocations of the function
    (`memref.alloc`, and calls of private functions that return an
    allocation of their own, as the nd op functions do) or from its
    arguments (which it must not free) is resolved in linear time: distinct
    allocations never alias, so each one is freed (`memref.dealloc`, under
    its condition) unless a retained value is a view of it, whose ownership
    is then its condition. Any other dealloc op stays as it is
    (`bufferization-lower-deallocations` lowers any, with a run-time check
    per buffer, which made `scf-to-cf` quadratic).

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
    MLIR 22"): retired once upstream's simplification resolves a dealloc op
    of distinct allocations in linear time; upstream main is still quadratic
    there (issue #219740, open).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::memref::MemRefDialect"
  ];
  let options = [
    Option<"maxBuffers", "max-buffers", "int64_t", /*default=*/"256",
           "The most buffers a function's dealloc ops may list for it to be "
           "simplified">
  ];
}

def NdInlineAllocaScopes : Pass<"nd-inline-alloca-scopes", "ModuleOp"> {
  let summary = "Inline the alloca scopes of loop bodies that allocate "
                "nothing on the stack";
  let description = [{
    Runs after `convert-scf-to-openmp`, which wraps every loop body in a
    `memref.alloca_scope`. A scope whose body makes no stack allocation is
    inlined into its parent: a scope must keep one block, and `scf-to-cf`
    would split it into several. Upstream's canonicalization inlines such
    scopes too, but counts every call, and every op whose effects are
    unknown, as a possible stack allocation; here calls and nd's run-time
    ops (the `nd_rt` dialect: the store fences and reports `--lower-scatter`
    puts inside loop bodies) do not count, since they allocate nothing in
    their caller's frame. Scopes holding an allocation, or another op whose
    effects are unknown, stay.

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
    MLIR 22"): retired once `convert-scf-to-openmp` adds the scope only
    around loop bodies that allocate on the stack; upstream main has not
    changed this as far as we found.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def NdFunctionsFirst : Pass<"nd-functions-first", "ModuleOp"> {
  let summary = "Move a module's functions ahead of its many globals for "
                "the LLVM conversion";
  let description = [{
    Runs right before `convert-to-llvm`, with `--nd-restore-order` right
    after it. Where at least `min-ops` other top-level ops (globals, mostly)
    precede a function, the functions move ahead of them, in their order,
    and the module's order is recorded in its `nd.order` attribute (the
    symbol names of its top-level ops); `--nd-restore-order` puts every op
    back in its place and drops the attribute. The conversion sees the
    functions in the same order and makes the same ops. A module with an op
    that is not a symbol at its top level, or with fewer such ops, is left
    as it is.

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
    MLIR 22"): the lowering of `func.call` looks its callee up with
    `SymbolTable::lookupNearestSymbolFrom`, which scans the module's ops from
    the first; a module whose N globals (the constants' globals come first)
    precede functions called N times takes O(N^2) in `convert-to-llvm`.
    Retired once the call lowering resolves callees through a symbol table
    collection.
  }];
  let options = [
    Option<"minOps", "min-ops", "int64_t", /*default=*/"256",
           "Other top-level ops ahead of a function from which the "
           "functions move">
  ];
}

def NdRestoreOrder : Pass<"nd-restore-order", "ModuleOp"> {
  let summary = "Put back the module order --nd-functions-first recorded";
  let description = [{
    Runs after `convert-to-llvm` on a module `--nd-functions-first`
    reordered: each top-level op goes back to the place its symbol name had
    in the module's `nd.order` attribute (a function to the place of the
    function it was converted from), which is then dropped. Ops the
    conversion added keep their place: ahead of all the others where they
    are first (the declarations it inserts at the start of the module), or
    after the op they follow. A module without the attribute is left as it
    is. Part of the bridge of `--nd-functions-first`.
  }];
}

def NdCheckDimIndices : Pass<"nd-check-dim-indices", "ModuleOp"> {
  let summary = "Reject a `tensor.dim` or `memref.dim` of a constant index "
                "out of range";
  let description = [{
    Runs first in nd's bufferization (`nd-to-llvm` and `nd-to-gpu`). A
    `tensor.dim` or `memref.dim` whose index is
    a constant outside `[0, rank)` of a ranked operand is an error naming
    the index and the rank: upstream's ops leave such a dim undefined, and
    with the GPU dialect loaded MLIR 22's canonicalizer crashes on the
    `memref.dim` that bufferization makes of it (`SimplifyDimOfAllocOp`,
    GPUDialect.cpp).

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps
    of MLIR 22"): llvm-project issue #205073, retired by PR #205338 (June
    2026, after the 22.x branch), whose pattern leaves an index out of range
    alone. An index that becomes a constant only by folding is not seen.
  }];
}

def NdFoldReshapes : Pass<"nd-fold-reshapes", "ModuleOp"> {
  let summary = "Fold a buffer's collapse and expansion back to the buffer";
  let description = [{
    Runs after one-shot bufferization and canonicalization, first of the
    passes that follow them in `nd-to-llvm` and `nd-to-gpu`. A
    `memref.expand_shape` of a `memref.collapse_shape` of `x` with the same
    reassociation and result type, whose output sizes are `x`'s own (static
    sizes, or `memref.dim` of `x`), is `x`; upstream's folder proves this
    only where no group has two dynamic dims. A row scatter views its
    destination as rows this way, so its function then returns the buffer it
    was given and `drop-equivalent-buffer-results` removes the result. The
    `scf.if` results this makes trivial are folded too. A
    `memref.expand_shape` left with a group of several dynamic dims
    (`expand-strided-metadata` of MLIR 22 crashes on those) becomes a
    `memref.reinterpret_cast` of its source's strided metadata.

    A bridge over two gaps of MLIR 22 (docs/Rationale.md, "Bridges over gaps
    of MLIR 22"): the fold is retired once upstream's reshape folder compares
    `output_shape` with the source's sizes (not in upstream main yet), the
    `reinterpret_cast` by upstream main's fix of `expand-strided-metadata`
    (PR #187844, after the 22.x branch).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def NdStableConstantNames : Pass<"nd-stable-constant-names", "ModuleOp"> {
  let summary = "Name and order the constant globals of bufferization by use";
  let description = [{
    Runs after one-shot bufferization. Upstream's module bufferization makes
    a private constant `memref.global` named `__constant_<type>` (with a
    `_N` suffix where the name is taken) for each `arith.constant` tensor,
    in the order it bufferizes the functions, and that order changes from
    run to run: it comes from a map keyed by the functions' addresses. This
    pass renames those globals in the order of their first use in the module
    (`__constant_<type>`, then `__constant_<type>_1`, ...), moves them to
    the start of the module in that order and erases the ones nothing uses,
    so that the same input gives the same output, byte for byte.

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps
    of MLIR 22"): retired by upstream PR #184722 (March 2026, after the 22.x
    branch), which orders the functions of a module without looking at their
    addresses.
  }];
}

#endif // ND_BRIDGES_PASSES_TD
