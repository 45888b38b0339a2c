// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// Dynamic dims: the operands are cast to `?` dims (index-tuple dims, slice
// dims, batch dims, the axis dim, all of them) before the nd op, so the
// lowering reads every size at run time. The results are printed through an
// unranked cast; the printed sizes check the shape of the result too.

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

//===----------------------------------------------------------------------===//
// scatter_nd
//===----------------------------------------------------------------------===//

// ONNX ScatterND example 2 with every dim dynamic but k.
// CHECK: Unranked Memref {{.*}} sizes = [4, 4, 4]
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
func.func @scatter_nd_all_dynamic() {
  %data = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]> : tensor<4x4x4xf32>
  %indices = arith.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[[[5.0, 5.0, 5.0, 5.0], [6.0, 6.0, 6.0, 6.0], [7.0, 7.0, 7.0, 7.0], [8.0, 8.0, 8.0, 8.0]],
                                   [[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 4.0]]]> : tensor<2x4x4xf32>
  %d = tensor.cast %data : tensor<4x4x4xf32> to tensor<?x?x?xf32>
  %i = tensor.cast %indices : tensor<2x1xi64> to tensor<?x1xi64>
  %u = tensor.cast %updates : tensor<2x4x4xf32> to tensor<?x?x?xf32>
  %r = nd.scatter_nd %d[%i], %u : tensor<?x?x?xf32>, tensor<?x1xi64>, tensor<?x?x?xf32>
  %p = tensor.cast %r : tensor<?x?x?xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

// Dynamic slice dims only (static data dim 0 and index-tuple dim), add.
// numpy: d = np.arange(12.).reshape(3, 2, 2); np.add.at(d, [-1, 0, 2], np.array([[[1, 1], [1, 1]], [[2, 3], [4, 5]], [[10, 20], [30, 40]]])); r = d
// CHECK: Unranked Memref {{.*}} sizes = [3, 2, 2]
// CHECK-NEXT: {{\[\[\[}}2, 4],
// CHECK-NEXT: [6, 8]],
// CHECK-NEXT: {{\[\[}}4, 5],
// CHECK-NEXT: [6, 7]],
// CHECK-NEXT: {{\[\[}}19, 30],
// CHECK-NEXT: [41, 52]]]
func.func @scatter_nd_dynamic_slice_dims() {
  %data = arith.constant dense<[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]], [[8.0, 9.0], [10.0, 11.0]]]> : tensor<3x2x2xf32>
  %indices = arith.constant dense<[[-1], [0], [2]]> : tensor<3x1xi64>
  %updates = arith.constant dense<[[[1.0, 1.0], [1.0, 1.0]], [[2.0, 3.0], [4.0, 5.0]], [[10.0, 20.0], [30.0, 40.0]]]> : tensor<3x2x2xf32>
  %d = tensor.cast %data : tensor<3x2x2xf32> to tensor<3x?x?xf32>
  %u = tensor.cast %updates : tensor<3x2x2xf32> to tensor<3x?x2xf32>
  %r = nd.scatter_nd %d[%indices], %u reduction<add> : tensor<3x?x?xf32>, tensor<3x1xi64>, tensor<3x?x2xf32>
  %p = tensor.cast %r : tensor<3x?x?xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

// k == r with a 2-D grid of tuples, dynamic grid dims, i32 indices.
// numpy: d = np.zeros((2, 3)); i = np.array([[[0, 0], [1, -1]], [[-2, 1], [1, 0]]]); d[i[..., 0], i[..., 1]] = [[1, 2], [3, 4]]; r = d
// CHECK: Unranked Memref {{.*}} sizes = [2, 3]
// CHECK-NEXT: {{\[\[}}1, 3, 0],
// CHECK-NEXT: [4, 0, 2]]
func.func @scatter_nd_dynamic_index_grid() {
  %data = arith.constant dense<0.0> : tensor<2x3xf32>
  %indices = arith.constant dense<[[[0, 0], [1, -1]], [[-2, 1], [1, 0]]]> : tensor<2x2x2xi32>
  %updates = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %d = tensor.cast %data : tensor<2x3xf32> to tensor<?x3xf32>
  %i = tensor.cast %indices : tensor<2x2x2xi32> to tensor<?x?x2xi32>
  %u = tensor.cast %updates : tensor<2x2xf32> to tensor<2x?xf32>
  %r = nd.scatter_nd %d[%i], %u : tensor<?x3xf32>, tensor<?x?x2xi32>, tensor<2x?xf32>
  %p = tensor.cast %r : tensor<?x3xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

// OpenVINO single element into dynamic data.
// numpy: d = np.arange(6.).reshape(2, 3); d[-1, 1] = 9; r = d
// CHECK: Unranked Memref {{.*}} sizes = [2, 3]
// CHECK-NEXT: {{\[\[}}0, 1, 2],
// CHECK-NEXT: [3, 9, 5]]
func.func @scatter_nd_single_element_dynamic() {
  %data = arith.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %indices = arith.constant dense<[-1, 1]> : tensor<2xi64>
  %updates = arith.constant dense<[[9.0]]> : tensor<1x1xf32>
  %d = tensor.cast %data : tensor<2x3xf32> to tensor<?x?xf32>
  %r = nd.scatter_nd %d[%indices], %updates : tensor<?x?xf32>, tensor<2xi64>, tensor<1x1xf32>
  %p = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// gather_nd
//===----------------------------------------------------------------------===//

// ONNX GatherND example 5 with a dynamic batch dim in data and indices.
// CHECK: Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: {{\[\[}}2, 3],
// CHECK-NEXT: [4, 5]]
func.func @gather_nd_dynamic_batch() {
  %data = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %d = tensor.cast %data : tensor<2x2x2xi32> to tensor<?x2x?xi32>
  %i = tensor.cast %indices : tensor<2x1xi64> to tensor<?x1xi64>
  %r = nd.gather_nd %d[%i] batch_dims(1) : tensor<?x2x?xi32>, tensor<?x1xi64> -> tensor<?x?xi32>
  %p = tensor.cast %r : tensor<?x?xi32> to tensor<*xi32>
  call @print_i32(%p) : (tensor<*xi32>) -> ()
  return
}

// Dynamic batch dim in data only (the result takes it from data).
// CHECK: Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: {{\[\[}}2, 3],
// CHECK-NEXT: [4, 5]]
func.func @gather_nd_dynamic_batch_in_data() {
  %data = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %d = tensor.cast %data : tensor<2x2x2xi32> to tensor<?x?x?xi32>
  %r = nd.gather_nd %d[%indices] batch_dims(1) : tensor<?x?x?xi32>, tensor<2x1xi64> -> tensor<2x?xi32>
  %p = tensor.cast %r : tensor<2x?xi32> to tensor<*xi32>
  call @print_i32(%p) : (tensor<*xi32>) -> ()
  return
}

// Dynamic batch dim in indices only (the result type is static).
// CHECK: Unranked Memref {{.*}} sizes = [2, 2]
// CHECK-NEXT: {{\[\[}}2, 3],
// CHECK-NEXT: [4, 5]]
func.func @gather_nd_dynamic_batch_in_indices() {
  %data = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %i = tensor.cast %indices : tensor<2x1xi64> to tensor<?x1xi64>
  %r = nd.gather_nd %data[%i] batch_dims(1) : tensor<2x2x2xi32>, tensor<?x1xi64> -> tensor<2x2xi32>
  %p = tensor.cast %r : tensor<2x2xi32> to tensor<*xi32>
  call @print_i32(%p) : (tensor<*xi32>) -> ()
  return
}

// ONNX GatherND example 2 with dynamic tuple count and slice dim.
// CHECK: Unranked Memref {{.*}} sizes = [3, 2]
// CHECK-NEXT: {{\[\[}}2, 3],
// CHECK-NEXT: [0, 1],
// CHECK-NEXT: [2, 3]]
func.func @gather_nd_dynamic_slice() {
  %data = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %indices = arith.constant dense<[[1], [0], [-1]]> : tensor<3x1xi32>
  %d = tensor.cast %data : tensor<2x2xi32> to tensor<2x?xi32>
  %i = tensor.cast %indices : tensor<3x1xi32> to tensor<?x1xi32>
  %r = nd.gather_nd %d[%i] : tensor<2x?xi32>, tensor<?x1xi32> -> tensor<?x?xi32>
  %p = tensor.cast %r : tensor<?x?xi32> to tensor<*xi32>
  call @print_i32(%p) : (tensor<*xi32>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// scatter_elements and gather_elements
//===----------------------------------------------------------------------===//

// ONNX Scatter example 1, every dim dynamic.
// CHECK: Unranked Memref {{.*}} sizes = [3, 3]
// CHECK-NEXT: {{\[\[}}2, 1.1, 0],
// CHECK-NEXT: [1, 0, 2.2],
// CHECK-NEXT: [0, 2.1, 1.2]]
func.func @scatter_elements_all_dynamic() {
  %data = arith.constant dense<0.0> : tensor<3x3xf32>
  %indices = arith.constant dense<[[1, 0, 2], [0, 2, 1]]> : tensor<2x3xi64>
  %updates = arith.constant dense<[[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]]> : tensor<2x3xf32>
  %d = tensor.cast %data : tensor<3x3xf32> to tensor<?x?xf32>
  %i = tensor.cast %indices : tensor<2x3xi64> to tensor<?x?xi64>
  %u = tensor.cast %updates : tensor<2x3xf32> to tensor<?x?xf32>
  %r = nd.scatter_elements %d[%i], %u : tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>
  %p = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

// Axis 1 dynamic in data only, reduction<max>, `indices` narrower than data.
// numpy: d = np.array([[1., 2, 3, 4, 5], [5, 4, 3, 2, 1]]); np.maximum.at(d, (np.array([[0, 0], [1, 1]]), np.array([[1, -1], [0, 0]])), [[0.5, 9], [7, 6]]); r = d
// CHECK: Unranked Memref {{.*}} sizes = [2, 5]
// CHECK-NEXT: {{\[\[}}1, 2, 3, 4, 9],
// CHECK-NEXT: [7, 4, 3, 2, 1]]
func.func @scatter_elements_dynamic_axis() {
  %data = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 4.0, 3.0, 2.0, 1.0]]> : tensor<2x5xf32>
  %indices = arith.constant dense<[[1, -1], [0, 0]]> : tensor<2x2xi32>
  %updates = arith.constant dense<[[0.5, 9.0], [7.0, 6.0]]> : tensor<2x2xf32>
  %d = tensor.cast %data : tensor<2x5xf32> to tensor<2x?xf32>
  %u = tensor.cast %updates : tensor<2x2xf32> to tensor<?x2xf32>
  %r = nd.scatter_elements %d[%indices], %u axis(1) reduction<max> : tensor<2x?xf32>, tensor<2x2xi32>, tensor<?x2xf32>
  %p = tensor.cast %r : tensor<2x?xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

// ONNX test_gather_elements_1, every dim dynamic.
// CHECK: Unranked Memref {{.*}} sizes = [2, 3]
// CHECK-NEXT: {{\[\[}}4, 8, 3],
// CHECK-NEXT: [7, 2, 3]]
func.func @gather_elements_all_dynamic() {
  %data = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %indices = arith.constant dense<[[1, 2, 0], [2, 0, 0]]> : tensor<2x3xi64>
  %d = tensor.cast %data : tensor<3x3xf32> to tensor<?x?xf32>
  %i = tensor.cast %indices : tensor<2x3xi64> to tensor<?x?xi64>
  %r = nd.gather_elements %d[%i] : tensor<?x?xf32>, tensor<?x?xi64> -> tensor<?x?xf32>
  %p = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

// Dynamic axis dim in data, static `indices` (axis 1, negative indices).
// numpy: d = np.arange(8.).reshape(2, 4); i = np.array([[-1, 0, 2], [1, -4, -3]]); r = d[np.arange(2)[:, None], i]
// CHECK: Unranked Memref {{.*}} sizes = [2, 3]
// CHECK-NEXT: {{\[\[}}3, 0, 2],
// CHECK-NEXT: [5, 4, 5]]
func.func @gather_elements_dynamic_axis() {
  %data = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]> : tensor<2x4xf32>
  %indices = arith.constant dense<[[-1, 0, 2], [1, -4, -3]]> : tensor<2x3xi64>
  %d = tensor.cast %data : tensor<2x4xf32> to tensor<2x?xf32>
  %r = nd.gather_elements %d[%indices] axis(1) : tensor<2x?xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  %p = tensor.cast %r : tensor<2x3xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @scatter_nd_all_dynamic() : () -> ()
  call @scatter_nd_dynamic_slice_dims() : () -> ()
  call @scatter_nd_dynamic_index_grid() : () -> ()
  call @scatter_nd_single_element_dynamic() : () -> ()
  call @gather_nd_dynamic_batch() : () -> ()
  call @gather_nd_dynamic_batch_in_data() : () -> ()
  call @gather_nd_dynamic_batch_in_indices() : () -> ()
  call @gather_nd_dynamic_slice() : () -> ()
  call @scatter_elements_all_dynamic() : () -> ()
  call @scatter_elements_dynamic_axis() : () -> ()
  call @gather_elements_all_dynamic() : () -> ()
  call @gather_elements_dynamic_axis() : () -> ()
  return
}
