// A scatter_elements whose rows after the axis hold one index value (the
// GPU lowering's path of whole rows) under a reduction, with the
// out-of-place copy of `data` folded into the owners: the owners cover
// every row of data, so a row no entry addresses still gets data's value,
// even where indices are empty along the axis (no entry at all). Run
// through the GPU lowering on the host and through the CPU lowering; the
// expected values are data's own (no update applies) and, for the second
// call, worked by hand.
// DEFINE: %{libs} = -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils
// RUN: nd-opt %s --nd-to-gpu=run-on-host=true | mlir-runner -e main -entry-point-result=void %{libs} | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm | mlir-runner -e main -entry-point-result=void %{libs} | FileCheck %s

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<?x?x?xf32>) {
  %u = tensor.cast %t : tensor<?x?x?xf32> to tensor<*xf32>
  %m = bufferization.to_buffer %u read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @scatter(%data: tensor<?x?x?xf32>, %indices: tensor<?x?x?xi64>,
                   %updates: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = nd.scatter_elements %data[%indices], %updates axis(1) reduction<add> : tensor<?x?x?xf32>, tensor<?x?x?xi64>, tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}1, 2],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [5, 6]],
// CHECK-NEXT: {{\[\[}}7, 8],
// CHECK-NEXT: [9, 10],
// CHECK-NEXT: [11, 12]]]
// Entries for row 2 of plane 0 and row 0 of plane 1 (twice): rows 0 and 1
// of plane 0 and rows 1 and 2 of plane 1 keep data's values.
// CHECK: Unranked Memref
// CHECK-NEXT: {{\[\[\[}}1, 2],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [105, 206]],
// CHECK-NEXT: {{\[\[}}337, 448],
// CHECK-NEXT: [9, 10],
// CHECK-NEXT: [11, 12]]]
func.func @main() {
  %data = arith.constant dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]],
                                [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32>
  %d = tensor.cast %data : tensor<2x3x2xf32> to tensor<?x?x?xf32>
  %none_i = arith.constant dense<> : tensor<2x0x2xi64>
  %none_u = arith.constant dense<> : tensor<2x0x2xf32>
  %i0 = tensor.cast %none_i : tensor<2x0x2xi64> to tensor<?x?x?xi64>
  %u0 = tensor.cast %none_u : tensor<2x0x2xf32> to tensor<?x?x?xf32>
  %r0 = call @scatter(%d, %i0, %u0) : (tensor<?x?x?xf32>, tensor<?x?x?xi64>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  call @print(%r0) : (tensor<?x?x?xf32>) -> ()
  %some_i = arith.constant dense<[[[2, 2], [2, 2]], [[0, 0], [0, 0]]]> : tensor<2x2x2xi64>
  %some_u = arith.constant dense<[[[100.0, 200.0], [0.0, 0.0]],
                                  [[110.0, 220.0], [220.0, 220.0]]]> : tensor<2x2x2xf32>
  %i1 = tensor.cast %some_i : tensor<2x2x2xi64> to tensor<?x?x?xi64>
  %u1 = tensor.cast %some_u : tensor<2x2x2xf32> to tensor<?x?x?xf32>
  %r1 = call @scatter(%d, %i1, %u1) : (tensor<?x?x?xf32>, tensor<?x?x?xi64>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  call @print(%r1) : (tensor<?x?x?xf32>) -> ()
  return
}
