// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=3 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm=grain=1 | env OMP_NUM_THREADS=1 mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm=parallel=false | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%nd_runner_utils | FileCheck %s

// With a grain of one element every op splits its work into as many
// partitions as there are threads, even on tiny inputs: the owners of
// destination rows, the bucketing of the entries, column partitions and the
// partitioned walks give the results of the sequential order. Without
// OpenMP (parallel=false) the same code runs on one thread.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @print_i32(%t: tensor<*xi32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%m) : (memref<*xi32>) -> ()
  return
}

// Points, duplicates in several chunks, reduction none: the last wins.
// numpy: d = np.zeros(6); for i, u in zip([5, 0, 5, 2, 0, 5, 3, 0], range(1, 9)): d[i] = u
// CHECK: Unranked Memref
// CHECK-NEXT: [8, 0, 4, 7, 0, 6]
func.func @points_none() {
  %d = arith.constant dense<0.0> : tensor<6xf32>
  %i = arith.constant dense<[[5], [0], [5], [2], [0], [5], [3], [0]]> : tensor<8x1xi64>
  %u = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %r = nd.scatter_nd %d[%i], %u : tensor<6xf32>, tensor<8x1xi64>, tensor<8xf32>
  %c = tensor.cast %r : tensor<6xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}

// Points under mul, in i32: d[i] *= u in order.
// numpy: d = np.arange(1, 7); np.multiply.at(d, [-1, 0, 5, 1, 0, 5, 4], [2, 3, 4, 5, 6, 7, -1])
// CHECK: Unranked Memref
// CHECK-NEXT: [18, 10, 3, 4, -5, 336]
func.func @points_mul() {
  %d = arith.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
  %i = arith.constant dense<[[-1], [0], [5], [1], [0], [5], [4]]> : tensor<7x1xi64>
  %u = arith.constant dense<[2, 3, 4, 5, 6, 7, -1]> : tensor<7xi32>
  %r = nd.scatter_nd %d[%i], %u reduction<mul> : tensor<6xi32>, tensor<7x1xi64>, tensor<7xi32>
  %c = tensor.cast %r : tensor<6xi32> to tensor<*xi32>
  call @print_i32(%c) : (tensor<*xi32>) -> ()
  return
}

// Slices of 70 elements (split by column), duplicate rows under add.
// numpy: d = np.zeros((3, 70)); np.add.at(d, [1, 1, 2], np.array([1., 2, 4])[:, None] * np.ones(70)); d[:, [0, 69]]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}0, 0],
// CHECK-NEXT: [3, 3],
// CHECK-NEXT: [4, 4]]
func.func @wide_slices_add() {
  %d = arith.constant dense<0.0> : tensor<3x70xf32>
  %i = arith.constant dense<[[1], [1], [2]]> : tensor<3x1xi64>
  %init = tensor.empty() : tensor<3x70xf32>
  %s = arith.constant dense<[1.0, 2.0, 4.0]> : tensor<3xf32>
  %b = linalg.broadcast ins(%s : tensor<3xf32>) outs(%init : tensor<3x70xf32>) dimensions = [1]
  %r = nd.scatter_nd %d[%i], %b reduction<add> : tensor<3x70xf32>, tensor<3x1xi64>, tensor<3x70xf32>
  %cols = tensor.extract_slice %r[0, 0] [3, 1] [1, 1] : tensor<3x70xf32> to tensor<3x1xf32>
  %last = tensor.extract_slice %r[0, 69] [3, 1] [1, 1] : tensor<3x70xf32> to tensor<3x1xf32>
  %both = tensor.concat dim(1) %cols, %last : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x2xf32>
  %c = tensor.cast %both : tensor<3x2xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}

// ScatterElements along axis 1 with max: partitions own rows.
// numpy: d = np.zeros((3, 4)); np.maximum.at(d, (np.arange(3)[:, None].repeat(3, 1), [[0, 0, 3], [1, -1, 1], [2, 2, 2]]), [[5, 9, 1], [2, 7, 8], [-1, 3, 2]])
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}9, 0, 0, 1],
// CHECK-NEXT: [0, 8, 0, 7],
// CHECK-NEXT: [0, 0, 3, 0]]
func.func @elements_axis1_max() {
  %d = arith.constant dense<0.0> : tensor<3x4xf32>
  %i = arith.constant dense<[[0, 0, 3], [1, -1, 1], [2, 2, 2]]> : tensor<3x3xi64>
  %u = arith.constant dense<[[5.0, 9.0, 1.0], [2.0, 7.0, 8.0], [-1.0, 3.0, 2.0]]> : tensor<3x3xf32>
  %r = nd.scatter_elements %d[%i], %u axis(1) reduction<max> : tensor<3x4xf32>, tensor<3x3xi64>, tensor<3x3xf32>
  %c = tensor.cast %r : tensor<3x4xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  return
}

// Gathers split their tuples and positions.
// numpy: d = np.arange(12.).reshape(4, 3); d[[3, 0, -1, 1, 2]][:, 1]
// CHECK: Unranked Memref
// CHECK-NEXT: [10, 1, 10, 4, 7]
// numpy: np.take_along_axis(d, np.array([[2, 0, 1], [1, 1, -1], [0, 0, 0], [2, 2, 2]]), 1)[:, 0]
// CHECK: Unranked Memref
// CHECK-NEXT: [2, 4, 6, 11]
func.func @gathers() {
  %d = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>
  %i = arith.constant dense<[[3], [0], [-1], [1], [2]]> : tensor<5x1xi64>
  %g = nd.gather_nd %d[%i] : tensor<4x3xf32>, tensor<5x1xi64> -> tensor<5x3xf32>
  %col = tensor.extract_slice %g[0, 1] [5, 1] [1, 1] : tensor<5x3xf32> to tensor<5xf32>
  %c = tensor.cast %col : tensor<5xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()
  %j = arith.constant dense<[[2, 0, 1], [1, 1, -1], [0, 0, 0], [2, 2, 2]]> : tensor<4x3xi64>
  %e = nd.gather_elements %d[%j] axis(1) : tensor<4x3xf32>, tensor<4x3xi64> -> tensor<4x3xf32>
  %col2 = tensor.extract_slice %e[0, 0] [4, 1] [1, 1] : tensor<4x3xf32> to tensor<4xf32>
  %c2 = tensor.cast %col2 : tensor<4xf32> to tensor<*xf32>
  call @print(%c2) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @points_none() : () -> ()
  call @points_mul() : () -> ()
  call @wide_slices_add() : () -> ()
  call @elements_axis1_max() : () -> ()
  call @gathers() : () -> ()
  return
}
