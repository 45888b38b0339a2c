// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// nd.gather_nd: the five examples of ONNX GatherND (example 5 with
// batch_dims = 1), then negative indices, i32 and `index` indices, rank-1
// indices and more batch dims.

func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print_i32(%t: tensor<*xi32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%m) : (memref<*xi32>) -> ()
  return
}

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// ONNX GatherND, example 1: k == r, one element per tuple.
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 3]
func.func @onnx_example_1() {
  %data = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %indices = arith.constant dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>
  %r = nd.gather_nd %data[%indices] : tensor<2x2xi32>, tensor<2x2xi64> -> tensor<2xi32>
  %u = tensor.cast %r : tensor<2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// ONNX GatherND, example 2: rows.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}2, 3],
// CHECK-NEXT: [0, 1]]
func.func @onnx_example_2() {
  %data = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %r = nd.gather_nd %data[%indices] : tensor<2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
  %u = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// ONNX GatherND, example 3.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}2, 3],
// CHECK-NEXT: [4, 5]]
func.func @onnx_example_3() {
  %data = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>
  %indices = arith.constant dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>
  %r = nd.gather_nd %data[%indices] : tensor<2x2x2xi32>, tensor<2x2xi64> -> tensor<2x2xi32>
  %u = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// ONNX GatherND, example 4: rank-3 indices.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}2, 3]],
// CHECK-NEXT: {{\[\[}}4, 5]]]
func.func @onnx_example_4() {
  %data = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>
  %indices = arith.constant dense<[[[0, 1]], [[1, 0]]]> : tensor<2x1x2xi64>
  %r = nd.gather_nd %data[%indices] : tensor<2x2x2xi32>, tensor<2x1x2xi64> -> tensor<2x1x2xi32>
  %u = tensor.cast %r : tensor<2x1x2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// ONNX GatherND, example 5: batch_dims = 1.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}2, 3],
// CHECK-NEXT: [4, 5]]
func.func @onnx_example_5() {
  %data = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %r = nd.gather_nd %data[%indices] batch_dims(1) : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
  %u = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// Negative components, k == 2 < r == 3, f32 data.
// numpy: d = np.arange(24.).reshape(2, 3, 4); i = np.array([[-1, -3], [0, 2], [-2, -1], [1, 1]]); r = d[i[:, 0], i[:, 1]]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}12, 13, 14, 15],
// CHECK-NEXT: [8, 9, 10, 11],
// CHECK-NEXT: [8, 9, 10, 11],
// CHECK-NEXT: [16, 17, 18, 19]]
func.func @negative_indices() {
  %data = arith.constant dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]],
                                [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]> : tensor<2x3x4xf32>
  %indices = arith.constant dense<[[-1, -3], [0, 2], [-2, -1], [1, 1]]> : tensor<4x2xi64>
  %r = nd.gather_nd %data[%indices] : tensor<2x3x4xf32>, tensor<4x2xi64> -> tensor<4x4xf32>
  %u = tensor.cast %r : tensor<4x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// i32 indices, k == r == 3, in a 2x2 grid, some negative.
// numpy: d = np.arange(24.).reshape(2, 3, 4); i = np.array([[[1, 2, 3], [-2, -3, -4]], [[0, -1, 1], [-1, 0, -2]]]); r = d[i[..., 0], i[..., 1], i[..., 2]]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}23, 0],
// CHECK-NEXT: [9, 14]]
func.func @i32_indices() {
  %data = arith.constant dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]],
                                [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]> : tensor<2x3x4xf32>
  %indices = arith.constant dense<[[[1, 2, 3], [-2, -3, -4]], [[0, -1, 1], [-1, 0, -2]]]> : tensor<2x2x3xi32>
  %r = nd.gather_nd %data[%indices] : tensor<2x3x4xf32>, tensor<2x2x3xi32> -> tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// `index` indices, k == 1: rows of a matrix, repeated and negative.
// numpy: d = np.arange(6.).reshape(3, 2); r = d[[2, -3, -1, 1, 2]]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}4, 5],
// CHECK-NEXT: [0, 1],
// CHECK-NEXT: [4, 5],
// CHECK-NEXT: [2, 3],
// CHECK-NEXT: [4, 5]]
func.func @index_indices() {
  %data = arith.constant dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]> : tensor<3x2xf32>
  %indices = arith.constant dense<[[2], [-3], [-1], [1], [2]]> : tensor<5x1xindex>
  %r = nd.gather_nd %data[%indices] : tensor<3x2xf32>, tensor<5x1xindex> -> tensor<5x2xf32>
  %u = tensor.cast %r : tensor<5x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Rank-1 indices: a single tuple, the result is one slice.
// numpy: d = np.arange(24.).reshape(2, 3, 4); r = d[-1, 1]
// CHECK: Unranked Memref
// CHECK-NEXT: [16, 17, 18, 19]
func.func @rank1_indices() {
  %data = arith.constant dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]],
                                [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]> : tensor<2x3x4xf32>
  %indices = arith.constant dense<[-1, 1]> : tensor<2xi64>
  %r = nd.gather_nd %data[%indices] : tensor<2x3x4xf32>, tensor<2xi64> -> tensor<4xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// batch_dims = 1 with k == 2 and two tuples per batch (i32 indices).
// numpy: d = np.arange(24.).reshape(2, 3, 4); i = np.array([[[0, 3], [2, -1]], [[-1, 0], [1, -3]]]); r = np.stack([d[n][i[n, :, 0], i[n, :, 1]] for n in range(2)])
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}3, 11],
// CHECK-NEXT: [20, 17]]
func.func @batch_dims_1_k2() {
  %data = arith.constant dense<[[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]],
                                [[12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]]> : tensor<2x3x4xf32>
  %indices = arith.constant dense<[[[0, 3], [2, -1]], [[-1, 0], [1, -3]]]> : tensor<2x2x2xi32>
  %r = nd.gather_nd %data[%indices] batch_dims(1) : tensor<2x3x4xf32>, tensor<2x2x2xi32> -> tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// batch_dims = 2: one row of the 3x2 trailing matrix per (n, m) pair.
// numpy: d = np.arange(24.).reshape(2, 2, 3, 2); i = np.array([[[2], [0]], [[-2], [-1]]]); r = np.array([[d[n, m, i[n, m, 0]] for m in range(2)] for n in range(2)])
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}4, 5],
// CHECK-NEXT: [6, 7]],
// CHECK-NEXT: {{\[\[}}14, 15],
// CHECK-NEXT: [22, 23]]]
func.func @batch_dims_2() {
  %data = arith.constant dense<[[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]],
                                [[[12.0, 13.0], [14.0, 15.0], [16.0, 17.0]], [[18.0, 19.0], [20.0, 21.0], [22.0, 23.0]]]]> : tensor<2x2x3x2xf32>
  %indices = arith.constant dense<[[[2], [0]], [[-2], [-1]]]> : tensor<2x2x1xi64>
  %r = nd.gather_nd %data[%indices] batch_dims(2) : tensor<2x2x3x2xf32>, tensor<2x2x1xi64> -> tensor<2x2x2xf32>
  %u = tensor.cast %r : tensor<2x2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @onnx_example_1() : () -> ()
  call @onnx_example_2() : () -> ()
  call @onnx_example_3() : () -> ()
  call @onnx_example_4() : () -> ()
  call @onnx_example_5() : () -> ()
  call @negative_indices() : () -> ()
  call @i32_indices() : () -> ()
  call @index_indices() : () -> ()
  call @rank1_indices() : () -> ()
  call @batch_dims_1_k2() : () -> ()
  call @batch_dims_2() : () -> ()
  return
}
