// RUN: nd-opt %s -split-input-file --nd-to-llvm --mlir-print-ir-after=nd-return-donated -o /dev/null 2>&1 | FileCheck %s

// Scatters into data with dynamic dims, through the whole nd-to-llvm
// pipeline (shown once buffers are final): the op's function views its data
// argument as rows (memref.collapse_shape) and updates it in place, and the
// view goes before the function returns, so nothing copies or clones the
// data. A donated argument is returned as it is, a scatter into a tensor
// made in the function updates it in place, and an undonated argument is
// copied once, before the call.

// CHECK-LABEL: func.func @donated_kv
//  CHECK-SAME:   (%[[CACHE:[a-z0-9]+]]: memref<1x32x?x128xf16>
//   CHECK-NOT:   memref.alloc
//   CHECK-NOT:   memref.copy
//       CHECK:   call @__nd_scatter_nd(%[[CACHE]],
//  CHECK-NEXT:   return %[[CACHE]] : memref<1x32x?x128xf16>
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   (%[[DATA:[a-z0-9]+]]: memref<1x32x?x128xf16>
//   CHECK-NOT:   memref.alloc({{.*}}) {{.*}} : memref<?x128xf16>
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//   CHECK-NOT:   memref.reshape
//       CHECK:   %[[FLAT:.*]] = memref.collapse_shape %[[DATA]]
//       CHECK:   memref.subview %[[FLAT]]
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//   CHECK-NOT:   memref.reshape
//       CHECK:   return
//  CHECK-NEXT: }
func.func @donated_kv(%cache: tensor<1x32x?x128xf16> {nd.donated}, %pos: tensor<1x32x1x3xi64>, %kv: tensor<1x32x1x128xf16>) -> tensor<1x32x?x128xf16> {
  %0 = nd.scatter_nd %cache[%pos], %kv : tensor<1x32x?x128xf16>, tensor<1x32x1x3xi64>, tensor<1x32x1x128xf16>
  return %0 : tensor<1x32x?x128xf16>
}

// -----

// The slice of a row spans two dynamic dims: its expansion back is a
// memref.expand_shape of a group with two dynamic dims, on which MLIR 22's
// expand-strided-metadata crashes; it folds with the collapse instead.
// CHECK-LABEL: func.func @donated_two_dynamic
//  CHECK-SAME:   (%[[D:[a-z0-9]+]]: memref<4x?x?xf32>
//   CHECK-NOT:   memref.alloc
//   CHECK-NOT:   memref.copy
//       CHECK:   call @__nd_scatter_nd(%[[D]],
//  CHECK-NEXT:   return %[[D]] : memref<4x?x?xf32>
// CHECK-LABEL: func.func private @__nd_scatter_nd
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//   CHECK-NOT:   memref.expand_shape
//   CHECK-NOT:   memref.reshape
//       CHECK:   return
//  CHECK-NEXT: }
func.func @donated_two_dynamic(%d: tensor<4x?x?xf32> {nd.donated}, %i: tensor<3x1xi64>, %u: tensor<3x?x?xf32>) -> tensor<4x?x?xf32> {
  %0 = nd.scatter_nd %d[%i], %u : tensor<4x?x?xf32>, tensor<3x1xi64>, tensor<3x?x?xf32>
  return %0 : tensor<4x?x?xf32>
}

// -----

// scatter_elements, by fibers of dim 0 and along an axis whose other dims
// are 1 (rows of one element).
// CHECK-LABEL: func.func @donated_elements
//  CHECK-SAME:   (%[[E:[a-z0-9]+]]: memref<?x?xf32>
//   CHECK-NOT:   memref.alloc
//   CHECK-NOT:   memref.copy
//       CHECK:   call @__nd_scatter_elements(%[[E]],
//  CHECK-NEXT:   return %[[E]] : memref<?x?xf32>
// CHECK-LABEL: func.func @donated_along
//  CHECK-SAME:   (%[[A:[a-z0-9]+]]: memref<?x1xf32>
//   CHECK-NOT:   memref.alloc
//   CHECK-NOT:   memref.copy
//       CHECK:   call @__nd_scatter_elements_0(%[[A]],
//  CHECK-NEXT:   return %[[A]] : memref<?x1xf32>
// CHECK-LABEL: func.func private @__nd_scatter_elements(
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   return
//  CHECK-NEXT: }
// CHECK-LABEL: func.func private @__nd_scatter_elements_0(
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//   CHECK-NOT:   memref.reshape
//       CHECK:   return
//  CHECK-NEXT: }
func.func @donated_elements(%d: tensor<?x?xf32> {nd.donated}, %i: tensor<?x?xi64>, %u: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = nd.scatter_elements %d[%i], %u axis(1) : tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
func.func @donated_along(%d: tensor<?x1xf32> {nd.donated}, %i: tensor<?x1xi64>, %u: tensor<?x1xf32>) -> tensor<?x1xf32> {
  %0 = nd.scatter_elements %d[%i], %u axis(0) : tensor<?x1xf32>, tensor<?x1xi64>, tensor<?x1xf32>
  return %0 : tensor<?x1xf32>
}

// -----

// Not donated: one copy, before the call; a second scatter of the result
// updates it in place (both identical ops call one shared function).
// CHECK-LABEL: func.func @copied
//  CHECK-SAME:   (%[[C:[a-z0-9]+]]: memref<1x32x?x128xf16>
//   CHECK-NOT:   bufferization.clone
//       CHECK:   %[[ALLOC:.*]] = memref.alloc({{.*}}) {{.*}} : memref<1x32x?x128xf16>
//       CHECK:   memref.copy %[[C]], %[[ALLOC]]
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   memref.alloc
//       CHECK:   call @__nd_scatter_nd(%[[ALLOC]],
//       CHECK:   call @__nd_scatter_nd(%[[ALLOC]],
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   bufferization.clone
//       CHECK:   return %[[ALLOC]] : memref<1x32x?x128xf16>
func.func @copied(%cache: tensor<1x32x?x128xf16>, %pos: tensor<1x32x1x3xi64>, %kv: tensor<1x32x1x128xf16>) -> tensor<1x32x?x128xf16> {
  %0 = nd.scatter_nd %cache[%pos], %kv : tensor<1x32x?x128xf16>, tensor<1x32x1x3xi64>, tensor<1x32x1x128xf16>
  %1 = nd.scatter_nd %0[%pos], %kv : tensor<1x32x?x128xf16>, tensor<1x32x1x3xi64>, tensor<1x32x1x128xf16>
  return %1 : tensor<1x32x?x128xf16>
}
