// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// nd.gather_elements: the ONNX GatherElements backend tests
// (test_gather_elements_0 on axis 1, _1 and _negative_indices on axis 0),
// then negative axis, i32 / `index` indices, rank 1 and 3, `indices` longer
// than `data` along the axis and shorter off it.

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

// ONNX test_gather_elements_0 (axis 1).
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 1],
// CHECK-NEXT: [4, 3]]
func.func @onnx_axis1() {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %indices = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %r = nd.gather_elements %data[%indices] axis(1) : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ONNX test_gather_elements_1 (axis 0, `indices` has fewer rows than `data`).
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}4, 8, 3],
// CHECK-NEXT: [7, 2, 3]]
func.func @onnx_axis0() {
  %data = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %indices = arith.constant dense<[[1, 2, 0], [2, 0, 0]]> : tensor<2x3xi64>
  %r = nd.gather_elements %data[%indices] : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  %u = tensor.cast %r : tensor<2x3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ONNX test_gather_elements_negative_indices (axis 0).
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}7, 5, 3],
// CHECK-NEXT: [4, 2, 3]]
func.func @onnx_negative_indices() {
  %data = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %indices = arith.constant dense<[[-1, -2, 0], [-2, 0, 0]]> : tensor<2x3xi64>
  %r = nd.gather_elements %data[%indices] axis(0) : tensor<3x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  %u = tensor.cast %r : tensor<2x3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// axis(-2) of rank 2 is axis 0; i32 indices, `indices` narrower than
// `data` and longer along the axis.
// numpy: d = np.array([[10, 11, 12, 13], [20, 21, 22, 23]]); i = np.array([[1, -1, 0], [-2, 0, 1], [1, 1, -1], [0, -2, 0]]); r = d[i, np.arange(3)]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}20, 21, 12],
// CHECK-NEXT: [10, 11, 22],
// CHECK-NEXT: [20, 21, 22],
// CHECK-NEXT: [10, 11, 12]]
func.func @negative_axis_i32() {
  %data = arith.constant dense<[[10, 11, 12, 13], [20, 21, 22, 23]]> : tensor<2x4xi32>
  %indices = arith.constant dense<[[1, -1, 0], [-2, 0, 1], [1, 1, -1], [0, -2, 0]]> : tensor<4x3xi32>
  %r = nd.gather_elements %data[%indices] axis(-2) : tensor<2x4xi32>, tensor<4x3xi32> -> tensor<4x3xi32>
  %u = tensor.cast %r : tensor<4x3xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// Rank 1, `index` indices, more of them than elements in `data`.
// numpy: d = np.array([0.5, 1.5, 2.5]); r = d[[2, -1, 0, -3, 1, -2, 2]]
// CHECK: Unranked Memref
// CHECK-NEXT: [2.5, 2.5, 0.5, 0.5, 1.5, 1.5, 2.5]
func.func @rank1_index_indices() {
  %data = arith.constant dense<[0.5, 1.5, 2.5]> : tensor<3xf32>
  %indices = arith.constant dense<[2, -1, 0, -3, 1, -2, 2]> : tensor<7xindex>
  %r = nd.gather_elements %data[%indices] : tensor<3xf32>, tensor<7xindex> -> tensor<7xf32>
  %u = tensor.cast %r : tensor<7xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Rank 3, axis(-1) (axis 2), `indices` 2x2x3 inside data 2x3x2.
// numpy: d = np.arange(12.).reshape(2, 3, 2); i = np.array([[[1, 0, -1], [-2, 1, 1]], [[0, 0, -1], [1, -1, -2]]]); r = d[np.arange(2)[:, None, None], np.arange(2)[None, :, None], i]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}1, 0, 1],
// CHECK-NEXT: [2, 3, 3]],
// CHECK-NEXT: {{\[\[}}6, 6, 7],
// CHECK-NEXT: [9, 9, 8]]]
func.func @rank3_last_axis() {
  %data = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]]> : tensor<2x3x2xf32>
  %indices = arith.constant dense<[[[1, 0, -1], [-2, 1, 1]], [[0, 0, -1], [1, -1, -2]]]> : tensor<2x2x3xi64>
  %r = nd.gather_elements %data[%indices] axis(-1) : tensor<2x3x2xf32>, tensor<2x2x3xi64> -> tensor<2x2x3xf32>
  %u = tensor.cast %r : tensor<2x2x3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Rank 3, axis 1, i32 indices.
// numpy: d = np.arange(12.).reshape(2, 3, 2); i = np.array([[[2, -3]], [[-1, 1]]]); r = d[np.arange(2)[:, None, None], i, np.arange(2)]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}4, 1]],
// CHECK-NEXT: {{\[\[}}10, 9]]]
func.func @rank3_axis1() {
  %data = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]], [[6.0, 7.0], [8.0, 9.0], [10.0, 11.0]]]> : tensor<2x3x2xf32>
  %indices = arith.constant dense<[[[2, -3]], [[-1, 1]]]> : tensor<2x1x2xi32>
  %r = nd.gather_elements %data[%indices] axis(1) : tensor<2x3x2xf32>, tensor<2x1x2xi32> -> tensor<2x1x2xf32>
  %u = tensor.cast %r : tensor<2x1x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @onnx_axis1() : () -> ()
  call @onnx_axis0() : () -> ()
  call @onnx_negative_indices() : () -> ()
  call @negative_axis_i32() : () -> ()
  call @rank1_index_indices() : () -> ()
  call @rank3_last_axis() : () -> ()
  call @rank3_axis1() : () -> ()
  return
}
