// With check-bounds=false (on lower-scatter after bufferization, or on the nd-to-llvm pipeline)
// no run-time check and no error path is emitted, and valid input, negative
// indices included, runs as with the checks.
//
// RUN: nd-opt %s --one-shot-bufferize=bufferize-function-boundaries --lower-scatter=check-bounds=false | FileCheck %s --check-prefix=IR
// RUN: nd-opt %s --nd-to-llvm=check-bounds=false | FileCheck %s --check-prefix=IR
// RUN: nd-opt %s --nd-to-llvm=check-bounds=false | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm=check-bounds=false | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils | FileCheck %s

// IR-NOT: nd_rt.report
// IR-NOT: __nd_msg
// IR-NOT: nd.scatter_nd
// IR-NOT: nd.gather_nd
// IR-NOT: nd.scatter_elements
// IR-NOT: nd.gather_elements

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  // ONNX ScatterND example 1, indices written negative (-4 is 4, ...).
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1, 11, 3, 10, 9, 6, 7, 12]
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %indices = arith.constant dense<[[-4], [3], [-7], [7]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>
  %r0 = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  %u0 = tensor.cast %r0 : tensor<8xf32> to tensor<*xf32>
  call @print(%u0) : (tensor<*xf32>) -> ()

  // ONNX GatherND example 2 on f32, [[1], [0]] written [[-1], [0]].
  // CHECK: Unranked Memref
  // CHECK-NEXT: {{\[\[}}2, 3],
  // CHECK-NEXT: [0, 1]]
  %gdata = arith.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  %gind = arith.constant dense<[[-1], [0]]> : tensor<2x1xi32>
  %r1 = nd.gather_nd %gdata[%gind] : tensor<2x2xf32>, tensor<2x1xi32> -> tensor<2x2xf32>
  %u1 = tensor.cast %r1 : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u1) : (tensor<*xf32>) -> ()

  // ONNX Scatter example 2 (axis 1), [[1, 3]] written [[-4, 3]].
  // CHECK: Unranked Memref
  // CHECK-NEXT: {{\[\[}}1, 1.1, 3, 2.1, 5]]
  %sdata = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<1x5xf32>
  %sind = arith.constant dense<[[-4, 3]]> : tensor<1x2xi64>
  %supd = arith.constant dense<[[1.1, 2.1]]> : tensor<1x2xf32>
  %r2 = nd.scatter_elements %sdata[%sind], %supd axis(1) : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %u2 = tensor.cast %r2 : tensor<1x5xf32> to tensor<*xf32>
  call @print(%u2) : (tensor<*xf32>) -> ()

  // ONNX test_gather_elements_negative_indices (axis 0), dynamic data.
  // CHECK: Unranked Memref
  // CHECK-NEXT: {{\[\[}}7, 5, 3],
  // CHECK-NEXT: [4, 2, 3]]
  %edata = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]> : tensor<3x3xf32>
  %eind = arith.constant dense<[[-1, -2, 0], [-2, 0, 0]]> : tensor<2x3xi64>
  %ed = tensor.cast %edata : tensor<3x3xf32> to tensor<?x?xf32>
  %r3 = nd.gather_elements %ed[%eind] : tensor<?x?xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  %u3 = tensor.cast %r3 : tensor<2x3xf32> to tensor<*xf32>
  call @print(%u3) : (tensor<*xf32>) -> ()
  return
}
