// RUN: nd-opt %s -split-input-file --lower-scatter -canonicalize -cse | FileCheck %s

// oob<skip|clamp>, reduction<mean> and use_init_val(false). Under skip and
// clamp no index value is an error: with bounds checking on, ops with static
// shapes get no check and no report at all.

// A skipped tuple's slice is filled with zero vectors, the others are
// copied.
// CHECK-LABEL: func.func private @__nd_gather_nd
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<16xf32>
//   CHECK-NOT:   call @__nd_report_error
//       CHECK:   scf.parallel
//       CHECK:     scf.for
//       CHECK:       %[[BAD:.*]] = arith.cmpi uge
//       CHECK:       scf.if %[[BAD]] {
//       CHECK:         scf.for
//       CHECK:           vector.store %[[ZERO]], %{{.*}} : memref<96xf32>, vector<16xf32>
//       CHECK:       } else {
//       CHECK:         vector.load
//       CHECK:         vector.store
//   CHECK-NOT:   call @__nd_report_error
func.func @gather_nd_skip(%data: tensor<5x4x8xf32>, %indices: tensor<3x1xi64>) -> tensor<3x4x8xf32> {
  %0 = nd.gather_nd %data[%indices] oob<skip> : tensor<5x4x8xf32>, tensor<3x1xi64> -> tensor<3x4x8xf32>
  return %0 : tensor<3x4x8xf32>
}

// -----

// Clamping: the usual normalisation, then min with d - 1 and max with 0
// (a value below -d is still negative); the write is never skipped in a
// non-empty dim, and there is no report.
// CHECK-LABEL: func.func private @__nd_scatter_nd
//   CHECK-NOT:   call @__nd_report_error
//       CHECK:   arith.minsi %{{.*}}, %c7
//       CHECK:   arith.maxsi %{{.*}}, %c0
//   CHECK-NOT:   call @__nd_report_error
func.func @scatter_nd_clamp(%data: tensor<8xf32>, %indices: tensor<4x1xi64>, %updates: tensor<4xf32>) -> tensor<8xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add> oob<clamp> : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  return %0 : tensor<8xf32>
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
func.func @scatter_elements_mean_i32(%data: tensor<4x6xi32>, %indices: tensor<4x3xi64>, %updates: tensor<4x3xi32>) -> tensor<4x6xi32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<mean> : tensor<4x6xi32>, tensor<4x3xi64>, tensor<4x3xi32>
  return %0 : tensor<4x6xi32>
}

// -----

// With a dynamic number of updates the counts are index values.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//       CHECK:   memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xindex>
//       CHECK:   memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi128>
func.func @scatter_elements_mean_dynamic(%data: tensor<?x6xi64>, %indices: tensor<?x3xi64>, %updates: tensor<?x3xi64>) -> tensor<?x6xi64> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<mean> : tensor<?x6xi64>, tensor<?x3xi64>, tensor<?x3xi64>
  return %0 : tensor<?x6xi64>
}

// -----

// A float mean sums in place and divides by the count.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//   CHECK-NOT:   i128
//       CHECK:   arith.addf
//       CHECK:   arith.uitofp %{{.*}} : i64 to f32
//       CHECK:   arith.divf
func.func @scatter_elements_mean_f32(%data: tensor<16xf32>, %indices: tensor<8xi64>, %updates: tensor<8xf32>) -> tensor<16xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates reduction<mean> : tensor<16xf32>, tensor<8xi64>, tensor<8xf32>
  return %0 : tensor<16xf32>
}

// -----

// use_init_val(false): the first update of an element (count 0) is taken as
// is, the others combined.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//       CHECK:   %[[FIRST:.*]] = arith.cmpi eq, %{{.*}}, %c0_i8 : i8
//       CHECK:   %[[MAX:.*]] = arith.maximumf %[[CUR:.*]], %[[UPD:.*]] : f32
//       CHECK:   arith.select %[[FIRST]], %[[UPD]], %[[MAX]] : f32
//   CHECK-NOT:   arith.divf
func.func @scatter_elements_max_no_init(%data: tensor<4x6xf32>, %indices: tensor<4x3xi64>, %updates: tensor<4x3xf32>) -> tensor<4x6xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<max> use_init_val(false) : tensor<4x6xf32>, tensor<4x3xi64>, tensor<4x3xf32>
  return %0 : tensor<4x6xf32>
}
