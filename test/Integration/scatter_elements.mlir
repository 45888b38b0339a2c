// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// nd.scatter_elements: ONNX Scatter examples 1 (axis 0) and 2 (axis 1), the
// ScatterElements backend tests with negative and duplicate indices, then
// negative axis, i32 / `index` indices, rank 1 and 3, `indices` smaller than
// `data`, and duplicates under every reduction (none: the last update in
// row-major order of `indices` wins).

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI64(memref<*xi64>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @print_i64(%t: tensor<*xi64>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xi64> to memref<*xi64>
  call @printMemrefI64(%m) : (memref<*xi64>) -> ()
  return
}

// ONNX Scatter, example 1 (axis 0).
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}2, 1.1, 0],
// CHECK-NEXT: [1, 0, 2.2],
// CHECK-NEXT: [0, 2.1, 1.2]]
func.func @onnx_example_1() {
  %data = arith.constant dense<0.0> : tensor<3x3xf32>
  %indices = arith.constant dense<[[1, 0, 2], [0, 2, 1]]> : tensor<2x3xi64>
  %updates = arith.constant dense<[[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]]> : tensor<2x3xf32>
  %r = nd.scatter_elements %data[%indices], %updates : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
  %u = tensor.cast %r : tensor<3x3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ONNX Scatter, example 2 (axis 1).
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 1.1, 3, 2.1, 5]]
func.func @onnx_example_2() {
  %data = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<1x5xf32>
  %indices = arith.constant dense<[[1, 3]]> : tensor<1x2xi64>
  %updates = arith.constant dense<[[1.1, 2.1]]> : tensor<1x2xf32>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %u = tensor.cast %r : tensor<1x5xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ONNX test_scatter_elements_with_negative_indices (axis 1, index -3).
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 1.1, 2.1, 4, 5]]
func.func @onnx_negative_indices() {
  %data = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<1x5xf32>
  %indices = arith.constant dense<[[1, -3]]> : tensor<1x2xi64>
  %updates = arith.constant dense<[[1.1, 2.1]]> : tensor<1x2xf32>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %u = tensor.cast %r : tensor<1x5xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ONNX test_scatter_elements_with_duplicate_indices (axis 1, reduction add):
// 2.0 + 1.1 + 2.1.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 5.2, 3, 4, 5]]
func.func @onnx_duplicate_indices_add() {
  %data = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<1x5xf32>
  %indices = arith.constant dense<[[1, 1]]> : tensor<1x2xi64>
  %updates = arith.constant dense<[[1.1, 2.1]]> : tensor<1x2xf32>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<add> : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %u = tensor.cast %r : tensor<1x5xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// axis(-1) on rank 2 is axis 1; i32 indices, negative; `indices` has fewer
// rows and columns than `data`.
// numpy: d = np.zeros((3, 4), np.float32); d[np.arange(2)[:, None], np.array([[-1, 0, 1], [2, -3, -4]])] = [[1, 2, 3], [4, 5, 6]]; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}2, 3, 0, 1],
// CHECK-NEXT: [6, 5, 4, 0],
// CHECK-NEXT: [0, 0, 0, 0]]
func.func @negative_axis_i32() {
  %data = arith.constant dense<0.0> : tensor<3x4xf32>
  %indices = arith.constant dense<[[-1, 0, 1], [2, -3, -4]]> : tensor<2x3xi32>
  %updates = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = nd.scatter_elements %data[%indices], %updates axis(-1) : tensor<3x4xf32>, tensor<2x3xi32>, tensor<2x3xf32>
  %u = tensor.cast %r : tensor<3x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Rank 1, `index` indices.
// numpy: d = np.arange(6., dtype=np.float32); d[[5, -6, 2, -2]] = [10, 20, 30, 40]; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [20, 1, 30, 3, 40, 10]
func.func @rank1_index_indices() {
  %data = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<6xf32>
  %indices = arith.constant dense<[5, -6, 2, -2]> : tensor<4xindex>
  %updates = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  %r = nd.scatter_elements %data[%indices], %updates : tensor<6xf32>, tensor<4xindex>, tensor<4xf32>
  %u = tensor.cast %r : tensor<6xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Rank 3, axis 1, i64 data; `indices` is 2x2x2 inside 2x3x3.
// numpy: d = np.arange(18).reshape(2, 3, 3); d[np.arange(2)[:, None, None], np.array([[[2, 0], [1, -1]], [[-3, 1], [0, 2]]]), np.arange(2)] = -np.arange(1, 9).reshape(2, 2, 2); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}0, -2, 2],
// CHECK-NEXT: [-3, 4, 5],
// CHECK-NEXT: [-1, -4, 8]],
// CHECK-NEXT: {{\[\[}}-7, 10, 11],
// CHECK-NEXT: [12, -6, 14],
// CHECK-NEXT: [15, -8, 17]]]
func.func @rank3_axis1() {
  %data = arith.constant dense<[[[0, 1, 2], [3, 4, 5], [6, 7, 8]], [[9, 10, 11], [12, 13, 14], [15, 16, 17]]]> : tensor<2x3x3xi64>
  %indices = arith.constant dense<[[[2, 0], [1, -1]], [[-3, 1], [0, 2]]]> : tensor<2x2x2xi64>
  %updates = arith.constant dense<[[[-1, -2], [-3, -4]], [[-5, -6], [-7, -8]]]> : tensor<2x2x2xi64>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) : tensor<2x3x3xi64>, tensor<2x2x2xi64>, tensor<2x2x2xi64>
  %u = tensor.cast %r : tensor<2x3x3xi64> to tensor<*xi64>
  call @print_i64(%u) : (tensor<*xi64>) -> ()
  return
}

// Duplicates along axis 0 of a 3x2 matrix: column 0 writes row 1 three
// times (once as -2), column 1 writes row 2 twice and row 0 once.
func.func @dup_data() -> (tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>) {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %indices = arith.constant dense<[[1, 2], [-2, -1], [1, 0]]> : tensor<3x2xi64>
  %updates = arith.constant dense<[[7.0, -1.0], [0.5, 3.0], [-2.0, 9.0]]> : tensor<3x2xf32>
  return %data, %indices, %updates : tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>
}

// reduction none: row-major order, so [2, 0] (value -2.0) is the last
// update of column 0 and [1, 1] (3.0) the last of row 2, column 1.
// numpy: d = np.array([[1., 2.], [3., 4.], [5., 6.]]); [d.__setitem__((i, j), u) for (i, j), u in zip([(1, 0), (2, 1), (-2, 0), (-1, 1), (1, 0), (0, 1)], [7, -1, .5, 3, -2, 9])]; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 9],
// CHECK-NEXT: [-2, 4],
// CHECK-NEXT: [5, 3]]
func.func @dup_none() {
  %data, %indices, %updates = call @dup_data() : () -> (tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>)
  %r = nd.scatter_elements %data[%indices], %updates : tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.array([[1., 2.], [3., 4.], [5., 6.]]); np.add.at(d, (np.array([[1, 2], [-2, -1], [1, 0]]), np.array([[0, 1]] * 3)), [[7, -1], [.5, 3], [-2, 9]]); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 11],
// CHECK-NEXT: [8.5, 4],
// CHECK-NEXT: [5, 8]]
func.func @dup_add() {
  %data, %indices, %updates = call @dup_data() : () -> (tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>)
  %r = nd.scatter_elements %data[%indices], %updates reduction<add> : tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.array([[1., 2.], [3., 4.], [5., 6.]]); np.multiply.at(d, (np.array([[1, 2], [-2, -1], [1, 0]]), np.array([[0, 1]] * 3)), [[7, -1], [.5, 3], [-2, 9]]); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 18],
// CHECK-NEXT: [-21, 4],
// CHECK-NEXT: [5, -18]]
func.func @dup_mul() {
  %data, %indices, %updates = call @dup_data() : () -> (tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>)
  %r = nd.scatter_elements %data[%indices], %updates reduction<mul> : tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.array([[1., 2.], [3., 4.], [5., 6.]]); np.maximum.at(d, (np.array([[1, 2], [-2, -1], [1, 0]]), np.array([[0, 1]] * 3)), [[7, -1], [.5, 3], [-2, 9]]); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 9],
// CHECK-NEXT: [7, 4],
// CHECK-NEXT: [5, 6]]
func.func @dup_max() {
  %data, %indices, %updates = call @dup_data() : () -> (tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>)
  %r = nd.scatter_elements %data[%indices], %updates reduction<max> : tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.array([[1., 2.], [3., 4.], [5., 6.]]); np.minimum.at(d, (np.array([[1, 2], [-2, -1], [1, 0]]), np.array([[0, 1]] * 3)), [[7, -1], [.5, 3], [-2, 9]]); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 2],
// CHECK-NEXT: [-2, 4],
// CHECK-NEXT: [5, -1]]
func.func @dup_min() {
  %data, %indices, %updates = call @dup_data() : () -> (tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>)
  %r = nd.scatter_elements %data[%indices], %updates reduction<min> : tensor<3x2xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Duplicates along axis 1 under reduction<max> and <min> on i64, with i32
// indices: row 0 hits column 1 three times.
// numpy: d = np.array([[5, -5, 0], [1, 2, 3]]); np.maximum.at(d, (np.array([[0, 0, 0], [1, 1, 1]]), np.array([[1, -2, 1], [2, 0, -1]])), np.array([[-7, 4, 9], [-1, 8, 6]])); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}5, 9, 0],
// CHECK-NEXT: [8, 2, 6]]
func.func @dup_axis1_max_i64() {
  %data = arith.constant dense<[[5, -5, 0], [1, 2, 3]]> : tensor<2x3xi64>
  %indices = arith.constant dense<[[1, -2, 1], [2, 0, -1]]> : tensor<2x3xi32>
  %updates = arith.constant dense<[[-7, 4, 9], [-1, 8, 6]]> : tensor<2x3xi64>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<max> : tensor<2x3xi64>, tensor<2x3xi32>, tensor<2x3xi64>
  %u = tensor.cast %r : tensor<2x3xi64> to tensor<*xi64>
  call @print_i64(%u) : (tensor<*xi64>) -> ()
  return
}

// numpy: d = np.array([[5, -5, 0], [1, 2, 3]]); np.minimum.at(d, (np.array([[0, 0, 0], [1, 1, 1]]), np.array([[1, -2, 1], [2, 0, -1]])), np.array([[-7, 4, 9], [-1, 8, 6]])); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}5, -7, 0],
// CHECK-NEXT: [1, 2, -1]]
func.func @dup_axis1_min_i64() {
  %data = arith.constant dense<[[5, -5, 0], [1, 2, 3]]> : tensor<2x3xi64>
  %indices = arith.constant dense<[[1, -2, 1], [2, 0, -1]]> : tensor<2x3xi32>
  %updates = arith.constant dense<[[-7, 4, 9], [-1, 8, 6]]> : tensor<2x3xi64>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<min> : tensor<2x3xi64>, tensor<2x3xi32>, tensor<2x3xi64>
  %u = tensor.cast %r : tensor<2x3xi64> to tensor<*xi64>
  call @print_i64(%u) : (tensor<*xi64>) -> ()
  return
}

func.func @main() {
  call @onnx_example_1() : () -> ()
  call @onnx_example_2() : () -> ()
  call @onnx_negative_indices() : () -> ()
  call @onnx_duplicate_indices_add() : () -> ()
  call @negative_axis_i32() : () -> ()
  call @rank1_index_indices() : () -> ()
  call @rank3_axis1() : () -> ()
  call @dup_none() : () -> ()
  call @dup_add() : () -> ()
  call @dup_mul() : () -> ()
  call @dup_max() : () -> ()
  call @dup_min() : () -> ()
  call @dup_axis1_max_i64() : () -> ()
  call @dup_axis1_min_i64() : () -> ()
  return
}
