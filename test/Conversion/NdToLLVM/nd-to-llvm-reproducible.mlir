// nd-to-llvm gives the same output, byte for byte, run after run: eight
// functions that do not call one another, each with constants of its own
// type and value (module bufferization visits such functions in an order
// that changes from run to run; --nd-stable-constant-names names their
// globals by use).
// RUN: nd-opt %s --nd-to-llvm -o %t.0
// RUN: nd-opt %s --nd-to-llvm -o %t.1
// RUN: nd-opt %s --nd-to-llvm -o %t.2
// RUN: nd-opt %s --nd-to-llvm -o %t.3
// RUN: cmp %t.0 %t.1
// RUN: cmp %t.0 %t.2
// RUN: cmp %t.0 %t.3
// RUN: FileCheck %s --input-file %t.0

// Eleven globals: the index constants of equal value are one.
// CHECK-COUNT-11: llvm.mlir.global private constant @__constant_
// CHECK-NOT: llvm.mlir.global private constant @__constant_

func.func @f0(%d: tensor<3xf32>) -> tensor<3xf32> {
  %i = arith.constant dense<[0, 1]> : tensor<2xi64>
  %u = arith.constant dense<[0.0, 1.0]> : tensor<2xf32>
  %r = nd.scatter_elements %d[%i], %u : tensor<3xf32>, tensor<2xi64>, tensor<2xf32>
  return %r : tensor<3xf32>
}
func.func @f1(%d: tensor<4xf32>) -> tensor<4xf32> {
  %i = arith.constant dense<[0, 1, 2]> : tensor<3xi64>
  %u = arith.constant dense<[10.0, 11.0, 12.0]> : tensor<3xf32>
  %r = nd.scatter_elements %d[%i], %u : tensor<4xf32>, tensor<3xi64>, tensor<3xf32>
  return %r : tensor<4xf32>
}
func.func @f2(%d: tensor<5xf32>) -> tensor<5xf32> {
  %i = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
  %u = arith.constant dense<[20.0, 21.0, 22.0, 23.0]> : tensor<4xf32>
  %r = nd.scatter_elements %d[%i], %u : tensor<5xf32>, tensor<4xi64>, tensor<4xf32>
  return %r : tensor<5xf32>
}
func.func @f3(%d: tensor<3xf32>) -> tensor<3xf32> {
  %i = arith.constant dense<[0, 1]> : tensor<2xi64>
  %u = arith.constant dense<[30.0, 31.0]> : tensor<2xf32>
  %r = nd.scatter_elements %d[%i], %u : tensor<3xf32>, tensor<2xi64>, tensor<2xf32>
  return %r : tensor<3xf32>
}
func.func @f4(%d: tensor<4xf32>) -> tensor<4xf32> {
  %i = arith.constant dense<[0, 1, 2]> : tensor<3xi64>
  %u = arith.constant dense<[40.0, 41.0, 42.0]> : tensor<3xf32>
  %r = nd.scatter_elements %d[%i], %u : tensor<4xf32>, tensor<3xi64>, tensor<3xf32>
  return %r : tensor<4xf32>
}
func.func @f5(%d: tensor<5xf32>) -> tensor<5xf32> {
  %i = arith.constant dense<[0, 1, 2, 3]> : tensor<4xi64>
  %u = arith.constant dense<[50.0, 51.0, 52.0, 53.0]> : tensor<4xf32>
  %r = nd.scatter_elements %d[%i], %u : tensor<5xf32>, tensor<4xi64>, tensor<4xf32>
  return %r : tensor<5xf32>
}
func.func @f6(%d: tensor<3xf32>) -> tensor<3xf32> {
  %i = arith.constant dense<[0, 1]> : tensor<2xi64>
  %u = arith.constant dense<[60.0, 61.0]> : tensor<2xf32>
  %r = nd.scatter_elements %d[%i], %u : tensor<3xf32>, tensor<2xi64>, tensor<2xf32>
  return %r : tensor<3xf32>
}
func.func @f7(%d: tensor<4xf32>) -> tensor<4xf32> {
  %i = arith.constant dense<[0, 1, 2]> : tensor<3xi64>
  %u = arith.constant dense<[70.0, 71.0, 72.0]> : tensor<3xf32>
  %r = nd.scatter_elements %d[%i], %u : tensor<4xf32>, tensor<3xi64>, tensor<3xf32>
  return %r : tensor<4xf32>
}
