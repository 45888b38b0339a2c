// RUN: nd-opt %s -split-input-file --nd-result-destinations | FileCheck %s

// The entry takes a destination per result after its arguments. A result
// that is a fresh allocation of the entry is computed into its destination
// where that is not null and has the allocation's sizes, into the
// allocation otherwise; the entry is marked with the number of
// destinations.

// CHECK-LABEL: func.func @main(
//  CHECK-SAME:     %[[DATA:.*]]: memref<?x?xf32>, %[[IDS:.*]]: memref<?xi64>,
//  CHECK-SAME:     %[[DEST:.*]]: memref<?x?xf32>) -> memref<?x?xf32>
//  CHECK-SAME:     attributes {nd.result_destinations = 1 : i64}
//   CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:   %[[N:.*]] = memref.dim %[[IDS]], %[[C0]]
//   CHECK-DAG:   %[[M:.*]] = memref.dim %[[DATA]], %[[C1:.*]] :
//       CHECK:   %[[P:.*]] = memref.extract_aligned_pointer_as_index %[[DEST]]
//       CHECK:   %[[GIVEN:.*]] = arith.cmpi ne, %[[P]], %[[Z:.*]] : index
//       CHECK:   %[[D0:.*]] = memref.dim %[[DEST]], %{{.*}}
//       CHECK:   %[[S0:.*]] = arith.cmpi eq, %[[D0]], %[[N]] : index
//       CHECK:   %[[F0:.*]] = arith.andi %[[GIVEN]], %[[S0]] : i1
//       CHECK:   %[[D1:.*]] = memref.dim %[[DEST]], %{{.*}}
//       CHECK:   %[[S1:.*]] = arith.cmpi eq, %[[D1]], %[[M]] : index
//       CHECK:   %[[FITS:.*]] = arith.andi %[[F0]], %[[S1]] : i1
//       CHECK:   %[[BUF:.*]] = scf.if %[[FITS]] -> (memref<?x?xf32>) {
//       CHECK:     scf.yield %[[DEST]] : memref<?x?xf32>
//       CHECK:   } else {
//       CHECK:     %[[ALLOC:.*]] = memref.alloc(%[[N]], %[[M]]) {alignment = 64 : i64} : memref<?x?xf32>
//       CHECK:     scf.yield %[[ALLOC]] : memref<?x?xf32>
//       CHECK:   }
//       CHECK:   call @fill(%[[DATA]], %[[IDS]], %[[BUF]])
//       CHECK:   return %[[BUF]] : memref<?x?xf32>
func.func private @fill(memref<?x?xf32>, memref<?xi64>, memref<?x?xf32>)
func.func @main(%data: memref<?x?xf32>, %ids: memref<?xi64>)
    -> memref<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %ids, %c0 : memref<?xi64>
  %m = memref.dim %data, %c1 : memref<?x?xf32>
  %alloc = memref.alloc(%n, %m) {alignment = 64 : i64} : memref<?x?xf32>
  call @fill(%data, %ids, %alloc) : (memref<?x?xf32>, memref<?xi64>, memref<?x?xf32>) -> ()
  return %alloc : memref<?x?xf32>
}

// -----

// Static sizes are compared with constants. A donated argument returned in
// place, a buffer returned twice and a view keep their buffers; every
// result still gets its destination.

// CHECK-LABEL: func.func @main(
//  CHECK-SAME:     %[[CACHE:.*]]: memref<4x3xf32>, %[[D0:.*]]: memref<4x3xf32>,
//  CHECK-SAME:     %[[D1:.*]]: memref<2x3xf32>, %[[D2:.*]]: memref<2x3xf32>,
//  CHECK-SAME:     %[[D3:.*]]: memref<6xf32>, %[[D4:.*]]: memref<2x2xf32>)
//  CHECK-SAME:     attributes {nd.result_destinations = 5 : i64}
//   CHECK-NOT:   memref.extract_aligned_pointer_as_index %[[D0]]
//   CHECK-NOT:   memref.extract_aligned_pointer_as_index %[[D1]]
//   CHECK-NOT:   memref.extract_aligned_pointer_as_index %[[D2]]
//   CHECK-NOT:   memref.extract_aligned_pointer_as_index %[[D3]]
//       CHECK:   memref.extract_aligned_pointer_as_index %[[D4]]
//   CHECK-DAG:   %[[C2:.*]] = arith.constant 2 : index
//       CHECK:   memref.dim %[[D4]]
//       CHECK:   arith.cmpi eq, %{{.*}}, %[[C2]] : index
//       CHECK:   scf.if
//       CHECK:     scf.yield %[[D4]] : memref<2x2xf32>
//       CHECK:     memref.alloc() : memref<2x2xf32>
func.func private @fill2(memref<2x3xf32>)
func.func private @fill4(memref<2x2xf32>)
func.func @main(%cache: memref<4x3xf32>)
    -> (memref<4x3xf32>, memref<2x3xf32>, memref<2x3xf32>, memref<6xf32>,
        memref<2x2xf32>) {
  %twice = memref.alloc() : memref<2x3xf32>
  call @fill2(%twice) : (memref<2x3xf32>) -> ()
  %flat = memref.collapse_shape %twice [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  %own = memref.alloc() : memref<2x2xf32>
  call @fill4(%own) : (memref<2x2xf32>) -> ()
  return %cache, %twice, %twice, %flat, %own
      : memref<4x3xf32>, memref<2x3xf32>, memref<2x3xf32>, memref<6xf32>,
        memref<2x2xf32>
}

// -----

// An entry that the module calls keeps its signature: its caller passes no
// destinations.

// CHECK-LABEL: func.func @main(%{{.*}}: memref<2xf32>) -> memref<2xf32> {
//   CHECK-NOT:   nd.result_destinations
//   CHECK-NOT:   scf.if
func.func @main(%a: memref<2xf32>) -> memref<2xf32> {
  %alloc = memref.alloc() : memref<2xf32>
  memref.copy %a, %alloc : memref<2xf32> to memref<2xf32>
  return %alloc : memref<2xf32>
}
func.func @caller(%a: memref<2xf32>) -> memref<2xf32> {
  %r = call @main(%a) : (memref<2xf32>) -> memref<2xf32>
  return %r : memref<2xf32>
}
