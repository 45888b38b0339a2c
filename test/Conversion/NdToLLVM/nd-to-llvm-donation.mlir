// RUN: nd-opt %s -split-input-file --nd-to-llvm --mlir-print-ir-after=nd-return-donated -o /dev/null 2>&1 | FileCheck %s

// Through the whole nd-to-llvm pipeline (shown once buffers are final): an
// argument the caller did not donate is never written. A scatter into it
// copies data once (and nothing more: no clone of the result on return);
// a donated argument is updated in place and returned as it is, so a
// KV-cache update costs the updates alone.

// CHECK-LABEL: func.func @copied
//  CHECK-SAME:   (%[[CACHE:[a-z0-9]+]]: memref<2x4x8x4xf16>
//   CHECK-NOT:   bufferization.clone
//       CHECK:   %[[ALLOC:.*]] = memref.alloc() {{.*}} : memref<64x4xf16>
//       CHECK:   memref.copy %{{.*}}, %[[ALLOC]] : memref<64x4xf16> to memref<64x4xf16>
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   memref.subview %[[CACHE]]
//       CHECK:   memref.subview %[[ALLOC]]
//   CHECK-NOT:   bufferization.clone
//   CHECK-NOT:   memref.copy
//       CHECK:   return
func.func @copied(%cache: tensor<2x4x8x4xf16>, %indices: tensor<2x4x1x3xi64>, %updates: tensor<2x4x1x4xf16>) -> tensor<2x4x8x4xf16> {
  %0 = nd.scatter_nd %cache[%indices], %updates : tensor<2x4x8x4xf16>, tensor<2x4x1x3xi64>, tensor<2x4x1x4xf16>
  return %0 : tensor<2x4x8x4xf16>
}

// -----

// CHECK-LABEL: func.func @donated
//  CHECK-SAME:   (%[[CACHE:[a-z0-9]+]]: memref<2x4x8x4xf16>
//   CHECK-NOT:   nd.donated
//   CHECK-NOT:   memref.alloc() {{.*}} : memref<64x4xf16>
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   %[[FLAT:.*]] = memref.collapse_shape %[[CACHE]]
//       CHECK:   memref.subview %[[FLAT]]
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   return %[[CACHE]] : memref<2x4x8x4xf16>
func.func @donated(%cache: tensor<2x4x8x4xf16> {nd.donated}, %indices: tensor<2x4x1x3xi64>, %updates: tensor<2x4x1x4xf16>) -> tensor<2x4x8x4xf16> {
  %0 = nd.scatter_nd %cache[%indices], %updates : tensor<2x4x8x4xf16>, tensor<2x4x1x3xi64>, tensor<2x4x1x4xf16>
  return %0 : tensor<2x4x8x4xf16>
}
