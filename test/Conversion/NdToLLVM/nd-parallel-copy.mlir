// RUN: nd-opt %s --nd-parallel-copy="min-bytes=1024 chunk-bytes=256" | FileCheck %s

// Copies of at least min-bytes between identity-layout buffers become an
// scf.parallel over chunks of static shape (memcpy each) plus the last,
// overlapping window; smaller ones stay as they are.

// CHECK-LABEL: func.func @large
//  CHECK-SAME:   (%[[SRC:.*]]: memref<40x10xf32>, %[[DST:.*]]: memref<40x10xf32>)
//       CHECK:   scf.if %{{.*}} {
//   CHECK-DAG:     %[[S:.*]] = memref.collapse_shape %[[SRC]] {{\[\[}}0, 1]] : memref<40x10xf32> into memref<400xf32>
//   CHECK-DAG:     %[[D:.*]] = memref.collapse_shape %[[DST]] {{\[\[}}0, 1]] : memref<40x10xf32> into memref<400xf32>
//       CHECK:     scf.parallel (%[[C:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
//       CHECK:       %[[OFF:.*]] = arith.muli %[[C]], %{{.*}} : index
//   CHECK-DAG:       %[[FROM:.*]] = memref.subview %[[S]][%[[OFF]]] [64] [1]
//   CHECK-DAG:       %[[TO:.*]] = memref.subview %[[D]][%[[OFF]]] [64] [1]
//       CHECK:       memref.copy %[[FROM]], %[[TO]] : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, strided<[1], offset: ?>>
//       CHECK:     scf.if
//       CHECK:       memref.copy %{{.*}}, %{{.*}} : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, strided<[1], offset: ?>>
//       CHECK:   } else {
//       CHECK:     memref.copy %[[SRC]], %[[DST]] : memref<40x10xf32> to memref<40x10xf32>
func.func @large(%src: memref<40x10xf32>, %dst: memref<40x10xf32>) {
  memref.copy %src, %dst : memref<40x10xf32> to memref<40x10xf32>
  return
}

// CHECK-LABEL: func.func @small
//   CHECK-NOT:   scf.parallel
//       CHECK:   memref.copy
func.func @small(%src: memref<8xf32>, %dst: memref<8xf32>) {
  memref.copy %src, %dst : memref<8xf32> to memref<8xf32>
  return
}

// The size is known at run time only: decided then.
// CHECK-LABEL: func.func @dynamic
//       CHECK:   %[[N:.*]] = memref.dim
//       CHECK:   arith.cmpi uge, %{{.*}}, %{{.*}} : index
//       CHECK:   scf.parallel
func.func @dynamic(%src: memref<?xi8>, %dst: memref<?xi8>) {
  memref.copy %src, %dst : memref<?xi8> to memref<?xi8>
  return
}

// Strided buffers are not contiguous: left alone.
// CHECK-LABEL: func.func @strided
//   CHECK-NOT:   scf.parallel
func.func @strided(%src: memref<400xf32, strided<[2]>>, %dst: memref<400xf32>) {
  memref.copy %src, %dst : memref<400xf32, strided<[2]>> to memref<400xf32>
  return
}
