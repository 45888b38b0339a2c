// RUN: nd-opt %s -split-input-file --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" | FileCheck %s
// RUN: nd-opt %s -split-input-file --nd-share-read-buffers | FileCheck %s --check-prefix=SHARED

// One-shot bufferization of the nd ops (their BufferizableOpInterface):
// each op becomes its form on buffers. A scatter updates its destination's
// buffer in place when the analysis may (the tensor is writable and not read
// later), else a copy; a gather writes a buffer it allocates.

// A writable destination, dead after the op: updated in place, with no
// allocation and no copy.
// CHECK-LABEL: func.func @scatter_in_place
//  CHECK-SAME:   (%[[DATA:.*]]: memref<8x4xf32>, %[[IND:.*]]: memref<3x1xi64>, %[[UPD:.*]]: memref<3x4xf32>) -> memref<8x4xf32>
//   CHECK-NOT:   memref.alloc
//   CHECK-NOT:   memref.copy
//       CHECK:   nd.scatter_nd %[[DATA]][%[[IND]]], %[[UPD]] reduction<add> : memref<8x4xf32>, memref<3x1xi64>, memref<3x4xf32>
//       CHECK:   return %[[DATA]]
func.func @scatter_in_place(%data: tensor<8x4xf32> {bufferization.writable = true}, %indices: tensor<3x1xi64>, %updates: tensor<3x4xf32>) -> tensor<8x4xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<8x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A destination that may not be written (an argument not donated) is copied
// once, and the copy, a buffer nothing outside the call sees, is marked
// `disposable`: the lowering may leave it partly written when an index is
// bad, and checks the index values as it writes.
// CHECK-LABEL: func.func @scatter_read_only
//  CHECK-SAME:   (%[[DATA:.*]]: memref<8x4xf32>,
//       CHECK:   %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x4xf32>
//       CHECK:   memref.copy %[[DATA]], %[[COPY]]
//       CHECK:   nd.scatter_nd %[[COPY]][%{{.*}}], %{{.*}} {disposable} : memref<8x4xf32>, memref<3x1xi64>, memref<3x4xf32>
//       CHECK:   return %[[COPY]]
func.func @scatter_read_only(%data: tensor<8x4xf32> {bufferization.writable = false}, %indices: tensor<3x1xi64>, %updates: tensor<3x4xf32>) -> tensor<8x4xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<8x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Data read after the op: the op updates a copy, data stays as it was.
// CHECK-LABEL: func.func @scatter_data_read_later
//  CHECK-SAME:   (%[[DATA:.*]]: memref<?x?xi32>,
//       CHECK:   %[[COPY:.*]] = memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xi32>
//       CHECK:   memref.copy %[[DATA]], %[[COPY]]
//       CHECK:   nd.scatter_elements %[[COPY]][%{{.*}}], %{{.*}} axis(1) reduction<max> {disposable}
//       CHECK:   return %[[COPY]], %[[DATA]]
func.func @scatter_data_read_later(%data: tensor<?x?xi32> {bufferization.writable = true}, %indices: tensor<?x?xi64>, %updates: tensor<?x?xi32>) -> (tensor<?x?xi32>, tensor<?x?xi32>) {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<max> : tensor<?x?xi32>, tensor<?x?xi64>, tensor<?x?xi32>
  return %0, %data : tensor<?x?xi32>, tensor<?x?xi32>
}

// -----

// A gather allocates its result (dims taken from the operands) and writes it
// `into` that buffer; a scatter on the gather's result updates that buffer in
// place, and it is disposable.
// CHECK-LABEL: func.func @gather_then_scatter
//  CHECK-SAME:   (%[[DATA:.*]]: memref<?x4xf32>, %[[IND:.*]]: memref<?x1xi64>, %[[ROWS:.*]]: memref<2x1xi64>, %[[UPD:.*]]: memref<2x4xf32>)
//       CHECK:   %[[N:.*]] = memref.dim %[[IND]], %{{.*}} : memref<?x1xi64>
//       CHECK:   %[[OUT:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4xf32>
//       CHECK:   nd.gather_nd %[[DATA]][%[[IND]]] into %[[OUT]] : memref<?x4xf32>, memref<?x1xi64> into memref<?x4xf32>
//   CHECK-NOT:   memref.copy
//       CHECK:   nd.scatter_nd %[[OUT]][%[[ROWS]]], %[[UPD]] {disposable}
//       CHECK:   return %[[OUT]]
func.func @gather_then_scatter(%data: tensor<?x4xf32>, %indices: tensor<?x1xi64>, %rows: tensor<2x1xi64>, %updates: tensor<2x4xf32>) -> tensor<?x4xf32> {
  %g = nd.gather_nd %data[%indices] : tensor<?x4xf32>, tensor<?x1xi64> -> tensor<?x4xf32>
  %s = nd.scatter_nd %g[%rows], %updates : tensor<?x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>
  return %s : tensor<?x4xf32>
}

// -----

// Inside a loop the result is the destination's buffer (the loop carries
// it): the scatter updates the loop's buffer in place, not disposable (a
// failed check must leave the previous iterations' work as it was).
// CHECK-LABEL: func.func @scatter_in_loop
//  CHECK-SAME:   (%[[DATA:.*]]: memref<16xf32>,
//   CHECK-NOT:   memref.alloc
//       CHECK:   %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[DATA]]) -> (memref<16xf32>) {
//       CHECK:     nd.scatter_elements %[[ACC]][%{{.*}}], %{{.*}} reduction<add> : memref<16xf32>, memref<4xi64>, memref<4xf32>
//       CHECK:     scf.yield %[[ACC]]
//       CHECK:   return %[[R]]
func.func @scatter_in_loop(%data: tensor<16xf32> {bufferization.writable = true}, %indices: tensor<4xi64>, %updates: tensor<4xf32>, %n: index) -> tensor<16xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %data) -> tensor<16xf32> {
    %s = nd.scatter_elements %acc[%indices], %updates reduction<add> : tensor<16xf32>, tensor<4xi64>, tensor<4xf32>
    scf.yield %s : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}

// -----

// A donated cache is updated in place.
// CHECK-LABEL: func.func @kv_cache
//  CHECK-SAME:   (%[[CACHE:.*]]: memref<2x8x4x128xf16>,
//   CHECK-NOT:   memref.alloc
//       CHECK:   nd.tensor_scatter %[[CACHE]][%{{.*}}], %{{.*}} : memref<2x8x4x128xf16>[memref<2xi64>], memref<2x8x1x128xf16>
//       CHECK:   return %[[CACHE]]
func.func @kv_cache(%cache: tensor<2x8x4x128xf16> {bufferization.writable = true}, %update: tensor<2x8x1x128xf16>, %w: tensor<2xi64>) -> tensor<2x8x4x128xf16> {
  %r = nd.tensor_scatter %cache[%w], %update : tensor<2x8x4x128xf16>[tensor<2xi64>], tensor<2x8x1x128xf16>
  return %r : tensor<2x8x4x128xf16>
}

// -----

// Mixed with other dialects: a gather reads a slice as a strided view, with
// no copy.
// CHECK-LABEL: func.func @slice_then_gather
//       CHECK:   %[[VIEW:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [4, 8] [1, 1] : memref<16x8xf32> to memref<4x8xf32, strided<[8, 1], offset: ?>>
//   CHECK-NOT:   memref.copy
//       CHECK:   %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x5xf32>
//       CHECK:   nd.gather %[[VIEW]][%{{.*}}] into %[[OUT]] axis(1) : memref<4x8xf32, strided<[8, 1], offset: ?>>, memref<5xi32> into memref<4x5xf32>
func.func @slice_then_gather(%data: tensor<16x8xf32>, %indices: tensor<5xi32>, %lo: index) -> tensor<4x5xf32> {
  %s = tensor.extract_slice %data[%lo, 0] [4, 8] [1, 1] : tensor<16x8xf32> to tensor<4x8xf32>
  %g = nd.gather %s[%indices] axis(1) : tensor<4x8xf32>, tensor<5xi32> -> tensor<4x5xf32>
  return %g : tensor<4x5xf32>
}

// -----

// Tensors nothing may write (arguments not donated, constants) are read by
// the nd ops through one buffer each (--nd-share-read-buffers, which
// nd-to-llvm runs before bufferization: thousands of ops on one argument
// then cost one buffer, not an analysis each). A scatter on such a tensor
// updates a copy made there, writable.
// SHARED-LABEL: func.func @shared_reads
//   SHARED-DAG:   %[[U:.*]] = bufferization.to_buffer %arg2 read_only : tensor<2x4xf32> to memref<2x4xf32>
//   SHARED-DAG:   %[[I:.*]] = bufferization.to_buffer %arg1 read_only : tensor<2x1xi64> to memref<2x1xi64>
//   SHARED-DAG:   %[[D:.*]] = bufferization.to_buffer %arg0 read_only : tensor<8x4xf32> to memref<8x4xf32>
//       SHARED:   nd.gather_nd %[[D]][%[[I]]] : memref<8x4xf32>, memref<2x1xi64> -> tensor<2x4xf32>
//       SHARED:   nd.gather_nd %[[D]][%[[I]]] : memref<8x4xf32>, memref<2x1xi64> -> tensor<2x4xf32>
//       SHARED:   %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x4xf32>
//       SHARED:   memref.copy %[[D]], %[[COPY]]
//       SHARED:   %[[T:.*]] = bufferization.to_tensor %[[COPY]] restrict writable
//       SHARED:   %[[S0:.*]] = nd.scatter_nd %[[T]][%[[I]]], %[[U]] : tensor<8x4xf32>, memref<2x1xi64>, memref<2x4xf32>
//       SHARED:   nd.scatter_nd %[[S0]][%[[I]]], %[[U]] reduction<add> : tensor<8x4xf32>, memref<2x1xi64>, memref<2x4xf32>
// Bufferized, the copy is updated in place by both scatters.
// CHECK-LABEL: func.func @shared_reads
//       CHECK:   %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x4xf32>
//       CHECK:   memref.copy %arg0, %[[COPY]]
//       CHECK:   nd.scatter_nd %[[COPY]][%arg1], %arg2 {disposable}
//       CHECK:   nd.scatter_nd %[[COPY]][%arg1], %arg2 reduction<add> {disposable}
func.func @shared_reads(%data: tensor<8x4xf32> {bufferization.writable = false},
                        %indices: tensor<2x1xi64> {bufferization.writable = false},
                        %updates: tensor<2x4xf32> {bufferization.writable = false})
    -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<8x4xf32>) {
  %g0 = nd.gather_nd %data[%indices] : tensor<8x4xf32>, tensor<2x1xi64> -> tensor<2x4xf32>
  %g1 = nd.gather_nd %data[%indices] : tensor<8x4xf32>, tensor<2x1xi64> -> tensor<2x4xf32>
  %s0 = nd.scatter_nd %data[%indices], %updates : tensor<8x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>
  %s1 = nd.scatter_nd %s0[%indices], %updates reduction<add> : tensor<8x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>
  return %g0, %g1, %s1 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<8x4xf32>
}
