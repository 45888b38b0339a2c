// RUN: nd-opt %s -split-input-file --nd-check-dim-indices -verify-diagnostics
// nd-to-gpu and nd-to-llvm run it first: a clear error where MLIR 22's
// canonicalizer would crash (Upstream/gpu-negative-dim.mlir), with the fuzz
// campaign's module.
// RUN: not nd-opt %s -split-input-file --nd-to-gpu=run-on-host=true 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not nd-opt %s -split-input-file --nd-to-llvm 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not nd-opt %S/Upstream/gpu-negative-dim.mlir --nd-to-llvm 2>&1 | FileCheck %s --check-prefix=GPU-OP
// PIPELINE-NOT: Stack dump
// PIPELINE: error: 'tensor.dim' op index -1 is out of range for an operand of rank 2 (nd's pipelines reject it: MLIR 22's canonicalizer crashes on it)
// GPU-OP-NOT: Stack dump
// GPU-OP: error: 'memref.dim' op index -1 is out of range for an operand of rank 1

func.func @negative(%t: tensor<?x4xf32>) -> index {
  %c = arith.constant -1 : index
  // expected-error @below {{'tensor.dim' op index -1 is out of range for an operand of rank 2 (nd's pipelines reject it: MLIR 22's canonicalizer crashes on it)}}
  %d = tensor.dim %t, %c : tensor<?x4xf32>
  return %d : index
}

// -----

func.func @past_the_rank(%m: memref<?x?x?xf32>) -> index {
  %c = arith.constant 3 : index
  // expected-error @below {{'memref.dim' op index 3 is out of range for an operand of rank 3}}
  %d = memref.dim %m, %c : memref<?x?x?xf32>
  return %d : index
}

// -----

// In range, or not a constant: left alone.
func.func @fine(%t: tensor<?x4xf32>, %i: index) -> (index, index) {
  %c = arith.constant 1 : index
  %a = tensor.dim %t, %c : tensor<?x4xf32>
  %b = tensor.dim %t, %i : tensor<?x4xf32>
  return %a, %b : index, index
}
