// RUN: nd-opt %s -split-input-file --lower-scatter -canonicalize -cse | FileCheck %s
// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false -canonicalize -cse | FileCheck %s --check-prefix=UNCHECKED

// nd.gather and nd.tensor_scatter, each in a private function of its own.
// UNCHECKED-NOT: nd.{{gather|tensor_scatter}}

//===----------------------------------------------------------------------===//
// nd.gather
//===----------------------------------------------------------------------===//

// Rows of the result (one per outer position and index value) are split
// among partitions of an scf.parallel; each row of 32 contiguous elements
// (the dims after the axis) is one vector copy. Under oob<error> each value
// is checked as it is read: a bad one reads nothing and raises the
// partition's flag, and a serial rescan reports the first bad value.
// CHECK-LABEL: func.func @gather_rows
//  CHECK-SAME:   (%[[D0:.*]]: tensor<5x4x8xf32>, %[[I0:.*]]: tensor<3xi64>)
//       CHECK:   %[[G:.*]] = call @__nd_gather(%[[D0]], %[[I0]], %{{.*}}) : (tensor<5x4x8xf32>, tensor<3xi64>, i64) -> tensor<3x4x8xf32>
//       CHECK:   return %[[G]]
// CHECK-LABEL: func.func private @__nd_gather
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<5x4x8xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<3xi64>
//   CHECK-DAG:   %[[DB:.*]] = bufferization.to_buffer %[[DATA]] read_only : tensor<5x4x8xf32> to memref<5x4x8xf32>
//   CHECK-DAG:   %[[DF:.*]] = memref.collapse_shape %[[DB]] {{\[\[}}0, 1, 2]] : memref<5x4x8xf32> into memref<160xf32>
//   CHECK-DAG:   %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4x8xf32>
//   CHECK-DAG:   %[[RESULT:.*]] = bufferization.to_tensor %[[ALLOC]] restrict writable : memref<3x4x8xf32> to tensor<3x4x8xf32>
//   CHECK-DAG:   %[[RF:.*]] = memref.collapse_shape %[[ALLOC]] {{\[\[}}0, 1, 2]] : memref<3x4x8xf32> into memref<96xf32>
//   CHECK-DAG:   %[[FLAGS:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi1>
//       CHECK:   scf.parallel (%[[P:.*]]) = (%{{.*}}) to (%{{.*}}) step
//       CHECK:     %[[BAD:.*]] = scf.for {{.*}} iter_args
//       CHECK:       arith.cmpi uge
//       CHECK:       scf.if
//       CHECK:         %[[V:.*]] = vector.load %[[DF]][%{{.*}}] : memref<160xf32>, vector<16xf32>
//       CHECK:         vector.store %[[V]], %[[RF]][%{{.*}}] : memref<96xf32>, vector<16xf32>
//       CHECK:     memref.store %[[BAD]], %[[FLAGS]][%[[P]]] : memref<?xi1>
//       CHECK:   scf.if
//       CHECK:     func.call @__nd_report_error_at({{.*}}) {nd.message = "nd.gather: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)"}
//       CHECK:   return %[[RESULT]]
func.func @gather_rows(%data: tensor<5x4x8xf32>, %indices: tensor<3xi64>) -> tensor<3x4x8xf32> {
  %0 = nd.gather %data[%indices] : tensor<5x4x8xf32>, tensor<3xi64> -> tensor<3x4x8xf32>
  return %0 : tensor<3x4x8xf32>
}

// -----

// oob<skip>: a row read through a value out of range is zeros (a splat
// stored as vectors); nothing is reported.
// CHECK-LABEL: func.func private @__nd_gather
//   CHECK-NOT:   call @__nd_report_error
//   CHECK-DAG:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
//   CHECK-DAG:   %[[SPLAT:.*]] = arith.constant dense<0.000000e+00> : vector<32xf16>
//       CHECK:   scf.parallel
//       CHECK:     scf.if
//       CHECK:       vector.load
//       CHECK:     } else {
//       CHECK:       vector.store %[[SPLAT]]
//       CHECK:       memref.store %[[ZERO]]
//   CHECK-NOT:   call @__nd_report_error
func.func @gather_skip(%d: tensor<?x?xf16>, %i: tensor<3xi32>) -> tensor<3x?xf16> {
  %r = nd.gather %d[%i] oob<skip> : tensor<?x?xf16>, tensor<3xi32> -> tensor<3x?xf16>
  return %r : tensor<3x?xf16>
}

// -----

// oob<clamp>: the index is clamped into [0, d-1] with signed min and max.
// CHECK-LABEL: func.func private @__nd_gather
//   CHECK-NOT:   call @__nd_report_error
//       CHECK:   scf.parallel
//   CHECK-DAG:     arith.minsi
//   CHECK-DAG:     arith.maxsi
//   CHECK-NOT:   call @__nd_report_error
func.func @gather_clamp(%d: tensor<7x3xi32>, %i: tensor<2x2xi64>) -> tensor<7x2x2xi32> {
  %r = nd.gather %d[%i] axis(1) oob<clamp> : tensor<7x3xi32>, tensor<2x2xi64> -> tensor<7x2x2xi32>
  return %r : tensor<7x2x2xi32>
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
func.func @gather_points(%d: tensor<4x6xf32>, %i: tensor<4x5xi64>) -> tensor<4x5xf32> {
  %r = nd.gather %d[%i] axis(1) batch_dims(1) oob<skip> : tensor<4x6xf32>, tensor<4x5xi64> -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}

//===----------------------------------------------------------------------===//
// nd.tensor_scatter
//===----------------------------------------------------------------------===//

// -----

// The write indices are checked first, in order; then an scf.forall over
// a grid of ranges of the heads (the dim before the axis) and of the
// positions along the axis updates the cache: each partition views its
// slice as rows (its positions times 128 contiguous elements) and copies the
// part of each row's update that lands there with vector stores.
// CHECK-LABEL: func.func @kv_update
//  CHECK-SAME:   (%[[CACHE:.*]]: tensor<2x8x4x128xf16>, %[[UPD:.*]]: tensor<2x8x1x128xf16>, %[[W:.*]]: tensor<2xi64>)
//       CHECK:   %[[PTR:.*]] = memref.extract_aligned_pointer_as_index
//       CHECK:   %[[CB:.*]] = bufferization.to_buffer %[[CACHE]] {nd.update = {{[0-9]+}} : i64} : tensor<2x8x4x128xf16> to memref<2x8x4x128xf16>
//       CHECK:   call @__nd_tensor_scatter(%[[CB]], %[[UPD]], %[[W]], %[[PTR]], %{{.*}})
// CHECK-LABEL: func.func private @__nd_tensor_scatter
//  CHECK-SAME:   %[[DBUF:[a-zA-Z0-9]+]]: memref<2x8x4x128xf16>
//       CHECK:   %[[DATA:.*]] = bufferization.to_tensor %[[DBUF]] restrict writable
//       CHECK:   %[[OK:.*]] = scf.for {{.*}} iter_args
//       CHECK:     func.call @__nd_report_error_at({{.*}}) {nd.message = "nd.tensor_scatter: write index %lld in operand 'write_indices' is out of range for dim 2 of operand 'past_cache': the update fits from positions 0 to %lld (linear mode)"}
//       CHECK:   scf.if %[[OK]]
//       CHECK:     scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%[[OUT:.*]] = %[[DATA]])
//       CHECK:       %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][0, %{{.*}}, %{{.*}}, 0] [2, %{{.*}}, %{{.*}}, 128] [1, 1, 1, 1]
//       CHECK:       %[[BUF:.*]] = bufferization.to_buffer %[[SLICE]]
//       CHECK:       memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [2, %{{.*}}, %{{.*}}], strides: [%{{.*}}, %{{.*}}, 1]
//       CHECK:       scf.for
//       CHECK:         vector.store {{.*}} vector<32xf16>
//       CHECK:       tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %{{.*}}, %{{.*}}, 0] [2, %{{.*}}, %{{.*}}, 128] [1, 1, 1, 1]
//       CHECK:   } else {
//       CHECK:     scf.yield %[[DATA]]
func.func @kv_update(%cache: tensor<2x8x4x128xf16>, %update: tensor<2x8x1x128xf16>, %w: tensor<2xi64>) -> tensor<2x8x4x128xf16> {
  %r = nd.tensor_scatter %cache[%w], %update : tensor<2x8x4x128xf16>[tensor<2xi64>], tensor<2x8x1x128xf16>
  return %r : tensor<2x8x4x128xf16>
}

// -----

// Circular mode: the position wraps (remui by max_seq) and the part past the
// end of the row goes to its start: two copies per row. Without
// write_indices nothing is checked.
// CHECK-LABEL: func.func private @__nd_tensor_scatter
//   CHECK-NOT:   call @__nd_report_error
//       CHECK:   scf.forall
//       CHECK:     arith.remui %{{.*}}, %c4 : index
//       CHECK:     scf.for
//       CHECK:       vector.store
//       CHECK:     scf.for
//       CHECK:       vector.store
func.func @circular(%cache: tensor<2x4x64xf32>, %update: tensor<2x3x64xf32>, %w: tensor<2xi64>) -> tensor<2x4x64xf32> {
  %r = nd.tensor_scatter %cache[%w], %update mode<circular> oob<skip> : tensor<2x4x64xf32>[tensor<2xi64>], tensor<2x3x64xf32>
  return %r : tensor<2x4x64xf32>
}
