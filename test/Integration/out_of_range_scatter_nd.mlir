// An out-of-range index stops the program before anything is printed, with
// a message naming the op, its location, operand 'indices', the value, the
// data dim and its size. The bounds of a dim of size d are [-d, d-1]: each
// function has an in-range tuple on the boundary before the bad one.
//
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e too_large -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.large.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=LARGE < %t.large.err
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | not mlir-runner -e too_large -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.large-tensors.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=LARGE < %t.large-tensors.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e too_negative -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.negative.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=NEGATIVE < %t.negative.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e empty_slices -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.empty.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=EMPTY < %t.empty.err

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// Component 1 of the second tuple is 4 in a dim of size 4 (k == r == 2).
func.func @too_large() {
  %data = arith.constant dense<0.0> : tensor<3x4xf32>
  %constant = arith.constant dense<[[-3, 3], [2, 4], [0, 0]]> : tensor<3x2xi64>
  %indices = call @opaque_3x2xi64(%constant) : (tensor<3x2xi64>) -> tensor<3x2xi64>
  %updates = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  // LARGE: error: {{.*}}out_of_range_scatter_nd.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: index 4 in operand 'indices' is out of range for dim 1 of operand 'data' (size 4)
  %r = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3xf32>
  %u = tensor.cast %r : tensor<3x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// -9 in a dim of size 8 (slices, i32 indices); the later 8 is never reached.
func.func @too_negative() {
  %data = arith.constant dense<0.0> : tensor<8x2xf32>
  %constant = arith.constant dense<[[-8], [-9], [8]]> : tensor<3x1xi32>
  %indices = call @opaque_3x1xi32(%constant) : (tensor<3x1xi32>) -> tensor<3x1xi32>
  %updates = arith.constant dense<1.0> : tensor<3x2xf32>
  // NEGATIVE: error: {{.*}}out_of_range_scatter_nd.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: index -9 in operand 'indices' is out of range for dim 0 of operand 'data' (size 8)
  %r = nd.scatter_nd %data[%indices], %updates : tensor<8x2xf32>, tensor<3x1xi32>, tensor<3x2xf32>
  %u = tensor.cast %r : tensor<8x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Empty slices (data 3x0) are not written, but the indices are still checked.
func.func @empty_slices() {
  %data = arith.constant dense<> : tensor<3x0xf32>
  %constant = arith.constant dense<[[2], [3]]> : tensor<2x1xi64>
  %indices = call @opaque_2x1xi64(%constant) : (tensor<2x1xi64>) -> tensor<2x1xi64>
  %updates = arith.constant dense<> : tensor<2x0xf32>
  // EMPTY: error: {{.*}}out_of_range_scatter_nd.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: index 3 in operand 'indices' is out of range for dim 0 of operand 'data' (size 3)
  %r = nd.scatter_nd %data[%indices], %updates : tensor<3x0xf32>, tensor<2x1xi64>, tensor<2x0xf32>
  %u = tensor.cast %r : tensor<3x0xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The indices come through a call, so that the verifier, which rejects
// constant indices out of range at compile time, leaves them to the
// run-time check this test is about.
func.func @opaque_3x2xi64(%t: tensor<3x2xi64>) -> tensor<3x2xi64> {
  return %t : tensor<3x2xi64>
}
func.func @opaque_3x1xi32(%t: tensor<3x1xi32>) -> tensor<3x1xi32> {
  return %t : tensor<3x1xi32>
}
func.func @opaque_2x1xi64(%t: tensor<2x1xi64>) -> tensor<2x1xi64> {
  return %t : tensor<2x1xi64>
}
