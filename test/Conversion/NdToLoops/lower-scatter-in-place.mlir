// RUN: nd-opt %s -split-input-file --lower-scatter \
// RUN:   --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \
// RUN:   -cse -canonicalize | FileCheck %s

// The scatters update data inside an scf.forall whose shared output is data:
// when data is writable (dead after the op), bufferization updates it in
// place, with no allocation and no copy of data; each partition writes a
// subview of data's buffer. The same steps (bufferize, CSE, canonicalize)
// run in nd-to-llvm. Each op is a call of its own function, which gets
// data's buffer itself when data is writable.

// CHECK-LABEL: func.func @scatter_nd_slices_add_in_place
//  CHECK-SAME:   %[[ARG:[a-zA-Z0-9]+]]: memref<8x4xf32>
//   CHECK-NOT:   memref.alloc() {{.*}} : memref<8x4xf32>
//   CHECK-NOT:   memref.copy
//       CHECK:   %[[R:.*]] = call @__nd_scatter_nd(%[[ARG]],
//       CHECK:   return %[[R]] : memref<8x4xf32>
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<8x4xf32>
//   CHECK-NOT:   memref.alloc() {{.*}} : memref<8x4xf32>
//   CHECK-NOT:   memref.copy
//       CHECK:   scf.forall
//       CHECK:     memref.subview %[[DATA]][%{{.*}}, 0] [%{{.*}}, 4] [1, 1] : memref<8x4xf32> to memref<?x4xf32, strided<[4, 1], offset: ?>>
//       CHECK:     arith.addf
//   CHECK-NOT:   memref.copy
//       CHECK:   return %[[DATA]] : memref<8x4xf32>
func.func @scatter_nd_slices_add_in_place(%data: tensor<8x4xf32> {bufferization.writable = true}, %indices: tensor<3x1xi64>, %updates: tensor<3x4xf32>) -> tensor<8x4xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<8x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @scatter_nd_elements_in_place
//  CHECK-SAME:   %[[ARG:[a-zA-Z0-9]+]]: memref<?x?xf32>
//   CHECK-NOT:   memref.copy
//       CHECK:   call @__nd_scatter_nd(%[[ARG]],
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<?x?xf32>
//   CHECK-NOT:   memref.copy
//       CHECK:   %[[FLAT:.*]] = memref.collapse_shape %[[DATA]] {{\[\[}}0, 1]] : memref<?x?xf32> into memref<?xf32>
//       CHECK:   scf.forall
//       CHECK:     memref.subview %[[FLAT]][%{{.*}}] [%{{.*}}] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
//   CHECK-NOT:   memref.copy
//   CHECK-NOT:   memref.reshape
//       CHECK:   memref.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [%{{.*}}, %{{.*}}] : memref<?xf32> into memref<?x?xf32>
func.func @scatter_nd_elements_in_place(%data: tensor<?x?xf32> {bufferization.writable = true}, %indices: tensor<?x2xi32>, %updates: tensor<?xf32>) -> tensor<?x?xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<?x?xf32>, tensor<?x2xi32>, tensor<?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @scatter_elements_in_place
//  CHECK-SAME:   %[[ARG:[a-zA-Z0-9]+]]: memref<?x?xi32>
//   CHECK-NOT:   memref.copy
//       CHECK:   %[[R:.*]] = call @__nd_scatter_elements(%[[ARG]],
//       CHECK:   return %[[R]]
// CHECK-LABEL: func.func private @__nd_scatter_elements
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<?x?xi32>
//   CHECK-NOT:   memref.copy
//       CHECK:   scf.forall
//       CHECK:     memref.subview %[[DATA]][%{{.*}}, 0] [%{{.*}}, %{{.*}}] [1, 1]
//       CHECK:     arith.maxsi
//   CHECK-NOT:   memref.copy
//       CHECK:   return %[[DATA]]
func.func @scatter_elements_in_place(%data: tensor<?x?xi32> {bufferization.writable = true}, %indices: tensor<?x?xi64>, %updates: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<max> : tensor<?x?xi32>, tensor<?x?xi64>, tensor<?x?xi32>
  return %0 : tensor<?x?xi32>
}

// -----

// A read-only data (a constant, or an argument marked not writable) is
// copied once, by the caller of the op's function, and the copy is updated
// in place; the callee learns from the base pointer passed along that it
// writes a copy (checks fused with the writes) and never copies again.
// CHECK-LABEL: func.func @scatter_nd_read_only
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<8x4xf32>
//       CHECK:   %[[PROBE:.*]] = memref.cast %[[DATA]]
//       CHECK:   %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[PROBE]]
//       CHECK:   %[[ALLOC:.*]] = memref.alloc() {{.*}} : memref<8x4xf32>
//       CHECK:   memref.copy %[[DATA]], %[[ALLOC]]
//       CHECK:   %[[R:.*]] = call @__nd_scatter_nd(%[[ALLOC]], %{{.*}}, %{{.*}}, %[[PTR]], %{{.*}})
//       CHECK:   return %[[R]]
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   %[[COPY:[a-zA-Z0-9]+]]: memref<8x4xf32>
//   CHECK-NOT:   memref.copy
//       CHECK:   scf.forall
//       CHECK:     memref.subview %[[COPY]]
//   CHECK-NOT:   memref.copy
//       CHECK:   return %[[COPY]]
func.func @scatter_nd_read_only(%data: tensor<8x4xf32> {bufferization.writable = false}, %indices: tensor<3x1xi64>, %updates: tensor<3x4xf32>) -> tensor<8x4xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<8x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  return %0 : tensor<8x4xf32>
}
