// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// The nd ops have value semantics: a scatter returns a new tensor and leaves
// its operands as they were, even when bufferization could update `data` in
// place. Here `data` is still used after the scatter, `updates` is `data`
// itself (so an in-place update would read values it has just written), and
// scatters and gathers are chained on the same values. `data` is a fresh,
// writable buffer (bufferization.alloc_tensor copying a constant) wherever
// an in-place update would be possible.

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// `data` printed after the result of a scatter_nd on it.
// numpy: d = np.arange(1., 7.).reshape(3, 2); r = d.copy(); r[[2, 0]] = [[10, 20], [30, 40]]
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}30, 40],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [10, 20]]
// numpy: r = np.arange(1., 7.).reshape(3, 2)
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}1, 2],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [5, 6]]
func.func @data_used_after() {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %data = bufferization.alloc_tensor() copy(%cst) : tensor<3x2xf32>
  %indices = arith.constant dense<[[2], [0]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %r = nd.scatter_nd %data[%indices], %updates : tensor<3x2xf32>, tensor<2x1xi64>, tensor<2x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  %d = tensor.cast %data : tensor<3x2xf32> to tensor<*xf32>
  call @print(%d) : (tensor<*xf32>) -> ()
  return
}

// A scatter on a function argument, called twice on the same tensor: the
// second call sees the original values.
func.func @scatter_arg(%data: tensor<4xf32>, %i: tensor<1x1xi32>) -> tensor<4xf32> {
  %updates = arith.constant dense<[100.0]> : tensor<1xf32>
  %r = nd.scatter_nd %data[%i], %updates reduction<add> : tensor<4xf32>, tensor<1x1xi32>, tensor<1xf32>
  return %r : tensor<4xf32>
}

// numpy: d = np.array([1., 2, 3, 4]); d[1] += 100; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 102, 3, 4]
// numpy: d = np.array([1., 2, 3, 4]); d[-1] += 100; r = d
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 2, 3, 104]
// CHECK: Unranked Memref
// CHECK-NEXT: [1, 2, 3, 4]
func.func @argument_twice() {
  %cst = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %data = bufferization.alloc_tensor() copy(%cst) : tensor<4xf32>
  %i1 = arith.constant dense<[[1]]> : tensor<1x1xi32>
  %i2 = arith.constant dense<[[-1]]> : tensor<1x1xi32>
  %a = call @scatter_arg(%data, %i1) : (tensor<4xf32>, tensor<1x1xi32>) -> tensor<4xf32>
  %b = call @scatter_arg(%data, %i2) : (tensor<4xf32>, tensor<1x1xi32>) -> tensor<4xf32>
  %ua = tensor.cast %a : tensor<4xf32> to tensor<*xf32>
  call @print(%ua) : (tensor<*xf32>) -> ()
  %ub = tensor.cast %b : tensor<4xf32> to tensor<*xf32>
  call @print(%ub) : (tensor<*xf32>) -> ()
  %ud = tensor.cast %data : tensor<4xf32> to tensor<*xf32>
  call @print(%ud) : (tensor<*xf32>) -> ()
  return
}

// scatter_nd with `updates` == `data`: swap the rows.
// numpy: d = np.array([[1., 2], [3, 4]]); r = d.copy(); r[[1, 0]] = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}3, 4],
// CHECK-NEXT: [1, 2]]
func.func @scatter_nd_updates_is_data() {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %data = bufferization.alloc_tensor() copy(%cst) : tensor<2x2xf32>
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %r = nd.scatter_nd %data[%indices], %data : tensor<2x2xf32>, tensor<2x1xi64>, tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The same under reduction<add>: both rows become row 0 + row 1 (in place,
// row 0 would get row 0 + the updated row 1).
// numpy: d = np.array([[1., 2], [3, 4]]); r = d.copy(); np.add.at(r, [1, 0], d)
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}4, 6],
// CHECK-NEXT: [4, 6]]
func.func @scatter_nd_add_updates_is_data() {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %data = bufferization.alloc_tensor() copy(%cst) : tensor<2x2xf32>
  %indices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %r = nd.scatter_nd %data[%indices], %data reduction<add> : tensor<2x2xf32>, tensor<2x1xi64>, tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// scatter_elements with `updates` == `data` along axis 0: swap the rows.
// numpy: d = np.array([[1., 2], [3, 4]]); r = d.copy(); r[np.array([[1, 1], [0, 0]]), np.arange(2)] = d
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[}}3, 4],
// CHECK-NEXT: [1, 2]]
func.func @scatter_elements_updates_is_data() {
  %cst = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %data = bufferization.alloc_tensor() copy(%cst) : tensor<2x2xf32>
  %indices = arith.constant dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>
  %r = nd.scatter_elements %data[%indices], %data : tensor<2x2xf32>, tensor<2x2xi64>, tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// A chain: r1 = scatter into data; g = gather from r1; r2 = scatter of g
// back into r1, reversed; r1 is printed after r2.
// numpy: d = np.zeros(4); r = d.copy(); r[[0, 2]] = [5, 7]
// CHECK: Unranked Memref
// CHECK-NEXT: [5, 0, 7, 0]
// CHECK: Unranked Memref
// CHECK-NEXT: [5, 7]
// numpy: d = np.zeros(4); r1 = d.copy(); r1[[0, 2]] = [5, 7]; r = r1.copy(); r[[2, 0]] = r1[[0, 2]]
// CHECK: Unranked Memref
// CHECK-NEXT: [7, 0, 5, 0]
// CHECK: Unranked Memref
// CHECK-NEXT: [5, 0, 7, 0]
func.func @chain() {
  %cst = arith.constant dense<0.0> : tensor<4xf32>
  %data = bufferization.alloc_tensor() copy(%cst) : tensor<4xf32>
  %indices = arith.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %reversed = arith.constant dense<[[2], [0]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[5.0, 7.0]> : tensor<2xf32>
  %r1 = nd.scatter_nd %data[%indices], %updates : tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>
  %g = nd.gather_nd %r1[%indices] : tensor<4xf32>, tensor<2x1xi64> -> tensor<2xf32>
  %r2 = nd.scatter_nd %r1[%reversed], %g : tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>
  %u1 = tensor.cast %r1 : tensor<4xf32> to tensor<*xf32>
  %ug = tensor.cast %g : tensor<2xf32> to tensor<*xf32>
  %u2 = tensor.cast %r2 : tensor<4xf32> to tensor<*xf32>
  call @print(%u1) : (tensor<*xf32>) -> ()
  call @print(%ug) : (tensor<*xf32>) -> ()
  call @print(%u2) : (tensor<*xf32>) -> ()
  call @print(%u1) : (tensor<*xf32>) -> ()
  return
}

func.func @main() {
  call @data_used_after() : () -> ()
  call @argument_twice() : () -> ()
  call @scatter_nd_updates_is_data() : () -> ()
  call @scatter_nd_add_updates_is_data() : () -> ()
  call @scatter_elements_updates_is_data() : () -> ()
  call @chain() : () -> ()
  return
}
