// MLIR 22: with the GPU dialect loaded, the canonicalizer's memref.dim
// pattern of the GPU dialect (SimplifyDimOfAllocOp) asks the type whether a
// dim of a constant negative index is dynamic and crashes (llvm-project
// issue #205073). nd-to-gpu canonicalizes the memref.dim that bufferization
// makes of a tensor.dim; nd's --nd-check-dim-indices rejects the index
// first (test/Conversion/NdToLLVM/nd-check-dim-indices.mlir). Once upstream
// checks the index (PR #205338), the UPSTREAM run stops crashing, this test
// fails and the pass can go (docs/Rationale.md, "Bridges over gaps of MLIR
// 22").
// RUN: not --crash %mlir_opt %s --canonicalize
// RUN: nd-opt %s --nd-check-dim-indices -verify-diagnostics

func.func @negative_dim(%n: index) -> index {
  %c-1 = arith.constant -1 : index
  %m = memref.alloc(%n) : memref<?xf32>
  // expected-error @below {{'memref.dim' op index -1 is out of range for an operand of rank 1}}
  %d = memref.dim %m, %c-1 : memref<?xf32>
  gpu.barrier
  return %d : index
}
