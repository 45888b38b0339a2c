// RUN: nd-opt %s --nd-return-donated | FileCheck %s

// The deallocation pipeline clones every returned buffer the function does
// not own. A donated argument goes back to the caller as it is; any other
// argument is still cloned. The nd.donated attributes are gone afterwards.

// CHECK-LABEL: func.func @donated
//  CHECK-SAME:   (%[[A:.*]]: memref<4xf32>, %[[B:.*]]: memref<4xf32>)
//   CHECK-NOT:   nd.donated
//       CHECK:   %[[CLONE:.*]] = bufferization.clone %[[B]]
//       CHECK:   return %[[A]], %[[CLONE]] : memref<4xf32>, memref<4xf32>
func.func @donated(%a: memref<4xf32> {nd.donated}, %b: memref<4xf32>) -> (memref<4xf32>, memref<4xf32>) {
  %0 = bufferization.clone %a : memref<4xf32> to memref<4xf32>
  %1 = bufferization.clone %b : memref<4xf32> to memref<4xf32>
  return %0, %1 : memref<4xf32>, memref<4xf32>
}
