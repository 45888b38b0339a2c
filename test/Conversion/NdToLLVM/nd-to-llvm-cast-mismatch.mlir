// RUN: nd-opt %s --nd-to-llvm | FileCheck %s
// RUN: not nd-opt %s --canonicalize 2>&1 | FileCheck %s --check-prefix=CANON

// A dim that a cast made dynamic is checked at run time: nd-to-llvm
// bufferizes and lowers without canonicalizing first, so the scatter keeps
// its run-time shape check (and its message) and compiles.
//   CHECK-DAG: llvm.func @mismatch
//   CHECK-DAG: nd.scatter_nd: operand 'updates' dim 1 (%lld) does not match operand 'data' dim 1 (%lld)
//
// Upstream's canonicalization folds the cast into the scatter (as into every
// destination-style op), which makes the mismatch a static one: the verifier
// names it.
// CANON: error: 'nd.scatter_nd' op operand 'updates' dim 1 must match operand 'data' dim 1: expected 4, got 5
func.func @mismatch(%data: tensor<8x4xf32>, %i: tensor<3x1xi64>, %u: tensor<3x5xf32>) -> tensor<8x?xf32> {
  %d = tensor.cast %data : tensor<8x4xf32> to tensor<8x?xf32>
  %s = nd.scatter_nd %d[%i], %u : tensor<8x?xf32>, tensor<3x1xi64>, tensor<3x5xf32>
  return %s : tensor<8x?xf32>
}
