// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false -canonicalize -cse | FileCheck %s
// RUN: nd-opt %s -split-input-file --lower-scatter -canonicalize -cse | FileCheck %s --check-prefix=CHECKED
// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false | FileCheck %s --check-prefix=UNCHECKED

// The lowering takes the ops on buffers (bufferization gives them that form;
// see test/Dialect/Nd/bufferize.mlir). Each op becomes a call of a private
// function of its own, @__nd_<op>, which holds its lowering (one function per
// op keeps the functions later passes work on small) and writes the op's
// destination buffer: `into` for a gather, data for a scatter. Without
// checks nothing of the error path is emitted, and no nd op is left.
// UNCHECKED-NOT: nd_rt.report
// UNCHECKED-NOT: nd_rt.site
// UNCHECKED-NOT: llvm.
// UNCHECKED-NOT: nd.{{scatter|gather}}
// UNCHECKED-NOT: bufferization.

//===----------------------------------------------------------------------===//
// gather_nd
//===----------------------------------------------------------------------===//

// The operands are read as flat buffers and the result buffer is filled by
// a parallel loop over partitions of the index tuples; each tuple's slice
// (a row of 32 contiguous elements) moves as vectors, the row two tuples
// ahead prefetched.
// CHECK-LABEL: func.func @gather_nd_rows
//  CHECK-SAME:   (%[[D0:.*]]: memref<5x4x8xf32>, %[[I0:.*]]: memref<3x1xi64>, %[[O0:.*]]: memref<3x4x8xf32>)
//       CHECK:   call @__nd_gather_nd(%[[D0]], %[[I0]], %[[O0]]) : (memref<5x4x8xf32>, memref<3x1xi64>, memref<3x4x8xf32>) -> ()
//       CHECK:   return
// CHECK-LABEL: func.func private @__nd_gather_nd
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<5x4x8xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: memref<3x1xi64>
//  CHECK-SAME:   %[[OUT:[a-zA-Z0-9]+]]: memref<3x4x8xf32>)
//   CHECK-NOT:   memref.alloc
//   CHECK-DAG:   %[[DF:.*]] = memref.collapse_shape %[[DATA]] {{\[\[}}0, 1, 2]] : memref<5x4x8xf32> into memref<160xf32>
//   CHECK-DAG:   %[[IF:.*]] = memref.collapse_shape %[[IND]] {{\[\[}}0, 1]] : memref<3x1xi64> into memref<3xi64>
//   CHECK-DAG:   %[[RF:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1, 2]] : memref<3x4x8xf32> into memref<96xf32>
//   CHECK-DAG:   %[[THREADS:.*]] = nd_rt.max_threads
//       CHECK:   scf.parallel (%[[P:.*]]) = (%{{.*}}) to (%{{.*}}) step
//       CHECK:     scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
//       CHECK:       %[[RAW:.*]] = memref.load %[[IF]][%[[T]]] : memref<3xi64>
//       CHECK:       arith.index_cast %[[RAW]] : i64 to index
//       CHECK:       memref.prefetch %[[DF]]
//       CHECK:       scf.for
//       CHECK:         %[[V:.*]] = vector.load %[[DF]][%{{.*}}] : memref<160xf32>, vector<16xf32>
//       CHECK:         vector.store %[[V]], %[[RF]][%{{.*}}] : memref<96xf32>, vector<16xf32>
//       CHECK:   return
func.func @gather_nd_rows(%data: memref<5x4x8xf32>, %indices: memref<3x1xi64>, %out: memref<3x4x8xf32>) {
  nd.gather_nd %data[%indices] into %out : memref<5x4x8xf32>, memref<3x1xi64> into memref<3x4x8xf32>
  return
}

// The tuples are checked as they are read: a bad one is clamped to a valid
// row, counted in the partition's flag, and reported after the loop by a
// serial rescan that names the first bad component.
// The message names the op; the site, the caller's argument, names where
// it is (see convert-nd-runtime-to-llvm).
// CHECKED-LABEL: func.func @gather_nd_rows
//       CHECKED:   %[[WHERE:.*]] = nd_rt.site "{{.*}}lower-scatter.mlir:{{[0-9]+}}:3"
//       CHECKED:   call @__nd_gather_nd(%{{.*}}, %{{.*}}, %{{.*}}, %[[WHERE]])
// CHECKED-LABEL: func.func private @__nd_gather_nd
//  CHECKED-SAME:   %[[SITE:[a-zA-Z0-9]+]]: i64)
//       CHECKED:   scf.parallel
//       CHECKED:     scf.for {{.*}} iter_args
//       CHECKED:       arith.cmpi uge
//       CHECKED:       arith.select
//       CHECKED:       vector.load
//       CHECKED:     memref.store %{{.*}} : memref<?xi1>
//       CHECKED:   scf.for {{.*}} iter_args
//       CHECKED:     memref.load %{{.*}} : memref<?xi1>
//       CHECKED:   scf.if
//       CHECKED:     scf.for
//       CHECKED:       nd_rt.report_at %[[SITE]] "nd.gather_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)" (%{{.*}}, %{{.*}})

// -----

// Batch dims index data directly; the dynamic batch dims of data, indices
// and the result buffer are compared at run time before anything is read.
// CHECK-LABEL: func.func private @__nd_gather_nd
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<?x4x5x6xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: memref<?x3x2xi32>
//  CHECK-SAME:   %[[OUT:[a-zA-Z0-9]+]]: memref<?x3x6xf32>
//   CHECK-NOT:   memref.alloc
//       CHECK:   scf.parallel
//       CHECK:     arith.index_cast %{{.*}} : i32 to index
//       CHECK:     arith.index_cast %{{.*}} : i32 to index
//       CHECK:     arith.divui
func.func @gather_nd_batch_dynamic(%data: memref<?x4x5x6xf32>, %indices: memref<?x3x2xi32>, %out: memref<?x3x6xf32>) {
  nd.gather_nd %data[%indices] into %out batch_dims(1) : memref<?x4x5x6xf32>, memref<?x3x2xi32> into memref<?x3x6xf32>
  return
}

// CHECKED-LABEL: func.func private @__nd_gather_nd
//       CHECKED:   %[[IB:.*]] = memref.dim %arg1, %{{.*}} : memref<?x3x2xi32>
//       CHECKED:   %[[DB:.*]] = memref.dim %arg0, %{{.*}} : memref<?x4x5x6xf32>
//       CHECKED:   %[[NE:.*]] = arith.cmpi ne, %[[IB]], %[[DB]] : index
//       CHECKED:   scf.if %[[NE]] {
//       CHECKED:     nd_rt.report_at %{{.*}} "nd.gather_nd: operand 'indices' dim 0 (%lld) does not match operand 'data' dim 0 (%lld)"
//       CHECKED:   %[[RB:.*]] = memref.dim %arg2, %{{.*}} : memref<?x3x6xf32>
//       CHECKED:   arith.cmpi ne, %[[IB]], %[[RB]] : index
//       CHECKED:     nd_rt.report_at %{{.*}} "nd.gather_nd: operand 'indices' dim 0 (%lld) does not match result dim 0 (%lld)"
//       CHECKED:   scf.if
//       CHECKED:     scf.parallel
//       CHECKED:   nd_rt.report_at %{{.*}} "nd.gather_nd: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)"
//       CHECKED:   nd_rt.report_at %{{.*}} "nd.gather_nd: index %lld in operand 'indices' is out of range for dim 2 of operand 'data' (size %lld)"

// -----

//===----------------------------------------------------------------------===//
// gather_elements
//===----------------------------------------------------------------------===//

// Partitions of the positions of indices; the axis coordinate of each is the
// normalised index. Whole vectors of positions are gathered at once, the
// rest one by one.
// CHECK-LABEL: func.func private @__nd_gather_elements
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<3x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: memref<2x2xindex>
//  CHECK-SAME:   %[[OUT:[a-zA-Z0-9]+]]: memref<2x2xf32>
//   CHECK-DAG:   %[[SIZE:.*]] = memref.dim %[[DATA]], %{{.*}} : memref<3x?xf32>
//   CHECK-DAG:   %[[RF:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1]] : memref<2x2xf32> into memref<4xf32>
//       CHECK:   scf.parallel
//       CHECK:     scf.for
//       CHECK:       vector.gather
//       CHECK:       vector.store %{{.*}}, %[[RF]]
//       CHECK:     scf.for
//       CHECK:       %[[I:.*]] = memref.load %{{.*}} : memref<4xindex>
//       CHECK:       %[[NEG:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : index
//       CHECK:       %[[WRAP:.*]] = arith.addi %[[I]], %[[SIZE]] : index
//       CHECK:       arith.select %[[NEG]], %[[WRAP]], %[[I]] : index
//       CHECK:       %[[V:.*]] = memref.load %{{.*}} : memref<?xf32>
//       CHECK:       memref.store %[[V]], %[[RF]][%{{.*}}] : memref<4xf32>
func.func @gather_elements(%data: memref<3x?xf32>, %indices: memref<2x2xindex>, %out: memref<2x2xf32>) {
  nd.gather_elements %data[%indices] into %out axis(1) : memref<3x?xf32>, memref<2x2xindex> into memref<2x2xf32>
  return
}

// The off-axis dim 0 is static on both sides: no run-time shape check.
// CHECKED-LABEL: func.func private @__nd_gather_elements
//   CHECKED-NOT:   arith.cmpi ugt
//       CHECKED:   nd_rt.report_at %{{.*}} "nd.gather_elements: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)"

// -----

//===----------------------------------------------------------------------===//
// scatter_nd
//===----------------------------------------------------------------------===//

// Point updates: the destination, flattened, is cut into blocks of rows,
// contiguous ranges of which are owned by one partition each. With several
// blocks, a parallel counting pass counts entries per (chunk, block), a
// prefix sum gives bucket offsets and a parallel pass fills the buckets in
// order with each entry's row in its block and its update (rows of one
// element carry their value); then each owner applies its blocks' buckets
// to its own view of data. With one block, its owner applies every entry.
// CHECK-LABEL: func.func @scatter_nd_points
//  CHECK-SAME:   (%[[D0:.*]]: memref<4x?xf32>, %[[I0:.*]]: memref<3x2xi64>, %[[U0:.*]]: memref<3xf32>)
//       CHECK:   call @__nd_scatter_nd(%[[D0]], %[[I0]], %[[U0]]) : (memref<4x?xf32>, memref<3x2xi64>, memref<3xf32>) -> ()
//       CHECK:   return
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<4x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: memref<3x2xi64>
//  CHECK-SAME:   %[[UPD:[a-zA-Z0-9]+]]: memref<3xf32>)
//       CHECK:   %[[FLAT:.*]] = memref.collapse_shape %[[DATA]] {{\[\[}}0, 1]] : memref<4x?xf32> into memref<?xf32>
//       CHECK:   math.ctlz
//       CHECK:   %[[BUCKETED:.*]] = arith.cmpi ugt
//       CHECK:   %[[COUNTS:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xindex>
//       CHECK:   %[[STARTS:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xindex>
//       CHECK:   %[[INBLOCK:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi32>
//       CHECK:   %[[VALUES:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
//       CHECK:   scf.if %[[BUCKETED]]
//       CHECK:     scf.parallel
//       CHECK:       memref.store %{{.*}}, %[[COUNTS]]
//       CHECK:       scf.for
//       CHECK:         memref.load %[[COUNTS]]
//       CHECK:         memref.store %{{.*}}, %[[COUNTS]]
//       CHECK:     scf.for
//       CHECK:       memref.store %{{.*}}, %[[STARTS]]
//       CHECK:     scf.parallel
//       CHECK:       scf.for
//       CHECK:         %[[SLOT:.*]] = memref.load %[[COUNTS]]
//       CHECK:         memref.store %{{.*}}, %[[INBLOCK]][%[[SLOT]]]
//       CHECK:         %[[UPDATE:.*]] = memref.load %[[UPD]]
//       CHECK:         memref.store %[[UPDATE]], %[[VALUES]][%[[SLOT]]]
//       CHECK:   scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%{{.*}}) step
//       CHECK:     %[[SLICE:.*]] = memref.subview %[[FLAT]][%{{.*}}] [%{{.*}}] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
//       CHECK:     scf.if %[[BUCKETED]] {
//       CHECK:       scf.for
//       CHECK:         memref.load %[[STARTS]]
//       CHECK:         memref.load %[[STARTS]]
//       CHECK:         scf.for
//       CHECK:           memref.load %[[INBLOCK]]
//       CHECK:           %[[VALUE:.*]] = memref.load %[[VALUES]]
//       CHECK:           memref.store %[[VALUE]], %[[SLICE]]
//       CHECK:     } else {
//       CHECK:       scf.for
//       CHECK:         memref.store %{{.*}}, %[[SLICE]]
//   CHECK-NOT:   memref.copy
func.func @scatter_nd_points(%data: memref<4x?xf32>, %indices: memref<3x2xi64>, %updates: memref<3xf32>) {
  nd.scatter_nd %data[%indices], %updates : memref<4x?xf32>, memref<3x2xi64>, memref<3xf32>
  return
}

// With checks, the counting pass checks too: each component contributes
// `index + size` to an unsigned max per chunk (in range iff below 2 * size).
// Nothing is written unless every chunk passed (a single owner checks its
// entries before it writes, since data is updated in place); the first bad
// tuple in row-major order is reported once.
// CHECKED-LABEL: func.func private @__nd_scatter_nd
//       CHECKED:   %[[PASSED:.*]] = scf.if %{{.*}} -> (i1) {
//       CHECKED:     scf.parallel
//       CHECKED:       scf.for {{.*}} iter_args
//       CHECKED:         arith.maxui
//       CHECKED:         arith.maxui
//       CHECKED:       arith.cmpi uge
//       CHECKED:       arith.cmpi uge
//       CHECKED:   %[[BAD:.*]] = scf.if %[[PASSED]] -> (i1) {
//       CHECKED:     scf.parallel
//       CHECKED:     scf.parallel
//       CHECKED:       memref.subview
//       CHECKED:   } else {
//       CHECKED:     scf.yield %true
//       CHECKED:   scf.if %[[BAD]] {
//       CHECKED:     nd_rt.report_at %{{.*}} "nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)"
//       CHECKED:     nd_rt.report_at %{{.*}} "nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)"

// -----

// A destination that is `disposable` (a fresh copy: bufferization marks it)
// may be left partly written when an index is bad, so its owner takes the
// entries in blocks of 512: it checks a block (one unsigned max), applies it
// unchecked if none is bad, and stops at the first bad block. Any other
// destination is updated in place and must stay as it was, so the owner
// first checks all its entries and writes nothing if one is bad.
// CHECKED-LABEL: func.func @in_place_and_disposable
//       CHECKED:   call @__nd_scatter_nd(
//       CHECKED:   call @__nd_scatter_nd_0(
// CHECKED-LABEL: func.func private @__nd_scatter_nd(
//  CHECKED-SAME:   %{{.*}}: memref<8x4xf32>, %[[I:[a-zA-Z0-9]+]]: memref<?x1xi64>
//       CHECKED:   %[[N:.*]] = memref.dim %[[I]], %c0
//       CHECKED:   memref.subview
//       CHECKED:   } else {
//       CHECKED:     scf.for %{{.*}} = %c0 to %[[N]] step %c1 iter_args
//       CHECKED:       arith.maxui
//       CHECKED:     %[[OK:.*]] = arith.cmpi ult
//       CHECKED:     scf.if %[[OK]] {
//       CHECKED:       scf.for %{{.*}} = %c0 to %[[N]] step %c1 {
//   CHECKED-NOT:         arith.maxui
//       CHECKED:         memref.store %{{.*}}, %subview
// CHECKED-LABEL: func.func private @__nd_scatter_nd_0(
//       CHECKED:   memref.subview
//       CHECKED:   } else {
//       CHECKED:     scf.for %[[FIRST:.*]] = %c0 to %[[N:.*]] step %c512 iter_args(%[[FAILED:.*]] = %false) -> (i1) {
//       CHECKED:       scf.if %[[FAILED]] -> (i1) {
//       CHECKED:       } else {
//       CHECKED:         %[[LAST:.*]] = arith.minui %{{.*}}, %[[N]]
//       CHECKED:         scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step %c1 iter_args
//       CHECKED:           arith.maxui
//       CHECKED:         %[[OK:.*]] = arith.cmpi ult
//       CHECKED:         scf.if %[[OK]] {
//       CHECKED:           scf.for %{{.*}} = %[[FIRST]] to %[[LAST]] step %c1 {
//   CHECKED-NOT:             arith.maxui
//       CHECKED:             memref.store %{{.*}}, %subview
func.func @in_place_and_disposable(%d: memref<8x4xf32>, %i: memref<?x1xi64>, %u: memref<?x4xf32>, %copy: memref<8x4xf32>) {
  nd.scatter_nd %d[%i], %u : memref<8x4xf32>, memref<?x1xi64>, memref<?x4xf32>
  nd.scatter_nd %copy[%i], %u {disposable} : memref<8x4xf32>, memref<?x1xi64>, memref<?x4xf32>
  return
}

// -----

// Slices of 128 elements: the columns are split among the partitions, each
// applying every entry, in order, to its columns with vector moves.
// CHECK-LABEL: func.func @scatter_nd_wide_slices
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<8x2x64xf16>
//       CHECK:   %[[ROWS:.*]] = memref.collapse_shape %[[DATA]] {{\[\[}}0], [1, 2]] : memref<8x2x64xf16> into memref<8x128xf16>
//       CHECK:   scf.parallel
//       CHECK:     %[[COLS:.*]] = memref.subview %[[ROWS]][0, %{{.*}}] [8, %{{.*}}] [1, 1] : memref<8x128xf16> to memref<8x?xf16, strided<[128, 1], offset: ?>>
//       CHECK:     scf.for
//       CHECK:       scf.for
//       CHECK:         vector.load %{{.*}} vector<32xf16>
//       CHECK:         vector.store %{{.*}}, %[[COLS]]{{.*}} vector<32xf16>
func.func @scatter_nd_wide_slices(%data: memref<8x2x64xf16>, %indices: memref<3x1xi32>, %updates: memref<3x2x64xf16>) {
  nd.scatter_nd %data[%indices], %updates : memref<8x2x64xf16>, memref<3x1xi32>, memref<3x2x64xf16>
  return
}

// -----

// A dynamic dim of updates is compared with data's before anything else.
// CHECKED-LABEL: func.func private @__nd_scatter_nd
//       CHECKED:   %[[UD:.*]] = memref.dim %arg2, %{{.*}} : memref<3x?xf32>
//       CHECKED:   %[[DD:.*]] = memref.dim %arg0, %{{.*}} : memref<4x?xf32>
//       CHECKED:   %[[NE:.*]] = arith.cmpi ne, %[[UD]], %[[DD]] : index
//       CHECKED:   scf.if %[[NE]] {
//       CHECKED:     nd_rt.report_at %{{.*}} "nd.scatter_nd: operand 'updates' dim 1 (%lld) does not match operand 'data' dim 1 (%lld)"
//       CHECKED:   scf.if %{{.*}} {
//       CHECKED:     arith.addf
func.func @scatter_nd_slices_add(%data: memref<4x?xf32>, %indices: memref<3x1xi64>, %updates: memref<3x?xf32>) {
  nd.scatter_nd %data[%indices], %updates reduction<add> : memref<4x?xf32>, memref<3x1xi64>, memref<3x?xf32>
  return
}

// -----

// OpenVINO's single-element form: one entry, one element.
// CHECK-LABEL: func.func private @__nd_scatter_nd
//       CHECK:   memref.collapse_shape %arg2 {{\[\[}}0, 1]] : memref<1x1xf32> into memref<1xf32>
//       CHECK:   scf.parallel
//       CHECK:     memref.subview
func.func @scatter_nd_single_openvino(%data: memref<2x2xf32>, %indices: memref<2xi64>, %updates: memref<1x1xf32>) {
  nd.scatter_nd %data[%indices], %updates : memref<2x2xf32>, memref<2xi64>, memref<1x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Reductions, per element type
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reductions_float
//       CHECK:   call @__nd_scatter
//       CHECK:   arith.addf {{.*}} : f16
//       CHECK:   arith.mulf {{.*}} : f16
//       CHECK:   arith.maximumf {{.*}} : f16
//       CHECK:   arith.minimumf {{.*}} : f16
func.func @reductions_float(%d: memref<8xf16>, %i: memref<2x1xi64>, %u: memref<2xf16>) {
  nd.scatter_nd %d[%i], %u reduction<add> : memref<8xf16>, memref<2x1xi64>, memref<2xf16>
  nd.scatter_nd %d[%i], %u reduction<mul> : memref<8xf16>, memref<2x1xi64>, memref<2xf16>
  nd.scatter_nd %d[%i], %u reduction<max> : memref<8xf16>, memref<2x1xi64>, memref<2xf16>
  nd.scatter_nd %d[%i], %u reduction<min> : memref<8xf16>, memref<2x1xi64>, memref<2xf16>
  return
}

// -----

// Wide slices combine whole vectors.
// CHECK-LABEL: func.func @reductions_vector
//       CHECK:   call @__nd_scatter
//       CHECK:   vector.load {{.*}} vector<16xf32>
//       CHECK:   vector.load {{.*}} vector<16xf32>
//       CHECK:   arith.maximumf {{.*}} : vector<16xf32>
//       CHECK:   vector.store
func.func @reductions_vector(%d: memref<4x64xf32>, %i: memref<2x1xi64>, %u: memref<2x64xf32>) {
  nd.scatter_nd %d[%i], %u reduction<max> : memref<4x64xf32>, memref<2x1xi64>, memref<2x64xf32>
  return
}

// -----

// CHECK-LABEL: func.func @reductions_signed
//       CHECK:   call @__nd_scatter
//       CHECK:   arith.addi {{.*}} : i32
//       CHECK:   arith.muli {{.*}} : i32
//       CHECK:   arith.maxsi {{.*}} : i32
//       CHECK:   arith.minsi {{.*}} : i32
func.func @reductions_signed(%d: memref<2x3xi32>, %i: memref<2x3xi32>, %u: memref<2x3xi32>) {
  nd.scatter_elements %d[%i], %u axis(1) reduction<add> : memref<2x3xi32>, memref<2x3xi32>, memref<2x3xi32>
  nd.scatter_elements %d[%i], %u axis(1) reduction<mul> : memref<2x3xi32>, memref<2x3xi32>, memref<2x3xi32>
  nd.scatter_elements %d[%i], %u axis(1) reduction<max> : memref<2x3xi32>, memref<2x3xi32>, memref<2x3xi32>
  nd.scatter_elements %d[%i], %u axis(1) reduction<min> : memref<2x3xi32>, memref<2x3xi32>, memref<2x3xi32>
  return
}

// -----

// Unsigned integers go through signless for the arith op and compare
// unsigned.
// CHECK-LABEL: func.func @reductions_unsigned
//       CHECK:   call @__nd_scatter
//       CHECK:   %[[OLD:.*]] = memref.load %{{.*}} : memref<?xui8, strided<[1], offset: ?>>
//       CHECK:   %[[A:.*]] = builtin.unrealized_conversion_cast %[[OLD]] : ui8 to i8
//       CHECK:   %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : ui8 to i8
//       CHECK:   %[[M:.*]] = arith.maxui %[[A]], %[[B]] : i8
//       CHECK:   %[[R:.*]] = builtin.unrealized_conversion_cast %[[M]] : i8 to ui8
//       CHECK:   memref.store %[[R]]
//       CHECK:   arith.minui {{.*}} : i8
//       CHECK:   arith.addi {{.*}} : i8
func.func @reductions_unsigned(%d: memref<4xui8>, %i: memref<2x1xi64>, %u: memref<2xui8>) {
  nd.scatter_nd %d[%i], %u reduction<max> : memref<4xui8>, memref<2x1xi64>, memref<2xui8>
  nd.scatter_nd %d[%i], %u reduction<min> : memref<4xui8>, memref<2x1xi64>, memref<2xui8>
  nd.scatter_nd %d[%i], %u reduction<add> : memref<4xui8>, memref<2x1xi64>, memref<2xui8>
  return
}

// -----

// i1: add and max are logical or, mul and min logical and.
// CHECK-LABEL: func.func @reductions_i1
//       CHECK:   call @__nd_scatter
//       CHECK:   arith.ori {{.*}} : i1
//       CHECK:   arith.andi {{.*}} : i1
//       CHECK:   arith.ori {{.*}} : i1
//       CHECK:   arith.andi {{.*}} : i1
func.func @reductions_i1(%d: memref<4xi1>, %i: memref<2x1xi64>, %u0: memref<2xi1>, %u1: memref<2xi1>, %u2: memref<2xi1>, %u3: memref<2xi1>) {
  nd.scatter_nd %d[%i], %u0 reduction<add> : memref<4xi1>, memref<2x1xi64>, memref<2xi1>
  nd.scatter_nd %d[%i], %u1 reduction<mul> : memref<4xi1>, memref<2x1xi64>, memref<2xi1>
  nd.scatter_nd %d[%i], %u2 reduction<max> : memref<4xi1>, memref<2x1xi64>, memref<2xi1>
  nd.scatter_nd %d[%i], %u3 reduction<min> : memref<4xi1>, memref<2x1xi64>, memref<2xi1>
  return
}

// -----

// CHECK-LABEL: func.func @reductions_complex
//       CHECK:   call @__nd_scatter
//       CHECK:   complex.add {{.*}} : complex<f64>
//       CHECK:   complex.mul {{.*}} : complex<f64>
func.func @reductions_complex(%d: memref<4xcomplex<f64>>, %i: memref<2x1xi64>, %u: memref<2xcomplex<f64>>) {
  nd.scatter_nd %d[%i], %u reduction<add> : memref<4xcomplex<f64>>, memref<2x1xi64>, memref<2xcomplex<f64>>
  nd.scatter_nd %d[%i], %u reduction<mul> : memref<4xcomplex<f64>>, memref<2x1xi64>, memref<2xcomplex<f64>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// scatter_elements
//===----------------------------------------------------------------------===//

// Positions that differ off the axis never collide: partitions own ranges
// of dim 0 (the axis is 1) and walk their positions in row-major order.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: memref<?x5xi8>
//       CHECK:   scf.parallel
//       CHECK:     %[[ROWS:.*]] = memref.subview %[[DATA]][%{{.*}}, 0] [%{{.*}}, 5] [1, 1] : memref<?x5xi8> to memref<?x5xi8, strided<[5, 1], offset: ?>>
//       CHECK:     scf.for
//       CHECK:       scf.for
//       CHECK:         %[[OLD:.*]] = memref.load %[[ROWS]][%{{.*}}, %{{.*}}] : memref<?x5xi8, strided<[5, 1], offset: ?>>
//       CHECK:         %[[M:.*]] = arith.maxsi %[[OLD]], %{{.*}} : i8
//       CHECK:         memref.store %[[M]], %[[ROWS]]
func.func @scatter_elements(%data: memref<?x5xi8>, %indices: memref<?x2xi32>, %updates: memref<?x2xi8>) {
  nd.scatter_elements %data[%indices], %updates axis(-1) reduction<max> : memref<?x5xi8>, memref<?x2xi32>, memref<?x2xi8>
  return
}

// The shapes are compared first, then every index, before anything is
// written: a parallel pass over ranges of the indices, one unsigned max
// each (which vectorises), raises one flag per range. A raised flag makes
// the op report the first bad index in row-major order; otherwise the
// partitions update data in place and check nothing.
// CHECKED-LABEL: func.func private @__nd_scatter_elements(%{{.*}}: memref<?x5xi8>
//  CHECKED-SAME:   %{{.*}}: memref<?x2xi32>, %{{.*}}: memref<?x2xi8>, %{{.*}}: i64)
//       CHECKED:   nd_rt.report_at %{{.*}} "nd.scatter_elements: operand 'updates' dim 0 (%lld) does not match operand 'indices' dim 0 (%lld)"
//       CHECKED:   nd_rt.report_at %{{.*}} "nd.scatter_elements: operand 'indices' dim 0 (%lld) exceeds operand 'data' dim 0 (%lld)"
//       CHECKED:   %[[FLAGS:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi1>
//       CHECKED:     scf.for %{{.*}} iter_args(%{{.*}} = %c0) -> (index) {
//       CHECKED:       arith.maxui
//       CHECKED:     arith.cmpi uge
//       CHECKED:     memref.store %{{.*}}, %[[FLAGS]][%{{.*}}] : memref<?xi1>
//       CHECKED:   nd_rt.report_at %{{.*}} "nd.scatter_elements: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)"
//       CHECKED:   scf.parallel
//       CHECKED:     memref.subview
//   CHECKED-NOT:     arith.cmpi uge
//       CHECKED:     arith.maxsi

// -----

// A destination that is `disposable` (a fresh copy) needs no pass of its
// own over the indices: each partition walks its rows of indices a block of
// 512 at a time, checks the block (one unsigned max) and updates its
// elements if none is bad, one flag per partition; after a bad block, no
// later row of the partition is checked or updated. Without elements
// (a dim of size 0 at run time) there are no partitions, and the parallel
// pass checks the indices instead. Unchecked, the fresh copy is updated as
// data's own buffer is.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//       CHECK:   scf.parallel
//   CHECK-NOT:     %c512
//       CHECK:     arith.maxsi
// CHECKED-LABEL: func.func private @__nd_scatter_elements(%{{.*}}: memref<?x5xi8>
//       CHECKED:   %[[OK:.*]] = scf.if %[[NONEMPTY:.*]] -> (i1) {
//       CHECKED:     %[[FLAGS:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi1>
//       CHECKED:     scf.parallel
//       CHECKED:       memref.subview
//       CHECKED:       scf.for {{.*}} iter_args(%[[ROWS_FAILED:.*]] = %false) -> (i1) {
//       CHECKED:         scf.for {{.*}} step %c512 iter_args(%[[FAILED:.*]] = %[[ROWS_FAILED]]) -> (i1) {
//       CHECKED:           scf.if %[[FAILED]] -> (i1) {
//       CHECKED:           } else {
//       CHECKED:             scf.for {{.*}} iter_args(%{{.*}} = %c0) -> (index) {
//       CHECKED:               arith.maxui
//       CHECKED:             %[[BLOCK_OK:.*]] = arith.cmpi ult
//       CHECKED:             scf.if %[[BLOCK_OK]] {
//   CHECKED-NOT:               arith.maxui
//       CHECKED:               arith.maxsi
//       CHECKED:       memref.store %{{.*}}, %[[FLAGS]][%{{.*}}] : memref<?xi1>
//       CHECKED:   } else {
//       CHECKED:     scf.parallel
//       CHECKED:       arith.maxui
//       CHECKED:   nd_rt.report_at %{{.*}} "nd.scatter_elements: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)"
func.func @scatter_elements_disposable(%data: memref<?x5xi8>, %indices: memref<?x2xi32>, %updates: memref<?x2xi8>) {
  nd.scatter_elements %data[%indices], %updates axis(-1) reduction<max> {disposable} : memref<?x5xi8>, memref<?x2xi32>, memref<?x2xi8>
  return
}

// -----

// The axis is dim 0: the partitions own ranges of the last dim.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//       CHECK:   scf.parallel
//       CHECK:     memref.subview %arg0[0, %{{.*}}] [6, %{{.*}}] [1, 1] : memref<6x7xf32> to memref<6x?xf32, strided<[7, 1], offset: ?>>
func.func @scatter_elements_axis0(%data: memref<6x7xf32>, %indices: memref<3x7xi64>, %updates: memref<3x7xf32>) {
  nd.scatter_elements %data[%indices], %updates axis(0) reduction<add> : memref<6x7xf32>, memref<3x7xi64>, memref<3x7xf32>
  return
}

// -----

// Rank 1: the positions are the axis, cut among row owners.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//       CHECK:   math.ctlz
//       CHECK:   scf.parallel
//       CHECK:     memref.subview %arg0[%{{.*}}] [%{{.*}}] [1] : memref<16xf32> to memref<?xf32, strided<[1], offset: ?>>
func.func @scatter_elements_1d(%data: memref<16xf32>, %indices: memref<9xi64>, %updates: memref<9xf32>) {
  nd.scatter_elements %data[%indices], %updates axis(0) reduction<add> : memref<16xf32>, memref<9xi64>, memref<9xf32>
  return
}

// -----

// Ops with the same lowering (name, attributes, operand types) share one
// function; each call passes its own site, which its messages name.
// CHECK-LABEL: func.func @shared_functions
//  CHECK-SAME:   (%[[D:[a-zA-Z0-9]+]]: memref<8x4xf32>, %[[I:[a-zA-Z0-9]+]]: memref<2x1xi64>, %[[U:[a-zA-Z0-9]+]]: memref<2x4xf32>, %[[O0:[a-zA-Z0-9]+]]: memref<2x4xf32>, %[[O1:[a-zA-Z0-9]+]]: memref<2x4xf32>)
//       CHECK:   call @__nd_gather_nd(%[[D]], %[[I]], %[[O0]]) : (memref<8x4xf32>, memref<2x1xi64>, memref<2x4xf32>) -> ()
//       CHECK:   call @__nd_gather_nd(%[[D]], %[[I]], %[[O1]]) : (memref<8x4xf32>, memref<2x1xi64>, memref<2x4xf32>) -> ()
//       CHECK:   call @__nd_scatter_nd(%[[D]], %[[I]], %[[U]])
//       CHECK:   call @__nd_scatter_nd(%[[D]], %[[I]], %[[U]])
//       CHECK:   call @__nd_scatter_nd_0(%[[D]], %[[I]], %[[U]])
//       CHECK:   return
// Each function of an op is marked as such (for --nd-buffer-addresses).
// CHECK-LABEL: func.func private @__nd_gather_nd(
//  CHECK-SAME:   %{{.*}}: memref<8x4xf32>, %{{.*}}: memref<2x1xi64>, %{{.*}}: memref<2x4xf32>) attributes {nd_rt.op_function} {
//   CHECK-NOT: func.func private @__nd_gather_nd
// CHECK-LABEL: func.func private @__nd_scatter_nd(
//   CHECK-NOT: func.func private @__nd_scatter_nd(
// CHECK-LABEL: func.func private @__nd_scatter_nd_0(
//   CHECK-NOT: func.func private @__nd_

// CHECKED-LABEL: func.func @shared_functions
//       CHECKED:   %[[W0:.*]] = nd_rt.site "{{.*}}lower-scatter.mlir:[[@LINE+11]]:3"
//       CHECKED:   call @__nd_gather_nd(%{{.*}}, %{{.*}}, %{{.*}}, %[[W0]])
//       CHECKED:   %[[W1:.*]] = nd_rt.site "{{.*}}lower-scatter.mlir:[[@LINE+10]]:3"
//       CHECKED:   call @__nd_gather_nd(%{{.*}}, %{{.*}}, %{{.*}}, %[[W1]])
// CHECKED-LABEL: func.func private @__nd_gather_nd(
//  CHECKED-SAME:   %{{.*}}: memref<8x4xf32>, %{{.*}}: memref<2x1xi64>, %{{.*}}: memref<2x4xf32>, %[[SITE:[a-zA-Z0-9]+]]: i64) attributes {nd_rt.op_function} {
//       CHECKED:   nd_rt.report_at %[[SITE]] "nd.gather_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)" (%{{.*}}, %{{.*}})
//   CHECKED-NOT: func.func private @__nd_gather_nd
func.func @shared_functions(%data: memref<8x4xf32>, %indices: memref<2x1xi64>,
                            %updates: memref<2x4xf32>, %out0: memref<2x4xf32>,
                            %out1: memref<2x4xf32>) {
  nd.gather_nd %data[%indices] into %out0 : memref<8x4xf32>, memref<2x1xi64> into memref<2x4xf32>
  nd.gather_nd %data[%indices] into %out1 : memref<8x4xf32>, memref<2x1xi64> into memref<2x4xf32>
  nd.scatter_nd %data[%indices], %updates : memref<8x4xf32>, memref<2x1xi64>, memref<2x4xf32>
  nd.scatter_nd %data[%indices], %updates : memref<8x4xf32>, memref<2x1xi64>, memref<2x4xf32>
  nd.scatter_nd %data[%indices], %updates reduction<add> : memref<8x4xf32>, memref<2x1xi64>, memref<2x4xf32>
  return
}
