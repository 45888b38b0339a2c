// An out-of-range index stops the program before anything is printed, with
// a message naming the op, its location, operand 'indices', the value, the
// axis and the size of data along it.
//
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e too_large -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.large.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=LARGE < %t.large.err
// RUN: nd-opt %s --lower-scatter --nd-to-llvm | not mlir-runner -e too_large -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.large-tensors.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=LARGE < %t.large-tensors.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e too_negative -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.negative.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=NEGATIVE < %t.negative.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e empty_axis -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.empty.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=EMPTY < %t.empty.err

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// Axis 1 of size 3: 3 is one past the end (i32 indices).
func.func @too_large() {
  %data = arith.constant dense<0.0> : tensor<2x3xf32>
  %constant = arith.constant dense<[[-3, 2], [0, 3]]> : tensor<2x2xi32>
  %indices = call @opaque_2x2xi32(%constant) : (tensor<2x2xi32>) -> tensor<2x2xi32>
  %updates = arith.constant dense<1.0> : tensor<2x2xf32>
  // LARGE: error: {{.*}}out_of_range_scatter_elements.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_elements: index 3 in operand 'indices' is out of range for dim 1 of operand 'data' (size 3)
  %r = nd.scatter_elements %data[%indices], %updates axis(1) : tensor<2x3xf32>, tensor<2x2xi32>, tensor<2x2xf32>
  %u = tensor.cast %r : tensor<2x3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Axis 0 of size 3: -4 is one before the start.
func.func @too_negative() {
  %data = arith.constant dense<0.0> : tensor<3x2xf32>
  %constant = arith.constant dense<[[-3, -4]]> : tensor<1x2xi64>
  %indices = call @opaque_1x2xi64(%constant) : (tensor<1x2xi64>) -> tensor<1x2xi64>
  %updates = arith.constant dense<1.0> : tensor<1x2xf32>
  // NEGATIVE: error: {{.*}}out_of_range_scatter_elements.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_elements: index -4 in operand 'indices' is out of range for dim 0 of operand 'data' (size 3)
  %r = nd.scatter_elements %data[%indices], %updates reduction<mul> : tensor<3x2xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %u = tensor.cast %r : tensor<3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Axis 0 of static size 0: every index is out of range, 0 included.
func.func @empty_axis() {
  %data = arith.constant dense<> : tensor<0x2xf32>
  %constant = arith.constant dense<[[0, 0]]> : tensor<1x2xi64>
  %indices = call @opaque_1x2xi64(%constant) : (tensor<1x2xi64>) -> tensor<1x2xi64>
  %updates = arith.constant dense<1.0> : tensor<1x2xf32>
  // EMPTY: error: {{.*}}out_of_range_scatter_elements.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_elements: index 0 in operand 'indices' is out of range for dim 0 of operand 'data' (size 0)
  %r = nd.scatter_elements %data[%indices], %updates : tensor<0x2xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %u = tensor.cast %r : tensor<0x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The indices come through a call, so that the verifier, which rejects
// constant indices out of range at compile time, leaves them to the
// run-time check this test is about.
func.func @opaque_2x2xi32(%t: tensor<2x2xi32>) -> tensor<2x2xi32> {
  return %t : tensor<2x2xi32>
}
func.func @opaque_1x2xi64(%t: tensor<1x2xi64>) -> tensor<1x2xi64> {
  return %t : tensor<1x2xi64>
}
