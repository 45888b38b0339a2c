// A dynamic-dim mismatch whose sizes the compiler can see once casts fold:
// `updates` is a constant of shape 2x3x4 cast to 2x?x4 in the same function
// as the nd.scatter_nd. The run-time check stops the program with its
// message; folding the cast must not turn the lowered code into IR that
// fails to verify (the lowering reads `updates` as a flat buffer, never
// through slices sized from `data`).
//
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ERR < %t.err

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @main() {
  %data = arith.constant dense<0.0> : tensor<4x4x4xf32>
  %indices = arith.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %updates = arith.constant dense<1.0> : tensor<2x3x4xf32>
  %u = tensor.cast %updates : tensor<2x3x4xf32> to tensor<2x?x4xf32>
  // ERR: error: {{.*}}dynamic_shape_mismatch_folded.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: operand 'updates' dim 1 (3) does not match operand 'data' dim 1 (4)
  %r = nd.scatter_nd %data[%indices], %u : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x?x4xf32>
  %p = tensor.cast %r : tensor<4x4x4xf32> to tensor<*xf32>
  %m = bufferization.to_buffer %p read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}
