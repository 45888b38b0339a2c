// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false -canonicalize -cse | FileCheck %s

// Row gathers prefetch the row two index values ahead, and a result of
// 16 MiB or more in rows of whole 64-byte vectors is written with
// non-temporal stores on 64-byte boundaries; each partition that streamed
// fences its stores before it ends.

// 17000 rows of 1 KiB (17.4 MB): streamed.
// CHECK-LABEL: func.func private @__nd_gather_nd
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//   CHECK-DAG:   %[[C16:.*]] = arith.constant 16 : index
//   CHECK-DAG:   %[[C256:.*]] = arith.constant 256 : index
//       CHECK:   %[[DATA:.*]] = memref.collapse_shape {{.*}} into memref<1048576xf32>
//       CHECK:   %[[RESULT:.*]] = memref.collapse_shape {{.*}} into memref<4352000xf32>
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
//       CHECK:     func.call @__nd_store_fence() : () -> ()
//       CHECK:     scf.reduce
func.func @large_rows(%data: tensor<4096x256xf32>, %indices: tensor<17000x1xi64>) -> tensor<17000x256xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<4096x256xf32>, tensor<17000x1xi64> -> tensor<17000x256xf32>
  return %0 : tensor<17000x256xf32>
}

// -----

// Below 16 MiB: ordinary stores, no fence.
// CHECK-LABEL: func.func private @__nd_gather_nd
//       CHECK:   memref.prefetch
//   CHECK-NOT:   nontemporal
//   CHECK-NOT:   __nd_store_fence
//       CHECK:   return
func.func @small_rows(%data: tensor<4096x256xf32>, %indices: tensor<1000x1xi64>) -> tensor<1000x256xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<4096x256xf32>, tensor<1000x1xi64> -> tensor<1000x256xf32>
  return %0 : tensor<1000x256xf32>
}

// -----

// Rows of 1000 bytes do not all start on a 64-byte boundary: not streamed.
// CHECK-LABEL: func.func private @__nd_gather_nd
//   CHECK-NOT:   nontemporal
//   CHECK-NOT:   __nd_store_fence
//       CHECK:   return
func.func @unaligned_rows(%data: tensor<4096x250xf32>, %indices: tensor<17000x1xi64>) -> tensor<17000x250xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<4096x250xf32>, tensor<17000x1xi64> -> tensor<17000x250xf32>
  return %0 : tensor<17000x250xf32>
}

// -----

// Point gathers (slices of one element) neither prefetch nor stream.
// CHECK-LABEL: func.func private @__nd_gather_nd
//   CHECK-NOT:   memref.prefetch
//   CHECK-NOT:   nontemporal
//       CHECK:   return
func.func @points(%data: tensor<4096x4096xf32>, %indices: tensor<5000000x2xi64>) -> tensor<5000000xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<4096x4096xf32>, tensor<5000000x2xi64> -> tensor<5000000xf32>
  return %0 : tensor<5000000xf32>
}

// -----

// Dynamic sizes: the choice is made at run time, on the result's size and
// the row's width.
// CHECK-LABEL: func.func private @__nd_gather
//   CHECK-DAG:   %[[MIN:.*]] = arith.constant 4194304 : index
//       CHECK:   %[[LARGE:.*]] = arith.cmpi uge, %{{.*}}, %[[MIN]] : index
//       CHECK:   %[[REM:.*]] = arith.remui %{{.*}}, %{{.*}} : index
//       CHECK:   %[[WHOLE:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
//       CHECK:   %[[STREAM:.*]] = arith.andi %[[LARGE]], %[[WHOLE]] : i1
//       CHECK:   scf.parallel
//       CHECK:         memref.prefetch
//       CHECK:         scf.if %[[STREAM]] {
//       CHECK:           vector.store {{.*}} {alignment = 64 : i64, nontemporal = true}
//       CHECK:         } else {
//       CHECK:           vector.store
//   CHECK-NOT:           nontemporal
//       CHECK:         }
//       CHECK:     scf.if %[[STREAM]] {
//  CHECK-NEXT:       func.call @__nd_store_fence() : () -> ()
func.func @dynamic(%data: tensor<?x?xf32>, %ids: tensor<?xi64>) -> tensor<?x?xf32> {
  %0 = nd.gather %data[%ids] : tensor<?x?xf32>, tensor<?xi64> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
