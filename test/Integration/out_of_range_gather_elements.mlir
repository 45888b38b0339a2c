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

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// Axis 0 of size 2 (`index` indices).
func.func @too_large() {
  %data = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %constant = arith.constant dense<[[1, 2]]> : tensor<1x2xindex>
  %indices = call @opaque_1x2xindex(%constant) : (tensor<1x2xindex>) -> tensor<1x2xindex>
  // LARGE: error: {{.*}}out_of_range_gather_elements.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_elements: index 2 in operand 'indices' is out of range for dim 0 of operand 'data' (size 2)
  %r = nd.gather_elements %data[%indices] : tensor<2x2xf32>, tensor<1x2xindex> -> tensor<1x2xf32>
  %u = tensor.cast %r : tensor<1x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// axis(-1) is dim 1, of size 5.
func.func @too_negative() {
  %data = arith.constant dense<1.0> : tensor<2x5xf32>
  %constant = arith.constant dense<[[-5], [-6]]> : tensor<2x1xi32>
  %indices = call @opaque_2x1xi32(%constant) : (tensor<2x1xi32>) -> tensor<2x1xi32>
  // NEGATIVE: error: {{.*}}out_of_range_gather_elements.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_elements: index -6 in operand 'indices' is out of range for dim 1 of operand 'data' (size 5)
  %r = nd.gather_elements %data[%indices] axis(-1) : tensor<2x5xf32>, tensor<2x1xi32> -> tensor<2x1xf32>
  %u = tensor.cast %r : tensor<2x1xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The indices come through a call, so that the verifier, which rejects
// constant indices out of range at compile time, leaves them to the
// run-time check this test is about.
func.func @opaque_1x2xindex(%t: tensor<1x2xindex>) -> tensor<1x2xindex> {
  return %t : tensor<1x2xindex>
}
func.func @opaque_2x1xi32(%t: tensor<2x1xi32>) -> tensor<2x1xi32> {
  return %t : tensor<2x1xi32>
}
