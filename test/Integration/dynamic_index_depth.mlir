// The index depth indices.shape[-1] may be dynamic: the ranks give it, and
// the lowering checks the actual one against it before reading any index.
//
// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e gather_shallow -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.gather.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=GATHER < %t.gather.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e scatter_deep -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.scatter.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=SCATTER < %t.scatter.err

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// Keeps the depth dynamic: the lowering sees tensor<?x?xi64>.
func.func @opaque(%t: tensor<?x?xi64>) -> tensor<?x?xi64> {
  return %t : tensor<?x?xi64>
}

// A 4x3 f32 data counting from 0: element [i, j] is 3 * i + j.
func.func @main() {
  %data = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>
  // Depth 2 (ranks: 2 - 1 + 2 - 1): elements [1, 2] and [3, 0].
  %c = arith.constant dense<[[1, 2], [3, 0]]> : tensor<2x2xi64>
  %cd = tensor.cast %c : tensor<2x2xi64> to tensor<?x?xi64>
  %i = call @opaque(%cd) : (tensor<?x?xi64>) -> tensor<?x?xi64>
  %g = nd.gather_nd %data[%i] : tensor<4x3xf32>, tensor<?x?xi64> -> tensor<?xf32>
  %pg = tensor.cast %g : tensor<?xf32> to tensor<*xf32>
  // CHECK: [5,  9]
  call @print(%pg) : (tensor<*xf32>) -> ()
  // Depth 1 (ranks: 2 - 1 + 2 - 2): rows 2 and -1 (3) get 100 and 200 added.
  %c1 = arith.constant dense<[[2], [-1]]> : tensor<2x1xi64>
  %cd1 = tensor.cast %c1 : tensor<2x1xi64> to tensor<?x?xi64>
  %i1 = call @opaque(%cd1) : (tensor<?x?xi64>) -> tensor<?x?xi64>
  %u = arith.constant dense<[[100.0, 100.0, 100.0], [200.0, 200.0, 200.0]]> : tensor<2x3xf32>
  %s = nd.scatter_nd %data[%i1], %u reduction<add> : tensor<4x3xf32>, tensor<?x?xi64>, tensor<2x3xf32>
  %ps = tensor.cast %s : tensor<4x3xf32> to tensor<*xf32>
  // CHECK:      [0,   1,   2],
  // CHECK-NEXT: [3,   4,   5],
  // CHECK-NEXT: [106,   107,   108],
  // CHECK-NEXT: [209,   210,   211]
  call @print(%ps) : (tensor<*xf32>) -> ()
  return
}

// Tuples of one component where the ranks give 2.
func.func @gather_shallow() {
  %data = arith.constant dense<1.0> : tensor<4x3xf32>
  %c = arith.constant dense<[[1], [3]]> : tensor<2x1xi64>
  %cd = tensor.cast %c : tensor<2x1xi64> to tensor<?x?xi64>
  %i = call @opaque(%cd) : (tensor<?x?xi64>) -> tensor<?x?xi64>
  // GATHER: error: {{.*}}dynamic_index_depth.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_nd: operand 'indices' dim 1 (1) does not match the index depth the ranks give (2)
  %g = nd.gather_nd %data[%i] : tensor<4x3xf32>, tensor<?x?xi64> -> tensor<?xf32>
  %pg = tensor.cast %g : tensor<?xf32> to tensor<*xf32>
  call @print(%pg) : (tensor<*xf32>) -> ()
  return
}

// Tuples of three components where the ranks give 1.
func.func @scatter_deep() {
  %data = arith.constant dense<1.0> : tensor<4x3xf32>
  %c = arith.constant dense<[[1, 0, 0], [3, 0, 0]]> : tensor<2x3xi64>
  %cd = tensor.cast %c : tensor<2x3xi64> to tensor<?x?xi64>
  %i = call @opaque(%cd) : (tensor<?x?xi64>) -> tensor<?x?xi64>
  %u = arith.constant dense<2.0> : tensor<2x3xf32>
  // SCATTER: error: {{.*}}dynamic_index_depth.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: operand 'indices' dim 1 (3) does not match the index depth the ranks give (1)
  %s = nd.scatter_nd %data[%i], %u : tensor<4x3xf32>, tensor<?x?xi64>, tensor<2x3xf32>
  %ps = tensor.cast %s : tensor<4x3xf32> to tensor<*xf32>
  call @print(%ps) : (tensor<*xf32>) -> ()
  return
}
