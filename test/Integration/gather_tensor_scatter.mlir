// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// nd.gather and nd.tensor_scatter through mlir-runner: ONNX Gather's two
// examples (axis 0 and axis 1), `index` and i32 indices, a dynamic shape,
// and TensorScatter's circular example shape. The operands reach the ops as
// function arguments, so nothing folds.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @rows(%d: tensor<3x2xf32>, %i: tensor<2x2xindex>) -> tensor<2x2x2xf32> {
  %r = nd.gather %d[%i] : tensor<3x2xf32>, tensor<2x2xindex> -> tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}

func.func @cols(%d: tensor<?x3xf32>, %i: tensor<1x2xi32>) -> tensor<?x1x2xf32> {
  %r = nd.gather %d[%i] axis(1) : tensor<?x3xf32>, tensor<1x2xi32> -> tensor<?x1x2xf32>
  return %r : tensor<?x1x2xf32>
}

func.func @append(%past: tensor<2x1x4x2xf32>, %update: tensor<2x1x2x2xf32>, %w: tensor<2xindex>) -> tensor<2x1x4x2xf32> {
  %r = nd.tensor_scatter %past[%w], %update mode<circular> : tensor<2x1x4x2xf32>[tensor<2xindex>], tensor<2x1x2x2xf32>
  return %r : tensor<2x1x4x2xf32>
}

func.func @main() {
  // ONNX Gather, example 1: data [[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]],
  // indices [[0, 1], [1, 2]] -> [[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]].
  // CHECK: Unranked Memref
  // CHECK-NEXT: {{\[\[\[}}1,   1.2],
  // CHECK-NEXT: [2.3,   3.4]],
  // CHECK-NEXT: {{\[\[}}2.3,   3.4],
  // CHECK-NEXT: [4.5,   5.7]]]
  %d1 = arith.constant dense<[[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]]> : tensor<3x2xf32>
  %i1 = arith.constant dense<[[0, 1], [1, 2]]> : tensor<2x2xindex>
  %r1 = call @rows(%d1, %i1) : (tensor<3x2xf32>, tensor<2x2xindex>) -> tensor<2x2x2xf32>
  %u1 = tensor.cast %r1 : tensor<2x2x2xf32> to tensor<*xf32>
  call @print(%u1) : (tensor<*xf32>) -> ()

  // ONNX Gather, example 2 (axis 1; the rule's shape (3, 1, 2)), with a
  // negative index for column 2: indices [[0, -1]] ->
  // [[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]].
  // CHECK: Unranked Memref
  // CHECK-NEXT: {{\[\[\[}}1,   1.9]],
  // CHECK-NEXT: {{\[\[}}2.3,   3.9]],
  // CHECK-NEXT: {{\[\[}}4.5,   5.9]]]
  %d2 = arith.constant dense<[[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]]> : tensor<3x3xf32>
  %dd = tensor.cast %d2 : tensor<3x3xf32> to tensor<?x3xf32>
  %i2 = arith.constant dense<[[0, -1]]> : tensor<1x2xi32>
  %r2 = call @cols(%dd, %i2) : (tensor<?x3xf32>, tensor<1x2xi32>) -> tensor<?x1x2xf32>
  %u2 = tensor.cast %r2 : tensor<?x1x2xf32> to tensor<*xf32>
  call @print(%u2) : (tensor<*xf32>) -> ()

  // TensorScatter, circular: batch 0 writes positions 3 and 0 (w = 3),
  // batch 1 positions 1 and 2 (w = 5 = 1 mod 4); past is all zeros, the
  // update's rows are [1, 2], [3, 4] and [5, 6], [7, 8].
  // CHECK: Unranked Memref
  // CHECK-NEXT: {{\[\[\[\[}}3,   4],
  // CHECK-NEXT: [0,   0],
  // CHECK-NEXT: [0,   0],
  // CHECK-NEXT: [1,   2]]],
  // CHECK-NEXT: {{\[\[\[}}0,   0],
  // CHECK-NEXT: [5,   6],
  // CHECK-NEXT: [7,   8],
  // CHECK-NEXT: [0,   0]]]]
  %past = arith.constant dense<0.0> : tensor<2x1x4x2xf32>
  %update = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf32>
  %w = arith.constant dense<[3, 5]> : tensor<2xindex>
  %r3 = call @append(%past, %update, %w) : (tensor<2x1x4x2xf32>, tensor<2x1x2x2xf32>, tensor<2xindex>) -> tensor<2x1x4x2xf32>
  %u3 = tensor.cast %r3 : tensor<2x1x4x2xf32> to tensor<*xf32>
  call @print(%u3) : (tensor<*xf32>) -> ()
  return
}
