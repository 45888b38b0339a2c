// An index out of range is reported even where the gather's result has no
// elements: the CPU lowering and the GPU lowering (its kernels run on the
// host) alike. Before, the GPU lowering checked index values only as it read
// rows of the result, and a dim of data before the axis of size 0 left it
// no rows: the program returned normally.
//
// DEFINE: %{libs} = -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e before_axis -entry-point-result=void %{libs} 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: nd-opt %s --nd-to-gpu=run-on-host=true | not mlir-runner -e before_axis -entry-point-result=void %{libs} 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e batch -entry-point-result=void %{libs} 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: nd-opt %s --nd-to-gpu=run-on-host=true | not mlir-runner -e batch -entry-point-result=void %{libs} 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e empty_rows -entry-point-result=void %{libs} 2>&1 | FileCheck %s --check-prefix=ROWS
// RUN: nd-opt %s --nd-to-gpu=run-on-host=true | not mlir-runner -e empty_rows -entry-point-result=void %{libs} 2>&1 | FileCheck %s --check-prefix=ROWS
// Under skip the same programs return normally (nothing to report).
// RUN: nd-opt %s --nd-to-gpu=run-on-host=true | mlir-runner -e skipped -entry-point-result=void %{libs} | FileCheck %s --check-prefix=SKIP

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// The fuzz campaign's case: data 0x5, axis 1, a 0-D index of 6.
func.func @before_axis() {
  %data = arith.constant dense<1.0> : tensor<0x5xf32>
  %constant = arith.constant dense<6> : tensor<i64>
  %indices = call @opaque_i64(%constant) : (tensor<i64>) -> tensor<i64>
  // BEFORE: error: {{.*}}out_of_range_gather_empty_result.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather: index 6 in operand 'indices' is out of range for dim 1 of operand 'data' (size 5)
  %r = nd.gather %data[%indices] axis(1) : tensor<0x5xf32>, tensor<i64> -> tensor<0xf32>
  %u = tensor.cast %r : tensor<0xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// A batch dim of 2 and an empty dim between it and the axis: both index
// values are checked, the first bad one (row-major) reported.
func.func @batch() {
  %data = arith.constant dense<1.0> : tensor<2x0x3xf32>
  %constant = arith.constant dense<[[1], [-4]]> : tensor<2x1xi64>
  %indices = call @opaque_2x1xi64(%constant) : (tensor<2x1xi64>) -> tensor<2x1xi64>
  // BATCH: error: {{.*}}out_of_range_gather_empty_result.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather: index -4 in operand 'indices' is out of range for dim 2 of operand 'data' (size 3)
  %r = nd.gather %data[%indices] axis(2) batch_dims(1) : tensor<2x0x3xf32>, tensor<2x1xi64> -> tensor<2x0x1xf32>
  %u = tensor.cast %r : tensor<2x0x1xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// Rows of no elements (the dims after the axis are empty): reported too.
func.func @empty_rows() {
  %data = arith.constant dense<1.0> : tensor<4x0xf32>
  %constant = arith.constant dense<[2, 9]> : tensor<2xi64>
  %indices = call @opaque_2xi64(%constant) : (tensor<2xi64>) -> tensor<2xi64>
  // ROWS: error: {{.*}}out_of_range_gather_empty_result.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather: index 9 in operand 'indices' is out of range for dim 0 of operand 'data' (size 4)
  %r = nd.gather %data[%indices] : tensor<4x0xf32>, tensor<2xi64> -> tensor<2x0xf32>
  %u = tensor.cast %r : tensor<2x0xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// SKIP: Unranked Memref {{.*}} sizes = [0]
func.func @skipped() {
  %data = arith.constant dense<1.0> : tensor<0x5xf32>
  %constant = arith.constant dense<6> : tensor<i64>
  %indices = call @opaque_i64(%constant) : (tensor<i64>) -> tensor<i64>
  %r = nd.gather %data[%indices] axis(1) oob<skip> : tensor<0x5xf32>, tensor<i64> -> tensor<0xf32>
  %u = tensor.cast %r : tensor<0xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// The indices come through a call, so that the verifier, which rejects
// constant indices out of range at compile time, leaves them to the
// run-time checks this test is about.
func.func @opaque_i64(%t: tensor<i64>) -> tensor<i64> {
  return %t : tensor<i64>
}
func.func @opaque_2x1xi64(%t: tensor<2x1xi64>) -> tensor<2x1xi64> {
  return %t : tensor<2x1xi64>
}
func.func @opaque_2xi64(%t: tensor<2xi64>) -> tensor<2xi64> {
  return %t : tensor<2xi64>
}
