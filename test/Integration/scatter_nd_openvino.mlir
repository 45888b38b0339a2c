// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// nd.scatter_nd as OpenVINO ScatterNDUpdate-3: the two examples of the
// specification (with i32 indices, OpenVINO's T_IND), and the single-element
// case "if expected updates rank is 0D it can be a tensor with single
// element": rank(indices) == 1 and k == rank(data), with `updates` of shape
// [1], [1, 1] and also 0-D.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// ScatterNDUpdate-3, example 1: update of four single elements.
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 11, 3, 10, 9, 6, 7, 12]
func.func @openvino_example_1() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %indices = arith.constant dense<[[4], [3], [1], [7]]> : tensor<4x1xi32>
  %updates = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<4x1xi32>, tensor<4xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ScatterNDUpdate-3, example 2: update of two slices of 4x4 shape.
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
func.func @openvino_example_2() {
  %data = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]> : tensor<4x4x4xf32>
  %indices = arith.constant dense<[[0], [2]]> : tensor<2x1xi32>
  %updates = arith.constant dense<[[[5.0, 5.0, 5.0, 5.0], [6.0, 6.0, 6.0, 6.0], [7.0, 7.0, 7.0, 7.0], [8.0, 8.0, 8.0, 8.0]],
                                   [[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 4.0]]]> : tensor<2x4x4xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<4x4x4xf32>, tensor<2x1xi32>, tensor<2x4x4xf32>
  %u = tensor.cast %r : tensor<4x4x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Single element, rank-1 data: indices [5], updates of shape [1].
// numpy: d = np.arange(1., 9.); d[5] = 42; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 2, 3, 4, 5, 42, 7, 8]
func.func @single_element_1d() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %indices = arith.constant dense<[5]> : tensor<1xi64>
  %updates = arith.constant dense<[42.0]> : tensor<1xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<1xi64>, tensor<1xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Single element, rank-2 data: indices [1, -1] (i32), updates of shape
// [1, 1].
// numpy: d = np.arange(6.).reshape(2, 3); d[1, -1] = -7.5; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}0, 1, 2],
// CHECK-NEXT: [3, 4, -7.5]]
func.func @single_element_2d() {
  %data = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %indices = arith.constant dense<[1, -1]> : tensor<2xi32>
  %updates = arith.constant dense<[[-7.5]]> : tensor<1x1xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<2x3xf32>, tensor<2xi32>, tensor<1x1xf32>
  %u = tensor.cast %r : tensor<2x3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The same element with the 0-D `updates` of ONNX.
// numpy: d = np.arange(6.).reshape(2, 3); d[1, -1] = 0.25; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}0, 1, 2],
// CHECK-NEXT: [3, 4, 0.25]]
func.func @single_element_0d_updates() {
  %data = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %indices = arith.constant dense<[1, -1]> : tensor<2xindex>
  %updates = arith.constant dense<0.25> : tensor<f32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<2x3xf32>, tensor<2xindex>, tensor<f32>
  %u = tensor.cast %r : tensor<2x3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// A single element combined under reduction<mul>, addressed as -3.
// numpy: d = np.arange(1., 9.); d[-3] *= 4; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 2, 3, 4, 5, 24, 7, 8]
func.func @single_element_mul() {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %indices = arith.constant dense<[-3]> : tensor<1xi64>
  %updates = arith.constant dense<[4.0]> : tensor<1xf32>
  %r = nd.scatter_nd %data[%indices], %updates reduction<mul> : tensor<8xf32>, tensor<1xi64>, tensor<1xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @openvino_example_1() : () -> ()
  call @openvino_example_2() : () -> ()
  call @single_element_1d() : () -> ()
  call @single_element_2d() : () -> ()
  call @single_element_0d_updates() : () -> ()
  call @single_element_mul() : () -> ()
  return
}
