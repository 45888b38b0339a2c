// RUN: nd-opt %s -split-input-file --nd-to-llvm --mlir-print-ir-after=nd-return-donated -o /dev/null 2>&1 | FileCheck %s

// Through the whole nd-to-llvm pipeline (shown once buffers are final): an
// argument the caller did not donate is never written. A scatter into it
// copies data once, before the call of the op's function, which updates
// that copy in place (and nothing more: no clone of the result on return);
// a donated argument is updated in place and returned as it is, so a
// KV-cache update costs the updates alone.

// CHECK-LABEL: func.func @copied
//  CHECK-SAME:   (%[[CACHE:[a-z0-9]+]]: memref<2x4x8x4xf16>
//   CHECK-NOT:   bufferization.clone
//       CHECK:   %[[ALLOC:.*]] = memref.alloc() {{.*}} : memref<2x4x8x4xf16>
//       CHECK:   memref.copy %[[CACHE]], %[[ALLOC]] : memref<2x4x8x4xf16> to memref<2x4x8x4xf16>
//       CHECK:   call @__nd_scatter_nd(%[[ALLOC]],
//  CHECK-NEXT:   return %[[ALLOC]] : memref<2x4x8x4xf16>
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   (%[[DATA:[a-z0-9]+]]: memref<2x4x8x4xf16>
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   %[[FLAT:.*]] = memref.collapse_shape %[[DATA]]
//       CHECK:   memref.subview %[[FLAT]]
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
//   CHECK-NOT:   memref.alloc() {{.*}} : memref<2x4x8x4xf16>
//   CHECK-NOT:   memref.copy
//       CHECK:   call @__nd_scatter_nd(%[[CACHE]],
//  CHECK-NEXT:   return %[[CACHE]] : memref<2x4x8x4xf16>
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   (%[[DATA:[a-z0-9]+]]: memref<2x4x8x4xf16>
//   CHECK-NOT:   memref.alloc() {{.*}} : memref<64x4xf16>
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   %[[FLAT:.*]] = memref.collapse_shape %[[DATA]]
//       CHECK:   memref.subview %[[FLAT]]
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   return
func.func @donated(%cache: tensor<2x4x8x4xf16> {nd.donated}, %indices: tensor<2x4x1x3xi64>, %updates: tensor<2x4x1x4xf16>) -> tensor<2x4x8x4xf16> {
  %0 = nd.scatter_nd %cache[%indices], %updates : tensor<2x4x8x4xf16>, tensor<2x4x1x3xi64>, tensor<2x4x1x4xf16>
  return %0 : tensor<2x4x8x4xf16>
}
