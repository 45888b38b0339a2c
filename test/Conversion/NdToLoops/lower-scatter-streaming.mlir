// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false -canonicalize -cse | FileCheck %s

// Row gathers prefetch the row two index values ahead, and a result of
// 16 MiB or more in rows of whole 64-byte vectors is written with
// non-temporal stores on 64-byte boundaries when the result buffer starts on
// one (a buffer from outside, a view or an argument, may not: that is
// checked at run time); each partition that streamed fences its stores
// before it ends.

// 17000 rows of 1 KiB (17.4 MB): streamed.
// CHECK-LABEL: func.func private @__nd_gather_nd
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C256:.*]] = arith.constant 256 : index
//       CHECK:   %[[DATA:.*]] = memref.collapse_shape {{.*}} into memref<1048576xf32>
//       CHECK:   %[[RESULT:.*]] = memref.collapse_shape {{.*}} into memref<4352000xf32>
//       CHECK:   %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[RESULT]]
//       CHECK:   %[[MISS:.*]] = arith.remui %[[BASE]], %c64 : index
//       CHECK:   %[[STREAM:.*]] = arith.cmpi eq, %[[MISS]], %c0 : index
//       CHECK:   scf.parallel
//       CHECK:     scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
//       CHECK:       %[[AHEAD:.*]] = arith.addi %[[T]], %[[C2]] : index
//       CHECK:       %[[NEXT:.*]] = arith.minui %[[AHEAD]], %{{.*}} : index
//       CHECK:       memref.load %{{.*}}[%[[NEXT]]] : memref<17000xi64>
//       CHECK:       scf.for %{{.*}} = %{{.*}} to %[[C256]] step %[[C16]] {
//       CHECK:         memref.prefetch %[[DATA]][%{{.*}}], read, locality<3>, data
//       CHECK:       scf.for
//       CHECK:         %[[V:.*]] = vector.load %[[DATA]]
//       CHECK:         vector.store %[[V]], %[[RESULT]][%{{.*}}] {alignment = 64 : i64, nontemporal = true}
//       CHECK:     scf.if %[[STREAM]] {
//  CHECK-NEXT:       nd_rt.store_fence
//       CHECK:     scf.reduce
func.func @large_rows(%data: memref<4096x256xf32>, %indices: memref<17000x1xi64>, %out: memref<17000x256xf32>) {
  nd.gather_nd %data[%indices] into %out : memref<4096x256xf32>, memref<17000x1xi64> into memref<17000x256xf32>
  return
}

// -----

// Below 16 MiB: ordinary stores, no fence.
// CHECK-LABEL: func.func private @__nd_gather_nd
//       CHECK:   memref.prefetch
//   CHECK-NOT:   nontemporal
//   CHECK-NOT:   nd_rt.store_fence
//       CHECK:   return
func.func @small_rows(%data: memref<4096x256xf32>, %indices: memref<1000x1xi64>, %out: memref<1000x256xf32>) {
  nd.gather_nd %data[%indices] into %out : memref<4096x256xf32>, memref<1000x1xi64> into memref<1000x256xf32>
  return
}

// -----

// Rows of 1000 bytes do not all start on a 64-byte boundary: not streamed.
// CHECK-LABEL: func.func private @__nd_gather_nd
//   CHECK-NOT:   nontemporal
//   CHECK-NOT:   nd_rt.store_fence
//       CHECK:   return
func.func @unaligned_rows(%data: memref<4096x250xf32>, %indices: memref<17000x1xi64>, %out: memref<17000x250xf32>) {
  nd.gather_nd %data[%indices] into %out : memref<4096x250xf32>, memref<17000x1xi64> into memref<17000x250xf32>
  return
}

// -----

// Point gathers (slices of one element) neither prefetch nor stream.
// CHECK-LABEL: func.func private @__nd_gather_nd
//   CHECK-NOT:   memref.prefetch
//   CHECK-NOT:   nontemporal
//       CHECK:   return
func.func @points(%data: memref<4096x4096xf32>, %indices: memref<5000000x2xi64>, %out: memref<5000000xf32>) {
  nd.gather_nd %data[%indices] into %out : memref<4096x4096xf32>, memref<5000000x2xi64> into memref<5000000xf32>
  return
}

// -----

// Dynamic sizes: the choice is made at run time, on the result's size, the
// row's width and the result buffer's alignment.
// CHECK-LABEL: func.func private @__nd_gather
//   CHECK-DAG:   %[[MIN:.*]] = arith.constant 4194304 : index
//       CHECK:   %[[LARGE:.*]] = arith.cmpi uge, %{{.*}}, %[[MIN]] : index
//       CHECK:   %[[REM:.*]] = arith.remui %{{.*}}, %{{.*}} : index
//       CHECK:   %[[WHOLE:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
//       CHECK:   %[[BASE:.*]] = memref.extract_aligned_pointer_as_index
//       CHECK:   %[[MISS:.*]] = arith.remui %[[BASE]], %c64 : index
//       CHECK:   %[[ALIGNED:.*]] = arith.cmpi eq, %[[MISS]], %c0 : index
//       CHECK:   %[[SIZED:.*]] = arith.andi %[[LARGE]], %[[WHOLE]] : i1
//       CHECK:   %[[STREAM:.*]] = arith.andi %[[SIZED]], %[[ALIGNED]] : i1
//       CHECK:   scf.parallel
//       CHECK:         memref.prefetch
//       CHECK:         scf.if %[[STREAM]] {
//       CHECK:           vector.store {{.*}} {alignment = 64 : i64, nontemporal = true}
//       CHECK:         } else {
//       CHECK:           vector.store
//   CHECK-NOT:           nontemporal
//       CHECK:         }
//       CHECK:     scf.if %[[STREAM]] {
//  CHECK-NEXT:       nd_rt.store_fence
func.func @dynamic(%data: memref<?x?xf32>, %ids: memref<?xi64>, %out: memref<?x?xf32>) {
  nd.gather %data[%ids] into %out : memref<?x?xf32>, memref<?xi64> into memref<?x?xf32>
  return
}
