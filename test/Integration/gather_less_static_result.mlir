// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// A gather whose declared result type is less static than the inferred one
// verifies, and so must lower and run: the result keeps its declared type.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// numpy: d = np.array([1., 2, 3, 4]); d[[3, -4, 1]]
// CHECK: Unranked Memref {{.*}} sizes = [3]
// CHECK-NEXT: [4, 1, 2]
func.func @gather_elements_dynamic_result() {
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %i = arith.constant dense<[3, -4, 1]> : tensor<3xi64>
  %r = nd.gather_elements %d[%i] : tensor<4xf32>, tensor<3xi64> -> tensor<?xf32>
  %u = tensor.cast %r : tensor<?xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.arange(1., 7.).reshape(3, 2); d[[2, 0]]
// CHECK: Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: {{\[\[}}5, 6],
// CHECK-NEXT: [1, 2]]
func.func @gather_nd_dynamic_result() {
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %i = arith.constant dense<[[2], [0]]> : tensor<2x1xi64>
  %r = nd.gather_nd %d[%i] : tensor<3x2xf32>, tensor<2x1xi64> -> tensor<?x?xf32>
  %u = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The same with dynamic operands and a declared static result.
// CHECK: Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: {{\[\[}}3, 4],
// CHECK-NEXT: [3, 4]]
func.func @gather_nd_static_result(%d: tensor<?x2xf32>, %i: tensor<?x1xi64>) -> tensor<2x2xf32> {
  %r = nd.gather_nd %d[%i] : tensor<?x2xf32>, tensor<?x1xi64> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

func.func @main() {
  call @gather_elements_dynamic_result() : () -> ()
  call @gather_nd_dynamic_result() : () -> ()
  %d = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %i = arith.constant dense<[[1], [-2]]> : tensor<2x1xi64>
  %dd = tensor.cast %d : tensor<3x2xf32> to tensor<?x2xf32>
  %id = tensor.cast %i : tensor<2x1xi64> to tensor<?x1xi64>
  %r = call @gather_nd_static_result(%dd, %id) : (tensor<?x2xf32>, tensor<?x1xi64>) -> tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}
