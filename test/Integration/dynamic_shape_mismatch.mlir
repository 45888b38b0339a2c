// Shape rules between dims that are dynamic (`?`) in the IR cannot be
// checked by the verifiers; they are checked at run time, before anything is
// written or printed, with a message naming the op, its location, both
// operands, their dims and sizes. The ops take their operands as arguments
// of dynamic type, so that no folding of the casts in the caller shows the
// mismatch at compile time.
//
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e scatter_nd_slice_dim -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.1.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ERR1 < %t.1.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e scatter_nd_tuple_dim -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.2.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ERR2 < %t.2.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e gather_nd_batch_dim -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.3.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ERR3 < %t.3.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e scatter_elements_updates -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.4.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ERR4 < %t.4.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e scatter_elements_exceeds -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.5.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ERR5 < %t.5.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e gather_elements_exceeds -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.6.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ERR6 < %t.6.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e gather_nd_result_dim -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.7.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ERR7 < %t.7.err

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// updates.shape must be indices.shape[:-1] ++ data.shape[k:]: the slices of
// `updates` have 3 rows at run time, those of `data` 4.
func.func @scatter_nd_slice_dim_op(%data: tensor<4x4x4xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2x?x4xf32>) {
  // ERR1: error: {{.*}}dynamic_shape_mismatch.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: operand 'updates' dim 1 (3) does not match operand 'data' dim 1 (4)
  %r = nd.scatter_nd %data[%indices], %updates : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x?x4xf32>
  %p = tensor.cast %r : tensor<4x4x4xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @scatter_nd_slice_dim() {
  %data = arith.constant dense<0.0> : tensor<4x4x4xf32>
  %indices = arith.constant dense<[[0], [2]]> : tensor<2x1xi64>
  %updates = arith.constant dense<1.0> : tensor<2x3x4xf32>
  %u = tensor.cast %updates : tensor<2x3x4xf32> to tensor<2x?x4xf32>
  call @scatter_nd_slice_dim_op(%data, %indices, %u) : (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x?x4xf32>) -> ()
  return
}

// Three index tuples, two updates.
func.func @scatter_nd_tuple_dim_op(%data: tensor<8xf32>, %indices: tensor<?x1xi64>, %updates: tensor<2xf32>) {
  // ERR2: error: {{.*}}dynamic_shape_mismatch.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: operand 'updates' dim 0 (2) does not match operand 'indices' dim 0 (3)
  %r = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<?x1xi64>, tensor<2xf32>
  %p = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @scatter_nd_tuple_dim() {
  %data = arith.constant dense<0.0> : tensor<8xf32>
  %indices = arith.constant dense<[[0], [2], [4]]> : tensor<3x1xi64>
  %updates = arith.constant dense<1.0> : tensor<2xf32>
  %i = tensor.cast %indices : tensor<3x1xi64> to tensor<?x1xi64>
  call @scatter_nd_tuple_dim_op(%data, %i, %updates) : (tensor<8xf32>, tensor<?x1xi64>, tensor<2xf32>) -> ()
  return
}

// batch_dims(1): 3 batches of indices, 2 of data.
func.func @gather_nd_batch_dim_op(%data: tensor<?x2x2xf32>, %indices: tensor<?x1xi64>) {
  // ERR3: error: {{.*}}dynamic_shape_mismatch.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_nd: operand 'indices' dim 0 (3) does not match operand 'data' dim 0 (2)
  %r = nd.gather_nd %data[%indices] batch_dims(1) : tensor<?x2x2xf32>, tensor<?x1xi64> -> tensor<?x2xf32>
  %p = tensor.cast %r : tensor<?x2xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @gather_nd_batch_dim() {
  %data = arith.constant dense<1.0> : tensor<2x2x2xf32>
  %indices = arith.constant dense<[[1], [0], [1]]> : tensor<3x1xi64>
  %d = tensor.cast %data : tensor<2x2x2xf32> to tensor<?x2x2xf32>
  %i = tensor.cast %indices : tensor<3x1xi64> to tensor<?x1xi64>
  call @gather_nd_batch_dim_op(%d, %i) : (tensor<?x2x2xf32>, tensor<?x1xi64>) -> ()
  return
}

// `updates` must have the shape of `indices`.
func.func @scatter_elements_updates_op(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>, %updates: tensor<2x?xf32>) {
  // ERR4: error: {{.*}}dynamic_shape_mismatch.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_elements: operand 'updates' dim 1 (2) does not match operand 'indices' dim 1 (3)
  %r = nd.scatter_elements %data[%indices], %updates : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x?xf32>
  %p = tensor.cast %r : tensor<3x3xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @scatter_elements_updates() {
  %data = arith.constant dense<0.0> : tensor<3x3xf32>
  %indices = arith.constant dense<0> : tensor<2x3xi64>
  %updates = arith.constant dense<1.0> : tensor<2x2xf32>
  %u = tensor.cast %updates : tensor<2x2xf32> to tensor<2x?xf32>
  call @scatter_elements_updates_op(%data, %indices, %u) : (tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x?xf32>) -> ()
  return
}

// Off the axis, `indices` may not be larger than `data`: 4 columns > 3.
func.func @scatter_elements_exceeds_op(%data: tensor<3x3xf32>, %indices: tensor<2x?xi64>, %updates: tensor<2x?xf32>) {
  // ERR5: error: {{.*}}dynamic_shape_mismatch.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_elements: operand 'indices' dim 1 (4) exceeds operand 'data' dim 1 (3)
  %r = nd.scatter_elements %data[%indices], %updates axis(0) : tensor<3x3xf32>, tensor<2x?xi64>, tensor<2x?xf32>
  %p = tensor.cast %r : tensor<3x3xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @scatter_elements_exceeds() {
  %data = arith.constant dense<0.0> : tensor<3x3xf32>
  %indices = arith.constant dense<0> : tensor<2x4xi64>
  %updates = arith.constant dense<1.0> : tensor<2x4xf32>
  %i = tensor.cast %indices : tensor<2x4xi64> to tensor<2x?xi64>
  %u = tensor.cast %updates : tensor<2x4xf32> to tensor<2x?xf32>
  call @scatter_elements_exceeds_op(%data, %i, %u) : (tensor<3x3xf32>, tensor<2x?xi64>, tensor<2x?xf32>) -> ()
  return
}

// axis(1): 3 rows of indices, 2 of data.
func.func @gather_elements_exceeds_op(%data: tensor<?x4xf32>, %indices: tensor<3x1xi32>) {
  // ERR6: error: {{.*}}dynamic_shape_mismatch.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_elements: operand 'indices' dim 0 (3) exceeds operand 'data' dim 0 (2)
  %r = nd.gather_elements %data[%indices] axis(1) : tensor<?x4xf32>, tensor<3x1xi32> -> tensor<3x1xf32>
  %p = tensor.cast %r : tensor<3x1xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @gather_elements_exceeds() {
  %data = arith.constant dense<1.0> : tensor<2x4xf32>
  %indices = arith.constant dense<0> : tensor<3x1xi32>
  %d = tensor.cast %data : tensor<2x4xf32> to tensor<?x4xf32>
  call @gather_elements_exceeds_op(%d, %indices) : (tensor<?x4xf32>, tensor<3x1xi32>) -> ()
  return
}

// The result type declares 2 tuples; `indices` has 3 at run time.
func.func @gather_nd_result_dim_op(%data: tensor<4x2xf32>, %indices: tensor<?x1xi64>) {
  // ERR7: error: {{.*}}dynamic_shape_mismatch.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_nd: operand 'indices' dim 0 (3) does not match result dim 0 (2)
  %r = nd.gather_nd %data[%indices] : tensor<4x2xf32>, tensor<?x1xi64> -> tensor<2x2xf32>
  %p = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%p) : (tensor<*xf32>) -> ()
  return
}

func.func @gather_nd_result_dim() {
  %data = arith.constant dense<1.0> : tensor<4x2xf32>
  %indices = arith.constant dense<[[0], [1], [2]]> : tensor<3x1xi64>
  %i = tensor.cast %indices : tensor<3x1xi64> to tensor<?x1xi64>
  call @gather_nd_result_dim_op(%data, %i) : (tensor<4x2xf32>, tensor<?x1xi64>) -> ()
  return
}
