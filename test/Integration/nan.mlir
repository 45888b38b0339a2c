// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// NaN under reduction<max> and <min> propagates, as numpy.maximum /
// numpy.minimum do: a NaN in `data` stays NaN whatever comes after it, and a
// NaN update turns the element into NaN for good. (fmax/fmin semantics, which
// drop NaN operands, would print numbers where these print nan.)
// 0x7FC00000 is a quiet NaN of f32, 0x7FF8000000000000 one of f64.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefF64(memref<*xf64>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @print_f64(%t: tensor<*xf64>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf64> to memref<*xf64>
  call @printMemrefF64(%m) : (memref<*xf64>) -> ()
  return
}

// [0]: NaN in data, then 5 and -5. [1]: 1, then NaN, then 3 and -3.
// [2]: 2, then 7 and 0 (no NaN). [3]: NaN in data, untouched.
func.func @nan_data() -> (tensor<4xf32>, tensor<7x1xi64>, tensor<7xf32>) {
  %data = arith.constant dense<[0x7FC00000, 1.0, 2.0, 0x7FC00000]> : tensor<4xf32>
  %indices = arith.constant dense<[[0], [1], [-4], [1], [2], [-3], [2]]> : tensor<7x1xi64>
  %updates = arith.constant dense<[5.0, 0x7FC00000, -5.0, 3.0, 7.0, -3.0, 0.0]> : tensor<7xf32>
  return %data, %indices, %updates : tensor<4xf32>, tensor<7x1xi64>, tensor<7xf32>
}

// numpy: d = np.array([np.nan, 1, 2, np.nan], np.float32); np.maximum.at(d, [0, 1, -4, 1, 2, -3, 2], np.array([5, np.nan, -5, 3, 7, -3, 0], np.float32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [nan, nan, 7, nan]
func.func @scatter_nd_max() {
  %data, %indices, %updates = call @nan_data() : () -> (tensor<4xf32>, tensor<7x1xi64>, tensor<7xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<4xf32>, tensor<7x1xi64>, tensor<7xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.array([np.nan, 1, 2, np.nan], np.float32); np.minimum.at(d, [0, 1, -4, 1, 2, -3, 2], np.array([5, np.nan, -5, 3, 7, -3, 0], np.float32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [nan, nan, 0, nan]
func.func @scatter_nd_min() {
  %data, %indices, %updates = call @nan_data() : () -> (tensor<4xf32>, tensor<7x1xi64>, tensor<7xf32>)
  %r = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<4xf32>, tensor<7x1xi64>, tensor<7xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Slices (k < r): row 0 has a NaN in data, row 1 gets a NaN update.
// numpy: d = np.array([[np.nan, 1], [2, 3]], np.float32); np.maximum.at(d, [0, 1, 0, 1], np.array([[4, 4], [np.nan, 0], [-1, -1], [9, 9]], np.float32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}nan, 4],
// CHECK-NEXT: [nan, 9]]
func.func @scatter_nd_max_slices() {
  %data = arith.constant dense<[[0x7FC00000, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  %indices = arith.constant dense<[[0], [1], [0], [1]]> : tensor<4x1xi32>
  %updates = arith.constant dense<[[4.0, 4.0], [0x7FC00000, 0.0], [-1.0, -1.0], [9.0, 9.0]]> : tensor<4x2xf32>
  %r = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<2x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.array([[np.nan, 1], [2, 3]], np.float32); np.minimum.at(d, [0, 1, 0, 1], np.array([[4, 4], [np.nan, 0], [-1, -1], [9, 9]], np.float32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}nan, -1],
// CHECK-NEXT: [nan, 0]]
func.func @scatter_nd_min_slices() {
  %data = arith.constant dense<[[0x7FC00000, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  %indices = arith.constant dense<[[0], [1], [0], [1]]> : tensor<4x1xi32>
  %updates = arith.constant dense<[[4.0, 4.0], [0x7FC00000, 0.0], [-1.0, -1.0], [9.0, 9.0]]> : tensor<4x2xf32>
  %r = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<2x2xf32>, tensor<4x1xi32>, tensor<4x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.array([np.nan, 1, 2, np.nan], np.float32); np.maximum.at(d, [0, 1, -4, 1, 2, -3, 2], np.array([5, np.nan, -5, 3, 7, -3, 0], np.float32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [nan, nan, 7, nan]
func.func @scatter_elements_max() {
  %data = arith.constant dense<[0x7FC00000, 1.0, 2.0, 0x7FC00000]> : tensor<4xf32>
  %indices = arith.constant dense<[0, 1, -4, 1, 2, -3, 2]> : tensor<7xi64>
  %updates = arith.constant dense<[5.0, 0x7FC00000, -5.0, 3.0, 7.0, -3.0, 0.0]> : tensor<7xf32>
  %r = nd.scatter_elements %data[%indices], %updates reduction<max> : tensor<4xf32>, tensor<7xi64>, tensor<7xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// numpy: d = np.array([np.nan, 1, 2, np.nan], np.float32); np.minimum.at(d, [0, 1, -4, 1, 2, -3, 2], np.array([5, np.nan, -5, 3, 7, -3, 0], np.float32)); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [nan, nan, 0, nan]
func.func @scatter_elements_min() {
  %data = arith.constant dense<[0x7FC00000, 1.0, 2.0, 0x7FC00000]> : tensor<4xf32>
  %indices = arith.constant dense<[0, 1, -4, 1, 2, -3, 2]> : tensor<7xi64>
  %updates = arith.constant dense<[5.0, 0x7FC00000, -5.0, 3.0, 7.0, -3.0, 0.0]> : tensor<7xf32>
  %r = nd.scatter_elements %data[%indices], %updates reduction<min> : tensor<4xf32>, tensor<7xi64>, tensor<7xf32>
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// f64, axis 1: [0, 0] gets NaN then 1; [1, 1] has NaN and gets -1.
// numpy: d = np.array([[0, 5], [6, np.nan]]); np.maximum.at(d, (np.array([[0, 0], [1, 1]]), np.array([[0, 0], [1, -1]])), np.array([[np.nan, 1], [-1, -1]])); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}nan, 5],
// CHECK-NEXT: [6, nan]]
func.func @scatter_elements_max_f64() {
  %data = arith.constant dense<[[0.0, 5.0], [6.0, 0x7FF8000000000000]]> : tensor<2x2xf64>
  %indices = arith.constant dense<[[0, 0], [1, -1]]> : tensor<2x2xi64>
  %updates = arith.constant dense<[[0x7FF8000000000000, 1.0], [-1.0, -1.0]]> : tensor<2x2xf64>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<max> : tensor<2x2xf64>, tensor<2x2xi64>, tensor<2x2xf64>
  %u = tensor.cast %r : tensor<2x2xf64> to tensor<*xf64>
  call @print_f64(%u) : (tensor<*xf64>) -> ()
  return
}

// numpy: d = np.array([[0, 5], [6, np.nan]]); np.minimum.at(d, (np.array([[0, 0], [1, 1]]), np.array([[0, 0], [1, -1]])), np.array([[np.nan, 1], [-1, -1]])); r = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}nan, 5],
// CHECK-NEXT: [6, nan]]
func.func @scatter_elements_min_f64() {
  %data = arith.constant dense<[[0.0, 5.0], [6.0, 0x7FF8000000000000]]> : tensor<2x2xf64>
  %indices = arith.constant dense<[[0, 0], [1, -1]]> : tensor<2x2xi64>
  %updates = arith.constant dense<[[0x7FF8000000000000, 1.0], [-1.0, -1.0]]> : tensor<2x2xf64>
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<min> : tensor<2x2xf64>, tensor<2x2xi64>, tensor<2x2xf64>
  %u = tensor.cast %r : tensor<2x2xf64> to tensor<*xf64>
  call @print_f64(%u) : (tensor<*xf64>) -> ()
  return
}

func.func @main() {
  call @scatter_nd_max() : () -> ()
  call @scatter_nd_min() : () -> ()
  call @scatter_nd_max_slices() : () -> ()
  call @scatter_nd_min_slices() : () -> ()
  call @scatter_elements_max() : () -> ()
  call @scatter_elements_min() : () -> ()
  call @scatter_elements_max_f64() : () -> ()
  call @scatter_elements_min_f64() : () -> ()
  return
}
