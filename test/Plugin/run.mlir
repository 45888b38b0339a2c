// From a module of nd ops to printed values with stock MLIR tools only:
// mlir-opt with NdPlugin.so lowers it, mlir-runner runs it. Expected values:
// the examples of the ONNX operator specification.

// RUN: %mlir_opt %s --load-dialect-plugin=%nd_plugin --load-pass-plugin=%nd_plugin \
// RUN:   --pass-pipeline='builtin.module(nd-to-llvm)' \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// The design card's command: lower-scatter on the module of tensors, then
// nd-to-llvm.
// RUN: %mlir_opt %s --load-dialect-plugin=%nd_plugin --load-pass-plugin=%nd_plugin \
// RUN:   --pass-pipeline='builtin.module(lower-scatter,nd-to-llvm)' \
// RUN: | mlir-runner -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// The ops take their operands as arguments so that no folding of constants
// can stand in for the lowering.
func.func @scatter_nd(%d: tensor<8xf32>, %i: tensor<4x1xi64>, %u: tensor<4xf32>) -> tensor<8xf32> {
  %r = nd.scatter_nd %d[%i], %u : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  return %r : tensor<8xf32>
}

func.func @gather_nd(%d: tensor<2x2xf32>, %i: tensor<2x2xi64>) -> tensor<2xf32> {
  %r = nd.gather_nd %d[%i] : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

func.func @scatter_elements(%d: tensor<1x5xf32>, %i: tensor<1x2xi64>, %u: tensor<1x2xf32>) -> tensor<1x5xf32> {
  %r = nd.scatter_elements %d[%i], %u axis(1)
      : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  return %r : tensor<1x5xf32>
}

func.func @gather_elements(%d: tensor<2x2xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %r = nd.gather_elements %d[%i] axis(1)
      : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @main() {
  // ScatterND, example 1.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1, 11, 3, 10, 9, 6, 7, 12]
  %d0 = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %i0 = arith.constant dense<[[4], [3], [1], [7]]> : tensor<4x1xi64>
  %u0 = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
  %r0 = call @scatter_nd(%d0, %i0, %u0) : (tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>) -> tensor<8xf32>
  %p0 = tensor.cast %r0 : tensor<8xf32> to tensor<*xf32>
  call @print(%p0) : (tensor<*xf32>) -> ()

  // GatherND, example 1.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 3]
  %d1 = arith.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  %i1 = arith.constant dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>
  %r1 = call @gather_nd(%d1, %i1) : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2xf32>
  %p1 = tensor.cast %r1 : tensor<2xf32> to tensor<*xf32>
  call @print(%p1) : (tensor<*xf32>) -> ()

  // ScatterElements, example 2.
  // CHECK: Unranked Memref
  // CHECK-NEXT: {{\[\[}}1, 1.1, 3, 2.1, 5]]
  %d2 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<1x5xf32>
  %i2 = arith.constant dense<[[1, 3]]> : tensor<1x2xi64>
  %u2 = arith.constant dense<[[1.1, 2.1]]> : tensor<1x2xf32>
  %r2 = call @scatter_elements(%d2, %i2, %u2) : (tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>) -> tensor<1x5xf32>
  %p2 = tensor.cast %r2 : tensor<1x5xf32> to tensor<*xf32>
  call @print(%p2) : (tensor<*xf32>) -> ()

  // GatherElements, example 1.
  // CHECK: Unranked Memref
  // CHECK-NEXT: {{\[\[}}1, 1],
  // CHECK-NEXT: [4, 3]]
  %d3 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %i3 = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %r3 = call @gather_elements(%d3, %i3) : (tensor<2x2xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  %p3 = tensor.cast %r3 : tensor<2x2xf32> to tensor<*xf32>
  call @print(%p3) : (tensor<*xf32>) -> ()
  return
}
