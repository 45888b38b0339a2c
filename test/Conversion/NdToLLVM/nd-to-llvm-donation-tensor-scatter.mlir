// RUN: nd-opt %s -split-input-file --nd-to-llvm --mlir-print-ir-after=nd-return-donated -o /dev/null 2>&1 | FileCheck %s

// A donated KV cache, static or dynamic, is updated in place by
// nd.tensor_scatter and returned as it is: no copy, no clone, no
// allocation of a cache-sized buffer anywhere, so the update costs
// O(update). The op's function writes the update's rows through views of
// the cache's own buffer.

// CHECK-LABEL: func.func @donated_dynamic
//  CHECK-SAME:   (%[[CACHE:[a-z0-9]+]]: memref<?x?x?x?xf16>
//   CHECK-NOT:   memref.alloc
//   CHECK-NOT:   memref.copy
//       CHECK:   call @__nd_tensor_scatter(%[[CACHE]],
//  CHECK-NEXT:   return %[[CACHE]] : memref<?x?x?x?xf16>
// CHECK-LABEL: func.func private @__nd_tensor_scatter
//  CHECK-SAME:   (%[[DATA:[a-z0-9]+]]: memref<?x?x?x?xf16>
//   CHECK-NOT:   memref.alloc({{.*}}) {{.*}} : memref<?x?x?x?xf16>
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   memref.subview %[[DATA]]
//       CHECK:   memref.reinterpret_cast
//       CHECK:   vector.store
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   return
func.func @donated_dynamic(%cache: tensor<?x?x?x?xf16> {nd.donated}, %update: tensor<?x?x?x?xf16>, %w: tensor<?xi64>) -> tensor<?x?x?x?xf16> {
  %r = nd.tensor_scatter %cache[%w], %update mode<circular> : tensor<?x?x?x?xf16>[tensor<?xi64>], tensor<?x?x?x?xf16>
  return %r : tensor<?x?x?x?xf16>
}

// -----

// CHECK-LABEL: func.func @donated_static
//  CHECK-SAME:   (%[[CACHE:[a-z0-9]+]]: memref<1x32x4096x128xf16>
//   CHECK-NOT:   memref.alloc
//   CHECK-NOT:   memref.copy
//       CHECK:   call @__nd_tensor_scatter(%[[CACHE]],
//  CHECK-NEXT:   return %[[CACHE]] : memref<1x32x4096x128xf16>
// CHECK-LABEL: func.func private @__nd_tensor_scatter
//  CHECK-SAME:   (%[[DATA:[a-z0-9]+]]: memref<1x32x4096x128xf16>
//   CHECK-NOT:   memref.alloc() {{.*}} : memref<1x32x4096x128xf16>
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   memref.subview %[[DATA]]
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   return
func.func @donated_static(%cache: tensor<1x32x4096x128xf16> {nd.donated}, %update: tensor<1x32x1x128xf16>, %w: tensor<1xi64>) -> tensor<1x32x4096x128xf16> {
  %r = nd.tensor_scatter %cache[%w], %update : tensor<1x32x4096x128xf16>[tensor<1xi64>], tensor<1x32x1x128xf16>
  return %r : tensor<1x32x4096x128xf16>
}

// -----

// Not donated: the caller copies the cache once and the op's function
// updates the copy in place.
// CHECK-LABEL: func.func @copied
//  CHECK-SAME:   (%[[CACHE:[a-z0-9]+]]: memref<2x8x16xf32>
//       CHECK:   %[[ALLOC:.*]] = memref.alloc() {{.*}} : memref<2x8x16xf32>
//       CHECK:   memref.copy %[[CACHE]], %[[ALLOC]]
//       CHECK:   call @__nd_tensor_scatter(%[[ALLOC]],
//  CHECK-NEXT:   return %[[ALLOC]] : memref<2x8x16xf32>
// CHECK-LABEL: func.func private @__nd_tensor_scatter
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   return
func.func @copied(%cache: tensor<2x8x16xf32>, %update: tensor<2x3x16xf32>) -> tensor<2x8x16xf32> {
  %r = nd.tensor_scatter %cache, %update : tensor<2x8x16xf32>, tensor<2x3x16xf32>
  return %r : tensor<2x8x16xf32>
}
