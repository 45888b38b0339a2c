// RUN: nd-opt %s -split-input-file --lower-scatter -canonicalize -cse | FileCheck %s
// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false -canonicalize -cse | FileCheck %s --check-prefix=UNCHECKED

// nd.gather and nd.tensor_scatter on buffers, each in a private function of
// its own.
// UNCHECKED-NOT: nd.{{gather|tensor_scatter}}
// UNCHECKED-NOT: out of range

//===----------------------------------------------------------------------===//
// nd.gather
//===----------------------------------------------------------------------===//

// Rows of the result (one per outer position and index value) are split
// among partitions of an scf.parallel; each row of 32 contiguous elements
// (the dims after the axis) is one vector copy into the result buffer.
// Under oob<error> each value is checked as it is read: a bad one reads
// nothing and raises the partition's flag, and a serial rescan reports the
// first bad value.
// CHECK-LABEL: func.func @gather_rows
//  CHECK-SAME:   (%[[D0:.*]]: memref<5x4x8xf32>, %[[I0:.*]]: memref<3xi64>, %[[O0:.*]]: memref<3x4x8xf32>)
//       CHECK:   call @__nd_gather(%[[D0]], %[[I0]], %[[O0]], %{{.*}}) : (memref<5x4x8xf32>, memref<3xi64>, memref<3x4x8xf32>, i64) -> ()
// CHECK-LABEL: func.func private @__nd_gather
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<5x4x8xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: memref<3xi64>
//  CHECK-SAME:   %[[OUT:[a-zA-Z0-9]+]]: memref<3x4x8xf32>
//   CHECK-DAG:   %[[DF:.*]] = memref.collapse_shape %[[DATA]] {{\[\[}}0, 1, 2]] : memref<5x4x8xf32> into memref<160xf32>
//   CHECK-DAG:   %[[RF:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1, 2]] : memref<3x4x8xf32> into memref<96xf32>
//       CHECK:   %[[FLAGS:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi1>
//       CHECK:   scf.parallel (%[[P:.*]]) = (%{{.*}}) to (%{{.*}}) step
//       CHECK:     %[[BAD:.*]] = scf.for {{.*}} iter_args
//       CHECK:       memref.load %[[IND]]
//       CHECK:       arith.cmpi uge
//       CHECK:       scf.if
//       CHECK:         %[[V:.*]] = vector.load %[[DF]][%{{.*}}] : memref<160xf32>, vector<16xf32>
//       CHECK:         vector.store %[[V]], %[[RF]][%{{.*}}] : memref<96xf32>, vector<16xf32>
//       CHECK:     memref.store %[[BAD]], %[[FLAGS]][%[[P]]] : memref<?xi1>
//       CHECK:   scf.if
//       CHECK:     nd_rt.report_at %{{.*}} "nd.gather: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)"
//       CHECK:   return
func.func @gather_rows(%data: memref<5x4x8xf32>, %indices: memref<3xi64>, %out: memref<3x4x8xf32>) {
  nd.gather %data[%indices] into %out : memref<5x4x8xf32>, memref<3xi64> into memref<3x4x8xf32>
  return
}

// -----

// oob<skip>: a row read through a value out of range is zeros (a splat
// stored as vectors); no index is reported. The result buffer's dynamic dim
// is compared with data's first.
// CHECK-LABEL: func.func private @__nd_gather
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
//   CHECK-DAG:   %[[SPLAT:.*]] = arith.constant dense<0.000000e+00> : vector<32xf16>
//       CHECK:   nd_rt.report_at %{{.*}} "nd.gather: operand 'data' dim 1 (%lld) does not match result dim 1 (%lld)"
//       CHECK:   scf.parallel
//       CHECK:     scf.if
//       CHECK:       vector.load
//       CHECK:     } else {
//       CHECK:       vector.store %[[SPLAT]]
//       CHECK:       memref.store %[[ZERO]]
//   CHECK-NOT:   nd_rt.report
func.func @gather_skip(%d: memref<?x?xf16>, %i: memref<3xi32>, %out: memref<3x?xf16>) {
  nd.gather %d[%i] into %out oob<skip> : memref<?x?xf16>, memref<3xi32> into memref<3x?xf16>
  return
}

// -----

// oob<clamp>: the index is clamped into [0, d-1] with signed min and max.
// CHECK-LABEL: func.func private @__nd_gather
//   CHECK-NOT:   nd_rt.report
//       CHECK:   scf.parallel
//   CHECK-DAG:     arith.minsi
//   CHECK-DAG:     arith.maxsi
//   CHECK-NOT:   nd_rt.report
func.func @gather_clamp(%d: memref<7x3xi32>, %i: memref<2x2xi64>, %out: memref<7x2x2xi32>) {
  nd.gather %d[%i] into %out axis(1) oob<clamp> : memref<7x3xi32>, memref<2x2xi64> into memref<7x2x2xi32>
  return
}

// -----

// Rows of one element along a static, non-empty axis move without a branch:
// a bad index reads element 0, and oob<skip> selects zero instead. The
// partition's rows are walked as (outer row, index value) pairs, the
// divisions in the outer loop only.
// CHECK-LABEL: func.func private @__nd_gather
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
//       CHECK:   scf.parallel
//       CHECK:     scf.for
//       CHECK:       scf.for
//   CHECK-NOT:         scf.if
//       CHECK:         %[[BAD:.*]] = arith.cmpi uge
//       CHECK:         %[[SAFE:.*]] = arith.select %[[BAD]], %c0, %{{.*}} : index
//       CHECK:         %[[V:.*]] = memref.load %{{.*}}[%[[SAFE]]] : memref<24xf32>
//       CHECK:         %[[OUT:.*]] = arith.select %[[BAD]], %[[ZERO]], %[[V]] : f32
//       CHECK:         memref.store %[[OUT]], %{{.*}}[%{{.*}}] : memref<20xf32>
func.func @gather_points(%d: memref<4x6xf32>, %i: memref<4x5xi64>, %out: memref<4x5xf32>) {
  nd.gather %d[%i] into %out axis(1) batch_dims(1) oob<skip> : memref<4x6xf32>, memref<4x5xi64> into memref<4x5xf32>
  return
}

//===----------------------------------------------------------------------===//
// nd.tensor_scatter
//===----------------------------------------------------------------------===//

// -----

// The write indices are checked first, in order; then an scf.parallel over
// a grid of ranges of the heads (the dim before the axis) and of the
// positions along the axis updates the cache in place: each partition views
// its part of the cache as rows (its positions times 128 contiguous
// elements) and copies the part of each row's update that lands there with
// vector stores.
// CHECK-LABEL: func.func @kv_update
//  CHECK-SAME:   (%[[CACHE:.*]]: memref<2x8x4x128xf16>, %[[UPD:.*]]: memref<2x8x1x128xf16>, %[[W:.*]]: memref<2xi64>)
//       CHECK:   call @__nd_tensor_scatter(%[[CACHE]], %[[UPD]], %[[W]], %{{.*}})
// CHECK-LABEL: func.func private @__nd_tensor_scatter
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<2x8x4x128xf16>
//       CHECK:   %[[OK:.*]] = scf.for {{.*}} iter_args
//       CHECK:     nd_rt.report_at %{{.*}} "nd.tensor_scatter: write index %lld in operand 'write_indices' is out of range for dim 2 of operand 'past_cache': the update fits from positions 0 to %lld (linear mode)"
//       CHECK:   scf.if %[[OK]]
//       CHECK:     scf.parallel
//       CHECK:       %[[PART:.*]] = memref.subview %[[DATA]][0, %{{.*}}, %{{.*}}, 0] [2, %{{.*}}, %{{.*}}, 128] [1, 1, 1, 1]
//       CHECK:       %[[ROWS:.*]] = memref.reinterpret_cast %[[PART]] to offset: [%{{.*}}], sizes: [2, %{{.*}}, %{{.*}}], strides: [4096, 512, 1]
//       CHECK:       scf.for
//       CHECK:         vector.store {{.*}}, %[[ROWS]]{{.*}} vector<32xf16>
//   CHECK-NOT:   memref.copy
func.func @kv_update(%cache: memref<2x8x4x128xf16>, %update: memref<2x8x1x128xf16>, %w: memref<2xi64>) {
  nd.tensor_scatter %cache[%w], %update : memref<2x8x4x128xf16>[memref<2xi64>], memref<2x8x1x128xf16>
  return
}

// -----

// Circular mode: the position wraps (remui by max_seq) and the part past the
// end of the row goes to its start: two copies per row. Without
// write_indices nothing is checked.
// CHECK-LABEL: func.func private @__nd_tensor_scatter
//   CHECK-NOT:   nd_rt.report
//       CHECK:   scf.parallel
//       CHECK:     arith.remui %{{.*}}, %c4 : index
//       CHECK:     scf.for
//       CHECK:       vector.store
//       CHECK:     scf.for
//       CHECK:       vector.store
func.func @circular(%cache: memref<2x4x64xf32>, %update: memref<2x3x64xf32>, %w: memref<2xi64>) {
  nd.tensor_scatter %cache[%w], %update mode<circular> oob<skip> : memref<2x4x64xf32>[memref<2xi64>], memref<2x3x64xf32>
  return
}
