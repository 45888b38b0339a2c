// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// Tensors with a dimension of size 0 (valid in ONNX and accepted by the
// verifiers): no index tuple, no index element, or empty slices. A scatter
// then returns `data` unchanged and a gather an empty tensor. The printer
// shows garbage for the elements of an empty memref, so empty results are
// checked through their sizes (printed as an index tensor).

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefInd(memref<*xindex>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @print_sizes(%t: tensor<*xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %t, %c0 : tensor<*xf32>
  %d1 = tensor.dim %t, %c1 : tensor<*xf32>
  %s = tensor.from_elements %d0, %d1 : tensor<2xindex>
  %u = tensor.cast %s : tensor<2xindex> to tensor<*xindex>
  %m = bufferization.to_buffer %u read_only : tensor<*xindex> to memref<*xindex>
  call @printMemrefInd(%m) : (memref<*xindex>) -> ()
  return
}

// No index tuple (indices 0x1): data comes back unchanged.
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 2, 3]
func.func @scatter_nd_no_tuple() {
  %data = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %indices = arith.constant dense<> : tensor<0x1xi64>
  %updates = arith.constant dense<> : tensor<0xf32>
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<3xf32>, tensor<0x1xi64>, tensor<0xf32>
  %u = tensor.cast %r : tensor<3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The same with the tuple count dynamic (0 at run time).
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 2],
// CHECK-NEXT: [3, 4]]
func.func @scatter_nd_no_tuple_dynamic() {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %indices = arith.constant dense<> : tensor<0x1xi32>
  %updates = arith.constant dense<> : tensor<0x2xf32>
  %i = tensor.cast %indices : tensor<0x1xi32> to tensor<?x1xi32>
  %u = tensor.cast %updates : tensor<0x2xf32> to tensor<?x2xf32>
  %r = nd.scatter_nd %data[%i], %u : tensor<2x2xf32>, tensor<?x1xi32>, tensor<?x2xf32>
  %p = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

// No index element: data comes back unchanged.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 2],
// CHECK-NEXT: [3, 4]]
func.func @scatter_elements_no_index() {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %indices = arith.constant dense<> : tensor<0x2xi64>
  %updates = arith.constant dense<> : tensor<0x2xf32>
  %r = nd.scatter_elements %data[%indices], %updates reduction<mul> : tensor<2x2xf32>, tensor<0x2xi64>, tensor<0x2xf32>
  %p = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

// Gathers with no index tuple / element give empty results.
// CHECK: Unranked Memref
// CHECK-NEXT: [0, 2]
func.func @gather_nd_no_tuple() {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %indices = arith.constant dense<> : tensor<0x1xi64>
  %i = tensor.cast %indices : tensor<0x1xi64> to tensor<?x1xi64>
  %r = nd.gather_nd %data[%i] : tensor<2x2xf32>, tensor<?x1xi64> -> tensor<?x2xf32>
  %p = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @print_sizes(%p) : (tensor<*xf32>) -> ()
  return
}

// CHECK: Unranked Memref
// CHECK-NEXT: [2, 0]
func.func @gather_elements_no_index() {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %indices = arith.constant dense<> : tensor<2x0xi64>
  %r = nd.gather_elements %data[%indices] axis(1) : tensor<2x2xf32>, tensor<2x0xi64> -> tensor<2x0xf32>
  %p = tensor.cast %r : tensor<2x0xf32> to tensor<*xf32>
  call @print_sizes(%p) : (tensor<*xf32>) -> ()
  return
}

// Empty slices (data 3x0, k == 1): two tuples, nothing to write.
// CHECK: Unranked Memref
// CHECK-NEXT: [3, 0]
func.func @scatter_nd_empty_slices() {
  %data = arith.constant dense<> : tensor<3x0xf32>
  %indices = arith.constant dense<[[2], [-1]]> : tensor<2x1xi64>
  %updates = arith.constant dense<> : tensor<2x0xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<3x0xf32>, tensor<2x1xi64>, tensor<2x0xf32>
  %p = tensor.cast %r : tensor<3x0xf32> to tensor<*xf32>
  call @print_sizes(%p) : (tensor<*xf32>) -> ()
  return
}

// The same under reduction<add>, with the slice dim of data dynamic and that
// of updates static.
// CHECK: Unranked Memref
// CHECK-NEXT: [3, 0]
func.func @scatter_nd_empty_slices_add() {
  %data = arith.constant dense<> : tensor<3x0xf32>
  %indices = arith.constant dense<[[0], [0]]> : tensor<2x1xi64>
  %updates = arith.constant dense<> : tensor<2x0xf32>
  %d = tensor.cast %data : tensor<3x0xf32> to tensor<3x?xf32>
  %r = nd.scatter_nd %d[%indices], %updates reduction<add> : tensor<3x?xf32>, tensor<2x1xi64>, tensor<2x0xf32>
  %p = tensor.cast %r : tensor<3x?xf32> to tensor<*xf32>
  call @print_sizes(%p) : (tensor<*xf32>) -> ()
  return
}

// Empty slices, gathered.
// CHECK: Unranked Memref
// CHECK-NEXT: [2, 0]
func.func @gather_nd_empty_slices() {
  %data = arith.constant dense<> : tensor<3x0xf32>
  %indices = arith.constant dense<[[2], [-3]]> : tensor<2x1xi64>
  %r = nd.gather_nd %data[%indices] : tensor<3x0xf32>, tensor<2x1xi64> -> tensor<2x0xf32>
  %p = tensor.cast %r : tensor<2x0xf32> to tensor<*xf32>
  call @print_sizes(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @scatter_nd_no_tuple() : () -> ()
  call @scatter_nd_no_tuple_dynamic() : () -> ()
  call @scatter_elements_no_index() : () -> ()
  call @gather_nd_no_tuple() : () -> ()
  call @gather_elements_no_index() : () -> ()
  call @scatter_nd_empty_slices() : () -> ()
  call @scatter_nd_empty_slices_add() : () -> ()
  call @gather_nd_empty_slices() : () -> ()
  return
}
