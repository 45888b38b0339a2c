// RUN: nd-opt %s -split-input-file --lower-scatter -canonicalize -cse | FileCheck %s

// oob<skip|clamp>, reduction<mean> and use_init_val(false). Under skip and
// clamp no index value is an error: with bounds checking on, ops with static
// shapes get no check and no report at all.

// A skipped tuple's slice is filled with zero vectors, the others are
// copied.
// CHECK-LABEL: func.func private @__nd_gather_nd
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
//   CHECK-NOT:   nd_rt.report
//       CHECK:   scf.parallel
//       CHECK:     scf.for
//       CHECK:       %[[BAD:.*]] = arith.cmpi uge
//       CHECK:       scf.if %[[BAD]] {
//       CHECK:         scf.for
//       CHECK:           vector.store %[[ZERO]], %{{.*}} : memref<96xf32>, vector<16xf32>
//       CHECK:       } else {
//       CHECK:         vector.load
//       CHECK:         vector.store
//   CHECK-NOT:   nd_rt.report
func.func @gather_nd_skip(%data: memref<5x4x8xf32>, %indices: memref<3x1xi64>, %out: memref<3x4x8xf32>) {
  nd.gather_nd %data[%indices] into %out oob<skip> : memref<5x4x8xf32>, memref<3x1xi64> into memref<3x4x8xf32>
  return
}

// -----

// Clamping: the usual normalisation, then min with d - 1 and max with 0
// (a value below -d is still negative); the write is never skipped in a
// non-empty dim, and there is no report.
// CHECK-LABEL: func.func private @__nd_scatter_nd
//   CHECK-NOT:   nd_rt.report
//       CHECK:   arith.minsi %{{.*}}, %c7
//       CHECK:   arith.maxsi %{{.*}}, %c0
//   CHECK-NOT:   nd_rt.report
func.func @scatter_nd_clamp(%data: memref<8xf32>, %indices: memref<4x1xi64>, %updates: memref<4xf32>) {
  nd.scatter_nd %data[%indices], %updates reduction<add> oob<clamp> : memref<8xf32>, memref<4x1xi64>, memref<4xf32>
  return
}

// -----

// An integer mean keeps a count (i32: there are fewer than 2^31 updates)
// and an exact i128 sum per element of data, and divides once, rounding down.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//   CHECK-DAG:   %[[COUNTS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<24xi32>
//   CHECK-DAG:   %[[SUMS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<24xi128>
//       CHECK:   arith.extsi %{{.*}} : i32 to i128
//       CHECK:   arith.addi %{{.*}} : i128
//       CHECK:   memref.store %{{.*}}, %[[SUMS]]
//       CHECK:   %[[Q:.*]] = arith.divsi %{{.*}} : i128
//       CHECK:   arith.cmpi slt, %{{.*}} : i128
//       CHECK:   %[[FLOOR:.*]] = arith.subi %[[Q]], %{{.*}} : i128
//       CHECK:   arith.trunci %[[FLOOR]] : i128 to i32
func.func @scatter_elements_mean_i32(%data: memref<4x6xi32>, %indices: memref<4x3xi64>, %updates: memref<4x3xi32>) {
  nd.scatter_elements %data[%indices], %updates axis(1) reduction<mean> : memref<4x6xi32>, memref<4x3xi64>, memref<4x3xi32>
  return
}

// -----

// With a dynamic number of updates the counts are index values.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//       CHECK:   memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xindex>
//       CHECK:   memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi128>
func.func @scatter_elements_mean_dynamic(%data: memref<?x6xi64>, %indices: memref<?x3xi64>, %updates: memref<?x3xi64>) {
  nd.scatter_elements %data[%indices], %updates axis(1) reduction<mean> : memref<?x6xi64>, memref<?x3xi64>, memref<?x3xi64>
  return
}

// -----

// A float mean sums in place and divides by the count.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//   CHECK-NOT:   i128
//       CHECK:   arith.addf
//       CHECK:   arith.uitofp %{{.*}} : i64 to f32
//       CHECK:   arith.divf
func.func @scatter_elements_mean_f32(%data: memref<16xf32>, %indices: memref<8xi64>, %updates: memref<8xf32>) {
  nd.scatter_elements %data[%indices], %updates reduction<mean> : memref<16xf32>, memref<8xi64>, memref<8xf32>
  return
}

// -----

// use_init_val(false): the first update of an element (count 0) is taken as
// is, the others combined.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//       CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0_i8 : i8
//       CHECK:   %[[MAX:.*]] = arith.maximumf %[[CUR:.*]], %[[UPD:.*]] : f32
//       CHECK:   arith.select %[[FIRST]], %[[UPD]], %[[MAX]] : f32
//   CHECK-NOT:   arith.divf
func.func @scatter_elements_max_no_init(%data: memref<4x6xf32>, %indices: memref<4x3xi64>, %updates: memref<4x3xf32>) {
  nd.scatter_elements %data[%indices], %updates axis(1) reduction<max> use_init_val(false) : memref<4x6xf32>, memref<4x3xi64>, memref<4x3xf32>
  return
}
