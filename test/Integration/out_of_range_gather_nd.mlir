// An out-of-range index stops the program before anything is printed, with
// a message naming the op, its location, operand 'indices', the value, the
// data dim (counting the batch dims) and its size.
//
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e too_large -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.large.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=LARGE < %t.large.err
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | not mlir-runner -e too_large -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.large-tensors.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=LARGE < %t.large-tensors.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e too_negative -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.negative.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=NEGATIVE < %t.negative.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e extremes -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.extremes.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=EXTREMES < %t.extremes.err

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// batch_dims(1): the index component addresses data dim 1, of size 3.
func.func @too_large() {
  %data = arith.constant dense<1.0> : tensor<2x3x2xf32>
  %constant = arith.constant dense<[[2], [3]]> : tensor<2x1xi64>
  %indices = call @opaque_2x1xi64(%constant) : (tensor<2x1xi64>) -> tensor<2x1xi64>
  // LARGE: error: {{.*}}out_of_range_gather_nd.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_nd: index 3 in operand 'indices' is out of range for dim 1 of operand 'data' (size 3)
  %r = nd.gather_nd %data[%indices] batch_dims(1) : tensor<2x3x2xf32>, tensor<2x1xi64> -> tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// -3 in data dim 1, of size 2 (`index` indices).
func.func @too_negative() {
  %data = arith.constant dense<1.0> : tensor<2x2xf32>
  %constant = arith.constant dense<[[-2, -2], [-2, -3]]> : tensor<2x2xindex>
  %indices = call @opaque_2x2xindex(%constant) : (tensor<2x2xindex>) -> tensor<2x2xindex>
  // NEGATIVE: error: {{.*}}out_of_range_gather_nd.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_nd: index -3 in operand 'indices' is out of range for dim 1 of operand 'data' (size 2)
  %r = nd.gather_nd %data[%indices] : tensor<2x2xf32>, tensor<2x2xindex> -> tensor<2xf32>
  %u = tensor.cast %r : tensor<2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The most negative i64: adding the dim size does not bring it in range.
func.func @extremes() {
  %data = arith.constant dense<1.0> : tensor<4xf32>
  %constant = arith.constant dense<[[-4], [-9223372036854775808], [9223372036854775807]]> : tensor<3x1xi64>
  %indices = call @opaque_3x1xi64(%constant) : (tensor<3x1xi64>) -> tensor<3x1xi64>
  // EXTREMES: error: {{.*}}out_of_range_gather_nd.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_nd: index -9223372036854775808 in operand 'indices' is out of range for dim 0 of operand 'data' (size 4)
  %r = nd.gather_nd %data[%indices] : tensor<4xf32>, tensor<3x1xi64> -> tensor<3xf32>
  %u = tensor.cast %r : tensor<3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The indices come through a call, so that the verifier, which rejects
// constant indices out of range at compile time, leaves them to the
// run-time check this test is about.
func.func @opaque_2x1xi64(%t: tensor<2x1xi64>) -> tensor<2x1xi64> {
  return %t : tensor<2x1xi64>
}
func.func @opaque_2x2xindex(%t: tensor<2x2xindex>) -> tensor<2x2xindex> {
  return %t : tensor<2x2xindex>
}
func.func @opaque_3x1xi64(%t: tensor<3x1xi64>) -> tensor<3x1xi64> {
  return %t : tensor<3x1xi64>
}
