// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// nd.scatter_nd without reduction: the ONNX ScatterND examples, k == r and
// k < r, rank-1 to rank-3 indices, negative indices, i32 / i64 / index
// indices, and duplicate tuples (the last one in row-major order wins).

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// ONNX ScatterND, example 1 (k == r == 1).
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 11, 3, 10, 9, 6, 7, 12]
func.func @onnx_example_1() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %indices = arith.constant dense<[[4], [3], [1], [7]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ONNX ScatterND, example 2 (k == 1 < r == 3: two 4x4 slices).
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}5, 5, 5, 5],
// CHECK-NEXT: [6, 6, 6, 6],
// CHECK-NEXT: [7, 7, 7, 7],
// CHECK-NEXT: [8, 8, 8, 8]],
// CHECK-NEXT: {{\[\[}}1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8],
// CHECK-NEXT: [8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1]],
// CHECK-NEXT: {{\[\[}}1, 1, 1, 1],
// CHECK-NEXT: [2, 2, 2, 2],
// CHECK-NEXT: [3, 3, 3, 3],
// CHECK-NEXT: [4, 4, 4, 4]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]]]
func.func @onnx_example_2() {
  %data = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]> : tensor<4x4x4xf32>
  %indices = arith.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[[[5.0, 5.0, 5.0, 5.0], [6.0, 6.0, 6.0, 6.0], [7.0, 7.0, 7.0, 7.0], [8.0, 8.0, 8.0, 8.0]],
                                   [[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 4.0]]]> : tensor<2x4x4xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
  %u = tensor.cast %r : tensor<4x4x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Example 1 with negative indices: -4, -5, -7, -1 are 4, 3, 1, 7 in a dim
// of size 8, so the output is that of example 1.
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 11, 3, 10, 9, 6, 7, 12]
func.func @negative_indices() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %indices = arith.constant dense<[[-4], [-5], [-7], [-1]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Example 1 with i32 indices, one of them negative (-5 is 3).
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 11, 3, 10, 9, 6, 7, 12]
func.func @i32_indices() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %indices = arith.constant dense<[[4], [-5], [1], [7]]> : tensor<4x1xi32>
  %updates = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<4x1xi32>, tensor<4xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Example 2 with `index` indices, negative: -4 is 0 and -2 is 2.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}5, 5, 5, 5],
// CHECK-NEXT: [6, 6, 6, 6],
// CHECK-NEXT: [7, 7, 7, 7],
// CHECK-NEXT: [8, 8, 8, 8]],
// CHECK-NEXT: {{\[\[}}1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8],
// CHECK-NEXT: [8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1]],
// CHECK-NEXT: {{\[\[}}1, 1, 1, 1],
// CHECK-NEXT: [2, 2, 2, 2],
// CHECK-NEXT: [3, 3, 3, 3],
// CHECK-NEXT: [4, 4, 4, 4]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]]]
func.func @index_indices() {
  %data = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]> : tensor<4x4x4xf32>
  %indices = arith.constant dense<[[-4], [-2]]> : tensor<2x1xindex>
  %updates = arith.constant dense<[[[5.0, 5.0, 5.0, 5.0], [6.0, 6.0, 6.0, 6.0], [7.0, 7.0, 7.0, 7.0], [8.0, 8.0, 8.0, 8.0]],
                                   [[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 4.0]]]> : tensor<2x4x4xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<4x4x4xf32>, tensor<2x1xindex>, tensor<2x4x4xf32>
  %u = tensor.cast %r : tensor<4x4x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// k == r == 2: single elements of a matrix, with negative components.
// numpy: d = np.zeros((3, 4)); d[np.array([0, -1, 1, -3]), np.array([-1, 0, 2, 1])] = [1.5, 2.5, 3.5, 4.5]; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}0, 4.5, 0, 1.5],
// CHECK-NEXT: [0, 0, 3.5, 0],
// CHECK-NEXT: [2.5, 0, 0, 0]]
func.func @elements_2d() {
  %data = arith.constant dense<0.0> : tensor<3x4xf32>
  %indices = arith.constant dense<[[0, -1], [-1, 0], [1, 2], [-3, 1]]> : tensor<4x2xi64>
  %updates = arith.constant dense<[1.5, 2.5, 3.5, 4.5]> : tensor<4xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<3x4xf32>, tensor<4x2xi64>, tensor<4xf32>
  %u = tensor.cast %r : tensor<3x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Rank-3 indices (a 2x2 grid of 2-tuples) writing rows of a 3x3x2 tensor.
// numpy: d = np.arange(18.).reshape(3, 3, 2); i = np.array([[[0, 2], [2, 1]], [[1, -3], [-1, -1]]]); d[i[..., 0], i[..., 1]] = -np.arange(1., 9.).reshape(2, 2, 2); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}0, 1],
// CHECK-NEXT: [2, 3],
// CHECK-NEXT: [-1, -2]],
// CHECK-NEXT: {{\[\[}}-5, -6],
// CHECK-NEXT: [8, 9],
// CHECK-NEXT: [10, 11]],
// CHECK-NEXT: {{\[\[}}12, 13],
// CHECK-NEXT: [-3, -4],
// CHECK-NEXT: [-7, -8]]]
func.func @rank3_indices() {
  %data = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]],
                                [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]],
                                [[12.0, 13.0], [14.0, 15.0], [16.0, 17.0]]]> : tensor<3x3x2xf32>
  %indices = arith.constant dense<[[[0, 2], [2, 1]], [[1, -3], [-1, -1]]]> : tensor<2x2x2xi32>
  %updates = arith.constant dense<[[[-1.0, -2.0], [-3.0, -4.0]], [[-5.0, -6.0], [-7.0, -8.0]]]> : tensor<2x2x2xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<3x3x2xf32>, tensor<2x2x2xi32>, tensor<2x2x2xf32>
  %u = tensor.cast %r : tensor<3x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Rank-1 indices: one tuple, one slice (q == 1, k < r).
// numpy: d = np.arange(6.).reshape(3, 2); d[-2] = [10, 20]; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}0, 1],
// CHECK-NEXT: [10, 20],
// CHECK-NEXT: [4, 5]]
func.func @rank1_indices_slice() {
  %data = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]> : tensor<3x2xf32>
  %indices = arith.constant dense<[-2]> : tensor<1xi64>
  %updates = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<3x2xf32>, tensor<1xi64>, tensor<2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Duplicate elements: 1 is written three times (also as -7), 9.0 then
// 12.0 then 13.0; the last in row-major order of indices wins.
// numpy: d = np.arange(1., 9.); [d.__setitem__(i, u) for i, u in zip([1, 3, -7, 5, 1], [9, 10, 12, 11, 13])]; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 13, 3, 10, 5, 11, 7, 8]
func.func @duplicates_elements() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %indices = arith.constant dense<[[1], [3], [-7], [5], [1]]> : tensor<5x1xi64>
  %updates = arith.constant dense<[9.0, 10.0, 12.0, 11.0, 13.0]> : tensor<5xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<5x1xi64>, tensor<5xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Duplicate slices, in a 2x2 grid of tuples: row 0 is written at [0, 0],
// [1, 0] and [1, 1] (as -3); [1, 1] comes last.
// numpy: d = np.zeros((3, 2)); i = [[0, 2], [0, -3]]; u = [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]; [d.__setitem__(i[a][b], u[a][b]) for a in range(2) for b in range(2)]; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}7, 8],
// CHECK-NEXT: [0, 0],
// CHECK-NEXT: [3, 4]]
func.func @duplicates_slices() {
  %data = arith.constant dense<0.0> : tensor<3x2xf32>
  %indices = arith.constant dense<[[[0], [2]], [[0], [-3]]]> : tensor<2x2x1xi64>
  %updates = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<2x2x2xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<3x2xf32>, tensor<2x2x1xi64>, tensor<2x2x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @onnx_example_1() : () -> ()
  call @onnx_example_2() : () -> ()
  call @negative_indices() : () -> ()
  call @i32_indices() : () -> ()
  call @index_indices() : () -> ()
  call @elements_2d() : () -> ()
  call @rank3_indices() : () -> ()
  call @rank1_indices_slice() : () -> ()
  call @duplicates_elements() : () -> ()
  call @duplicates_slices() : () -> ()
  return
}
