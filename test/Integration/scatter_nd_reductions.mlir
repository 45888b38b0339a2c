// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// nd.scatter_nd with reduction<add|mul|max|min>: the ONNX examples
// (test_scatternd_add, _multiply, _max, _min), then duplicate tuples under
// every reduction, for single elements and for slices, on f32 and i32 data.
//
// The ONNX examples scatter both updates into slot 0 ([[0], [0]]); slots 1
// to 3 keep `data`. (The "Expecting output" comment of these examples in the
// ONNX operator document shows updates[1] in slot 2, a copy-paste slip: the
// backend test data, e.g. test_scatternd_add/output_0.pb, has data[2] there,
// as the spec's own loop gives.)

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

func.func @onnx_data() -> (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>) {
  %data = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]> : tensor<4x4x4xf32>
  %indices = arith.constant dense<[[0], [0]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[[[5.0, 5.0, 5.0, 5.0], [6.0, 6.0, 6.0, 6.0], [7.0, 7.0, 7.0, 7.0], [8.0, 8.0, 8.0, 8.0]],
                                   [[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 4.0]]]> : tensor<2x4x4xf32>
  return %data, %indices, %updates : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
}

// ONNX ScatterND, _scatternd_add.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}7, 8, 9, 10],
// CHECK-NEXT: [13, 14, 15, 16],
// CHECK-NEXT: [18, 17, 16, 15],
// CHECK-NEXT: [16, 15, 14, 13]],
// CHECK-NEXT: {{\[\[}}1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8],
// CHECK-NEXT: [8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]]]
func.func @onnx_add() {
  %data, %indices, %updates = call @onnx_data() : () -> (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
  %u = tensor.cast %r : tensor<4x4x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ONNX ScatterND, _scatternd_multiply.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}5, 10, 15, 20],
// CHECK-NEXT: [60, 72, 84, 96],
// CHECK-NEXT: [168, 147, 126, 105],
// CHECK-NEXT: [128, 96, 64, 32]],
// CHECK-NEXT: {{\[\[}}1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8],
// CHECK-NEXT: [8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]]]
func.func @onnx_mul() {
  %data, %indices, %updates = call @onnx_data() : () -> (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<mul> : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
  %u = tensor.cast %r : tensor<4x4x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ONNX ScatterND, _scatternd_max.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}5, 5, 5, 5],
// CHECK-NEXT: [6, 6, 7, 8],
// CHECK-NEXT: [8, 7, 7, 7],
// CHECK-NEXT: [8, 8, 8, 8]],
// CHECK-NEXT: {{\[\[}}1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8],
// CHECK-NEXT: [8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]]]
func.func @onnx_max() {
  %data, %indices, %updates = call @onnx_data() : () -> (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
  %u = tensor.cast %r : tensor<4x4x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// ONNX ScatterND, _scatternd_min.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}1, 1, 1, 1],
// CHECK-NEXT: [2, 2, 2, 2],
// CHECK-NEXT: [3, 3, 3, 3],
// CHECK-NEXT: [4, 3, 2, 1]],
// CHECK-NEXT: {{\[\[}}1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8],
// CHECK-NEXT: [8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]],
// CHECK-NEXT: {{\[\[}}8, 7, 6, 5],
// CHECK-NEXT: [4, 3, 2, 1],
// CHECK-NEXT: [1, 2, 3, 4],
// CHECK-NEXT: [5, 6, 7, 8]]]
func.func @onnx_min() {
  %data, %indices, %updates = call @onnx_data() : () -> (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
  %u = tensor.cast %r : tensor<4x4x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Duplicate single elements (k == r == 1): element 1 gets 4 updates (two
// of them as -7), element 5 gets 2, element 0 gets 1.
func.func @elements_data() -> (tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>) {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %indices = arith.constant dense<[[1], [5], [-7], [0], [1], [-3], [-7]]> : tensor<7x1xi64>
  %updates = arith.constant dense<[3.0, -2.0, 0.5, 10.0, -4.0, 9.0, 2.0]> : tensor<7xf32>
  return %data, %indices, %updates : tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>
}

// numpy: d = np.arange(1., 9.); np.add.at(d, [1, 5, -7, 0, 1, -3, -7], [3, -2, .5, 10, -4, 9, 2]); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [11, 3.5, 3, 4, 5, 13, 7, 8]
func.func @elements_add() {
  %data, %indices, %updates = call @elements_data() : () -> (tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.arange(1., 9.); np.multiply.at(d, [1, 5, -7, 0, 1, -3, -7], [3, -2, .5, 10, -4, 9, 2]); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [10, -24, 3, 4, 5, -108, 7, 8]
func.func @elements_mul() {
  %data, %indices, %updates = call @elements_data() : () -> (tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<mul> : tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.arange(1., 9.); np.maximum.at(d, [1, 5, -7, 0, 1, -3, -7], [3, -2, .5, 10, -4, 9, 2]); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [10, 3, 3, 4, 5, 9, 7, 8]
func.func @elements_max() {
  %data, %indices, %updates = call @elements_data() : () -> (tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.arange(1., 9.); np.minimum.at(d, [1, 5, -7, 0, 1, -3, -7], [3, -2, .5, 10, -4, 9, 2]); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [1, -4, 3, 4, 5, -2, 7, 8]
func.func @elements_min() {
  %data, %indices, %updates = call @elements_data() : () -> (tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<8xf32>, tensor<7x1xi64>, tensor<7xf32>
  %u = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Duplicate slices with k == 2 < r == 3 and i32 indices: the rows [0, 2]
// (also written [-2, -1]) and [1, 1] (also [-1, -2]) are hit twice each,
// [1, 0] once.
func.func @slices_data() -> (tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>) {
  %data = arith.constant dense<[[[1, -2], [3, -4], [5, -6]], [[-7, 8], [-9, 10], [11, -12]]]> : tensor<2x3x2xi32>
  %indices = arith.constant dense<[[1, 0], [0, 2], [-1, -2], [1, 1], [-2, -1]]> : tensor<5x2xi32>
  %updates = arith.constant dense<[[2, 3], [-5, 4], [-3, 7], [6, -1], [4, -8]]> : tensor<5x2xi32>
  return %data, %indices, %updates : tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>
}

// numpy: d = np.array([[[1, -2], [3, -4], [5, -6]], [[-7, 8], [-9, 10], [11, -12]]], np.int32); np.add.at(d, ([1, 0, -1, 1, -2], [0, 2, -2, 1, -1]), np.array([[2, 3], [-5, 4], [-3, 7], [6, -1], [4, -8]], np.int32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}1, -2],
// CHECK-NEXT: [3, -4],
// CHECK-NEXT: [4, -10]],
// CHECK-NEXT: {{\[\[}}-5, 11],
// CHECK-NEXT: [-6, 16],
// CHECK-NEXT: [11, -12]]]
func.func @slices_add() {
  %data, %indices, %updates = call @slices_data() : () -> (tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>
  %u = tensor.cast %r : tensor<2x3x2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// numpy: d = np.array([[[1, -2], [3, -4], [5, -6]], [[-7, 8], [-9, 10], [11, -12]]], np.int32); np.multiply.at(d, ([1, 0, -1, 1, -2], [0, 2, -2, 1, -1]), np.array([[2, 3], [-5, 4], [-3, 7], [6, -1], [4, -8]], np.int32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}1, -2],
// CHECK-NEXT: [3, -4],
// CHECK-NEXT: [-100, 192]],
// CHECK-NEXT: {{\[\[}}-14, 24],
// CHECK-NEXT: [162, -70],
// CHECK-NEXT: [11, -12]]]
func.func @slices_mul() {
  %data, %indices, %updates = call @slices_data() : () -> (tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<mul> : tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>
  %u = tensor.cast %r : tensor<2x3x2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// numpy: d = np.array([[[1, -2], [3, -4], [5, -6]], [[-7, 8], [-9, 10], [11, -12]]], np.int32); np.maximum.at(d, ([1, 0, -1, 1, -2], [0, 2, -2, 1, -1]), np.array([[2, 3], [-5, 4], [-3, 7], [6, -1], [4, -8]], np.int32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}1, -2],
// CHECK-NEXT: [3, -4],
// CHECK-NEXT: [5, 4]],
// CHECK-NEXT: {{\[\[}}2, 8],
// CHECK-NEXT: [6, 10],
// CHECK-NEXT: [11, -12]]]
func.func @slices_max() {
  %data, %indices, %updates = call @slices_data() : () -> (tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>
  %u = tensor.cast %r : tensor<2x3x2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

// numpy: d = np.array([[[1, -2], [3, -4], [5, -6]], [[-7, 8], [-9, 10], [11, -12]]], np.int32); np.minimum.at(d, ([1, 0, -1, 1, -2], [0, 2, -2, 1, -1]), np.array([[2, 3], [-5, 4], [-3, 7], [6, -1], [4, -8]], np.int32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}1, -2],
// CHECK-NEXT: [3, -4],
// CHECK-NEXT: [-5, -8]],
// CHECK-NEXT: {{\[\[}}-7, 3],
// CHECK-NEXT: [-9, -1],
// CHECK-NEXT: [11, -12]]]
func.func @slices_min() {
  %data, %indices, %updates = call @slices_data() : () -> (tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<2x3x2xi32>, tensor<5x2xi32>, tensor<5x2xi32>
  %u = tensor.cast %r : tensor<2x3x2xi32> to tensor<*xi32>
  call @print_i32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  call @onnx_add() : () -> ()
  call @onnx_mul() : () -> ()
  call @onnx_max() : () -> ()
  call @onnx_min() : () -> ()
  call @elements_add() : () -> ()
  call @elements_mul() : () -> ()
  call @elements_max() : () -> ()
  call @elements_min() : () -> ()
  call @slices_add() : () -> ()
  call @slices_mul() : () -> ()
  call @slices_max() : () -> ()
  call @slices_min() : () -> ()
  return
}
