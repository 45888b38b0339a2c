// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false -canonicalize -cse | FileCheck %s
// RUN: nd-opt %s -split-input-file --lower-scatter -canonicalize -cse | FileCheck %s --check-prefix=CHECKED
// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false | FileCheck %s --check-prefix=UNCHECKED

// Each op becomes a call of a private function of its own, @__nd_<op>, which
// holds its lowering (one function per op keeps the functions later passes
// work on small). Without checks nothing of the error path is emitted, and
// no nd op is left.
// UNCHECKED-NOT: __nd_report_error
// UNCHECKED-NOT: nd.message
// UNCHECKED-NOT: llvm.
// UNCHECKED-NOT: nd.{{scatter|gather}}

//===----------------------------------------------------------------------===//
// gather_nd
//===----------------------------------------------------------------------===//

// The operands are read as flat buffers, the result is allocated and filled
// by a parallel loop over partitions of the index tuples; each tuple's slice
// (a row of 32 contiguous elements) moves as vectors.
// CHECK-LABEL: func.func @gather_nd_rows
//  CHECK-SAME:   (%[[D0:.*]]: tensor<5x4x8xf32>, %[[I0:.*]]: tensor<3x1xi64>)
//       CHECK:   %[[G:.*]] = call @__nd_gather_nd(%[[D0]], %[[I0]]) : (tensor<5x4x8xf32>, tensor<3x1xi64>) -> tensor<3x4x8xf32>
//       CHECK:   return %[[G]]
// CHECK-LABEL: func.func private @__nd_gather_nd
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<5x4x8xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<3x1xi64>
//   CHECK-DAG:   %[[DB:.*]] = bufferization.to_buffer %[[DATA]] read_only : tensor<5x4x8xf32> to memref<5x4x8xf32>
//   CHECK-DAG:   %[[DF:.*]] = memref.collapse_shape %[[DB]] {{\[\[}}0, 1, 2]] : memref<5x4x8xf32> into memref<160xf32>
//   CHECK-DAG:   %[[IB:.*]] = bufferization.to_buffer %[[IND]] read_only : tensor<3x1xi64> to memref<3x1xi64>
//   CHECK-DAG:   %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4x8xf32>
//   CHECK-DAG:   %[[RESULT:.*]] = bufferization.to_tensor %[[ALLOC]] restrict writable : memref<3x4x8xf32> to tensor<3x4x8xf32>
//   CHECK-DAG:   %[[RF:.*]] = memref.collapse_shape %[[ALLOC]] {{\[\[}}0, 1, 2]] : memref<3x4x8xf32> into memref<96xf32>
//   CHECK-DAG:   %[[THREADS:.*]] = call @__nd_max_threads() : () -> index
//       CHECK:   scf.parallel (%[[P:.*]]) = (%{{.*}}) to (%{{.*}}) step
//       CHECK:     scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step
//       CHECK:       %[[RAW:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<3xi64>
//       CHECK:       arith.index_cast %[[RAW]] : i64 to index
//       CHECK:       scf.for
//       CHECK:         %[[V:.*]] = vector.load %[[DF]][%{{.*}}] : memref<160xf32>, vector<16xf32>
//       CHECK:         vector.store %[[V]], %[[RF]][%{{.*}}] : memref<96xf32>, vector<16xf32>
//       CHECK:   return %[[RESULT]]
func.func @gather_nd_rows(%data: tensor<5x4x8xf32>, %indices: tensor<3x1xi64>) -> tensor<3x4x8xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<5x4x8xf32>, tensor<3x1xi64> -> tensor<3x4x8xf32>
  return %0 : tensor<3x4x8xf32>
}

// The tuples are checked as they are read: a bad one is clamped to a valid
// row, counted in the partition's flag, and reported after the loop by a
// serial rescan that names the first bad component.
// The message names the op; the site, the caller's argument, names where
// it is (see convert-nd-runtime-to-llvm).
// CHECKED-LABEL: func.func @gather_nd_rows
//       CHECKED:   %[[WHERE:.*]] = call @__nd_site() {nd.site = "{{.*}}lower-scatter.mlir:{{[0-9]+}}:8"} : () -> i64
//       CHECKED:   call @__nd_gather_nd(%{{.*}}, %{{.*}}, %[[WHERE]])
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
//       CHECKED:       func.call @__nd_report_error_at(%[[SITE]], %{{.*}}, %{{.*}}) {nd.message = "nd.gather_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)"} : (i64, i64, i64) -> ()

// -----

// Batch dims index data directly; the dynamic batch dims of data and indices
// are compared at run time before anything is read.
// CHECK-LABEL: func.func private @__nd_gather_nd
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<?x4x5x6xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<?x3x2xi32>
//       CHECK:   %[[DIM:.*]] = tensor.dim %[[IND]], %{{.*}} : tensor<?x3x2xi32>
//       CHECK:   memref.alloc(%[[DIM]]) {alignment = 64 : i64} : memref<?x3x6xf32>
//       CHECK:   scf.parallel
//       CHECK:     arith.index_cast %{{.*}} : i32 to index
//       CHECK:     arith.index_cast %{{.*}} : i32 to index
//       CHECK:     arith.divui
func.func @gather_nd_batch_dynamic(%data: tensor<?x4x5x6xf32>, %indices: tensor<?x3x2xi32>) -> tensor<?x3x6xf32> {
  %0 = nd.gather_nd %data[%indices] batch_dims(1) : tensor<?x4x5x6xf32>, tensor<?x3x2xi32> -> tensor<?x3x6xf32>
  return %0 : tensor<?x3x6xf32>
}

// CHECKED-LABEL: func.func private @__nd_gather_nd
//   CHECKED-DAG:   %[[IB:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?x3x2xi32>
//   CHECKED-DAG:   %[[DB:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4x5x6xf32>
//       CHECKED:   %[[NE:.*]] = arith.cmpi ne, %[[IB]], %[[DB]] : index
//       CHECKED:   scf.if %[[NE]] {
//       CHECKED:     func.call @__nd_report_error_at({{.*}}) {nd.message = "nd.gather_nd: operand 'indices' dim 0 (%lld) does not match operand 'data' dim 0 (%lld)"}
//       CHECKED:   scf.if
//       CHECKED:     scf.parallel
//       CHECKED:   nd.message = "nd.gather_nd: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)"
//       CHECKED:   nd.message = "nd.gather_nd: index %lld in operand 'indices' is out of range for dim 2 of operand 'data' (size %lld)"

// -----

//===----------------------------------------------------------------------===//
// gather_elements
//===----------------------------------------------------------------------===//

// Partitions of the positions of indices; the axis coordinate of each is the
// normalised index.
// CHECK-LABEL: func.func private @__nd_gather_elements
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<3x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<2x2xindex>
//   CHECK-DAG:   %[[SIZE:.*]] = tensor.dim %[[DATA]], %{{.*}} : tensor<3x?xf32>
//   CHECK-DAG:   memref.alloc() {alignment = 64 : i64} : memref<2x2xf32>
//       CHECK:   scf.parallel
//       CHECK:     scf.for
//       CHECK:       scf.for
//       CHECK:         %[[I:.*]] = memref.load %{{.*}} : memref<4xindex>
//       CHECK:         %[[NEG:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : index
//       CHECK:         %[[WRAP:.*]] = arith.addi %[[I]], %[[SIZE]] : index
//       CHECK:         arith.select %[[NEG]], %[[WRAP]], %[[I]] : index
//       CHECK:         %[[V:.*]] = memref.load %{{.*}} : memref<?xf32>
//       CHECK:         memref.store %[[V]], %{{.*}} : memref<4xf32>
func.func @gather_elements(%data: tensor<3x?xf32>, %indices: tensor<2x2xindex>) -> tensor<2x2xf32> {
  %0 = nd.gather_elements %data[%indices] axis(1) : tensor<3x?xf32>, tensor<2x2xindex> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// The off-axis dim 0 is static on both sides: no run-time shape check.
// CHECKED-LABEL: func.func private @__nd_gather_elements
//   CHECKED-NOT:   arith.cmpi ugt
//       CHECKED:   nd.message = "nd.gather_elements: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)"

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
// inside the scf.forall whose shared output is data. With one block, its
// owner applies every entry.
// The caller passes data's base pointer along, for the callee to tell an
// update of data in place from one of a copy.
// CHECK-LABEL: func.func @scatter_nd_points
//  CHECK-SAME:   (%[[D0:.*]]: tensor<4x?xf32>, %[[I0:.*]]: tensor<3x2xi64>, %[[U0:.*]]: tensor<3xf32>)
//       CHECK:   %[[PROBE:.*]] = bufferization.to_buffer %[[D0]] read_only : tensor<4x?xf32> to memref<4x?xf32, strided<[?, ?], offset: ?>>
//       CHECK:   %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[PROBE]]
// Data goes in as a buffer the call updates (bufferization decides whether
// that is data's own or a copy), and comes back as the result.
//       CHECK:   %[[BUF:.*]] = bufferization.to_buffer %[[D0]] {nd.update = {{[0-9]+}} : i64} : tensor<4x?xf32> to memref<4x?xf32>
//       CHECK:   %[[R:.*]] = call @__nd_scatter_nd(%[[BUF]], %[[I0]], %[[U0]], %[[PTR]])
//       CHECK:   return %[[R]]
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   %[[DBUF:[a-zA-Z0-9]+]]: memref<4x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<3x2xi64>
//  CHECK-SAME:   %[[UPD:[a-zA-Z0-9]+]]: tensor<3xf32>
//  CHECK-SAME:   -> tensor<4x?xf32>
//       CHECK:   %[[DATA:.*]] = bufferization.to_tensor %[[DBUF]] restrict writable : memref<4x?xf32> to tensor<4x?xf32>
//       CHECK:   %[[FLAT:.*]] = tensor.collapse_shape %[[DATA]] {{\[\[}}0, 1]] : tensor<4x?xf32> into tensor<?xf32>
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
//       CHECK:         %[[UPDATE:.*]] = tensor.extract %[[UPD]]
//       CHECK:         memref.store %[[UPDATE]], %[[VALUES]][%[[SLOT]]]
//       CHECK:   scf.forall (%[[T:.*]]) in (%{{.*}}) shared_outs(%[[OUT:.*]] = %[[FLAT]]) -> (tensor<?xf32>)
//       CHECK:     %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[LO:.*]]] [%[[N:.*]]] [1] : tensor<?xf32> to tensor<?xf32>
//       CHECK:     %[[BUF:.*]] = bufferization.to_buffer %[[SLICE]] : tensor<?xf32> to memref<?xf32, strided<[1], offset: ?>>
//       CHECK:     %[[ACCESS:.*]] = memref.assume_alignment %[[BUF]], 4
//       CHECK:     scf.if %[[BUCKETED]] {
//       CHECK:       scf.for
//       CHECK:         memref.load %[[STARTS]]
//       CHECK:         memref.load %[[STARTS]]
//       CHECK:         scf.for
//       CHECK:           memref.load %[[INBLOCK]]
//       CHECK:           %[[VALUE:.*]] = memref.load %[[VALUES]]
//       CHECK:           memref.store %[[VALUE]], %[[ACCESS]]
//       CHECK:     } else {
//       CHECK:       scf.for
//       CHECK:         memref.store %{{.*}}, %[[ACCESS]]
//       CHECK:     %[[NEW:.*]] = bufferization.to_tensor %[[BUF]] restrict writable
//       CHECK:     scf.forall.in_parallel {
//       CHECK:       tensor.parallel_insert_slice %[[NEW]] into %[[OUT]][%[[LO]]] [%[[N]]] [1]
//       CHECK:   tensor.expand_shape
//  CHECK-SAME:     into tensor<4x?xf32>
func.func @scatter_nd_points(%data: tensor<4x?xf32>, %indices: tensor<3x2xi64>, %updates: tensor<3xf32>) -> tensor<4x?xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<4x?xf32>, tensor<3x2xi64>, tensor<3xf32>
  return %0 : tensor<4x?xf32>
}

// With checks, the counting pass checks too: each component contributes
// `index + size` to an unsigned max per chunk (in range iff below 2 * size).
// Nothing is written unless every chunk passed (a single owner checks as it
// goes: all first when it updates data in place, fused with the writes into
// a copy); the first bad tuple in row-major order is reported once.
// CHECKED-LABEL: func.func private @__nd_scatter_nd
//       CHECKED:   %[[PASSED:.*]] = scf.if %{{.*}} -> (i1) {
//       CHECKED:     scf.parallel
//       CHECKED:       scf.for {{.*}} iter_args
//       CHECKED:         arith.maxui
//       CHECKED:         arith.maxui
//       CHECKED:       arith.cmpi uge
//       CHECKED:       arith.cmpi uge
//       CHECKED:   %[[RESULT:.*]]:2 = scf.if %[[PASSED]] -> (tensor<?xf32>, i1) {
//       CHECKED:     scf.parallel
//       CHECKED:     scf.forall
//       CHECKED:   } else {
//       CHECKED:     scf.yield %collapsed, %true
//       CHECKED:   scf.if %[[RESULT]]#1 {
//       CHECKED:     nd.message = "nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)"
//       CHECKED:     nd.message = "nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)"
//       CHECKED:   tensor.expand_shape %[[RESULT]]#0

// -----

// Slices of 128 elements: the columns are split among the partitions, each
// applying every entry, in order, to its columns with vector moves.
// CHECK-LABEL: func.func private @__nd_scatter_nd
//  CHECK-SAME:   %[[DBUF:[a-zA-Z0-9]+]]: memref<8x2x64xf16>
//       CHECK:   %[[DATA:.*]] = bufferization.to_tensor %[[DBUF]] restrict writable
//       CHECK:   %[[ROWS:.*]] = tensor.collapse_shape %[[DATA]] {{\[\[}}0], [1, 2]] : tensor<8x2x64xf16> into tensor<8x128xf16>
//       CHECK:   scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%[[OUT:.*]] = %[[ROWS]]) -> (tensor<8x128xf16>)
//       CHECK:     tensor.extract_slice %[[OUT]][0, %[[LO:.*]]] [8, %[[W:.*]]] [1, 1] : tensor<8x128xf16> to tensor<8x?xf16>
//       CHECK:     bufferization.to_buffer %{{.*}} : tensor<8x?xf16> to memref<8x?xf16, strided<[?, 1], offset: ?>>
//       CHECK:     scf.for
//       CHECK:       scf.for
//       CHECK:         vector.load %{{.*}} vector<32xf16>
//       CHECK:         vector.store %{{.*}} vector<32xf16>
//       CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[OUT]][0, %[[LO]]] [8, %[[W]]] [1, 1]
//       CHECK:   tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2]] output_shape [8, 2, 64] : tensor<8x128xf16> into tensor<8x2x64xf16>
func.func @scatter_nd_wide_slices(%data: tensor<8x2x64xf16>, %indices: tensor<3x1xi32>, %updates: tensor<3x2x64xf16>) -> tensor<8x2x64xf16> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<8x2x64xf16>, tensor<3x1xi32>, tensor<3x2x64xf16>
  return %0 : tensor<8x2x64xf16>
}

// -----

// A dynamic dim of updates is compared with data's before anything else.
// CHECKED-LABEL: func.func private @__nd_scatter_nd
//       CHECKED:   %[[UD:.*]] = tensor.dim %arg2, %{{.*}} : tensor<3x?xf32>
//       CHECKED:   %[[DD:.*]] = memref.dim %arg0, %{{.*}} : memref<4x?xf32>
//       CHECKED:   %[[NE:.*]] = arith.cmpi ne, %[[UD]], %[[DD]] : index
//       CHECKED:   scf.if %[[NE]] {
//       CHECKED:     nd.message = "nd.scatter_nd: operand 'updates' dim 1 (%lld) does not match operand 'data' dim 1 (%lld)"
//       CHECKED:   scf.if %{{.*}} -> (tensor<4x?xf32>) {
//       CHECKED:     arith.addf
func.func @scatter_nd_slices_add(%data: tensor<4x?xf32>, %indices: tensor<3x1xi64>, %updates: tensor<3x?xf32>) -> tensor<4x?xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<4x?xf32>, tensor<3x1xi64>, tensor<3x?xf32>
  return %0 : tensor<4x?xf32>
}

// -----

// OpenVINO's single-element form: one entry, one element.
// CHECK-LABEL: func.func private @__nd_scatter_nd
//       CHECK:   bufferization.to_buffer %arg2 read_only : tensor<1x1xf32> to memref<1x1xf32>
//       CHECK:   scf.forall
func.func @scatter_nd_single_openvino(%data: tensor<2x2xf32>, %indices: tensor<2xi64>, %updates: tensor<1x1xf32>) -> tensor<2x2xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<2x2xf32>, tensor<2xi64>, tensor<1x1xf32>
  return %0 : tensor<2x2xf32>
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
func.func @reductions_float(%d: tensor<8xf16>, %i: tensor<2x1xi64>, %u: tensor<2xf16>) -> (tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) {
  %0 = nd.scatter_nd %d[%i], %u reduction<add> : tensor<8xf16>, tensor<2x1xi64>, tensor<2xf16>
  %1 = nd.scatter_nd %d[%i], %u reduction<mul> : tensor<8xf16>, tensor<2x1xi64>, tensor<2xf16>
  %2 = nd.scatter_nd %d[%i], %u reduction<max> : tensor<8xf16>, tensor<2x1xi64>, tensor<2xf16>
  %3 = nd.scatter_nd %d[%i], %u reduction<min> : tensor<8xf16>, tensor<2x1xi64>, tensor<2xf16>
  return %0, %1, %2, %3 : tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>
}

// -----

// Wide slices combine whole vectors.
// CHECK-LABEL: func.func @reductions_vector
//       CHECK:   call @__nd_scatter
//       CHECK:   vector.load {{.*}} vector<16xf32>
//       CHECK:   vector.load {{.*}} vector<16xf32>
//       CHECK:   arith.maximumf {{.*}} : vector<16xf32>
//       CHECK:   vector.store
func.func @reductions_vector(%d: tensor<4x64xf32>, %i: tensor<2x1xi64>, %u: tensor<2x64xf32>) -> tensor<4x64xf32> {
  %0 = nd.scatter_nd %d[%i], %u reduction<max> : tensor<4x64xf32>, tensor<2x1xi64>, tensor<2x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// CHECK-LABEL: func.func @reductions_signed
//       CHECK:   call @__nd_scatter
//       CHECK:   arith.addi {{.*}} : i32
//       CHECK:   arith.muli {{.*}} : i32
//       CHECK:   arith.maxsi {{.*}} : i32
//       CHECK:   arith.minsi {{.*}} : i32
func.func @reductions_signed(%d: tensor<2x3xi32>, %i: tensor<2x3xi32>, %u: tensor<2x3xi32>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>) {
  %0 = nd.scatter_elements %d[%i], %u axis(1) reduction<add> : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
  %1 = nd.scatter_elements %d[%i], %u axis(1) reduction<mul> : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
  %2 = nd.scatter_elements %d[%i], %u axis(1) reduction<max> : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
  %3 = nd.scatter_elements %d[%i], %u axis(1) reduction<min> : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
  return %0, %1, %2, %3 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>, tensor<2x3xi32>
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
func.func @reductions_unsigned(%d: tensor<4xui8>, %i: tensor<2x1xi64>, %u: tensor<2xui8>) -> (tensor<4xui8>, tensor<4xui8>, tensor<4xui8>) {
  %0 = nd.scatter_nd %d[%i], %u reduction<max> : tensor<4xui8>, tensor<2x1xi64>, tensor<2xui8>
  %1 = nd.scatter_nd %d[%i], %u reduction<min> : tensor<4xui8>, tensor<2x1xi64>, tensor<2xui8>
  %2 = nd.scatter_nd %d[%i], %u reduction<add> : tensor<4xui8>, tensor<2x1xi64>, tensor<2xui8>
  return %0, %1, %2 : tensor<4xui8>, tensor<4xui8>, tensor<4xui8>
}

// -----

// i1: add and max are logical or, mul and min logical and.
// CHECK-LABEL: func.func @reductions_i1
//       CHECK:   call @__nd_scatter
//       CHECK:   arith.ori {{.*}} : i1
//       CHECK:   arith.andi {{.*}} : i1
//       CHECK:   arith.ori {{.*}} : i1
//       CHECK:   arith.andi {{.*}} : i1
func.func @reductions_i1(%d: tensor<4xi1>, %i: tensor<2x1xi64>, %u0: tensor<2xi1>, %u1: tensor<2xi1>, %u2: tensor<2xi1>, %u3: tensor<2xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = nd.scatter_nd %d[%i], %u0 reduction<add> : tensor<4xi1>, tensor<2x1xi64>, tensor<2xi1>
  %1 = nd.scatter_nd %d[%i], %u1 reduction<mul> : tensor<4xi1>, tensor<2x1xi64>, tensor<2xi1>
  %2 = nd.scatter_nd %d[%i], %u2 reduction<max> : tensor<4xi1>, tensor<2x1xi64>, tensor<2xi1>
  %3 = nd.scatter_nd %d[%i], %u3 reduction<min> : tensor<4xi1>, tensor<2x1xi64>, tensor<2xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @reductions_complex
//       CHECK:   call @__nd_scatter
//       CHECK:   complex.add {{.*}} : complex<f64>
//       CHECK:   complex.mul {{.*}} : complex<f64>
func.func @reductions_complex(%d: tensor<4xcomplex<f64>>, %i: tensor<2x1xi64>, %u: tensor<2xcomplex<f64>>) -> (tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>) {
  %0 = nd.scatter_nd %d[%i], %u reduction<add> : tensor<4xcomplex<f64>>, tensor<2x1xi64>, tensor<2xcomplex<f64>>
  %1 = nd.scatter_nd %d[%i], %u reduction<mul> : tensor<4xcomplex<f64>>, tensor<2x1xi64>, tensor<2xcomplex<f64>>
  return %0, %1 : tensor<4xcomplex<f64>>, tensor<4xcomplex<f64>>
}

// -----

//===----------------------------------------------------------------------===//
// scatter_elements
//===----------------------------------------------------------------------===//

// Positions that differ off the axis never collide: partitions own ranges
// of dim 0 (the axis is 1) and walk their positions in row-major order.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//  CHECK-SAME:   %[[DBUF:[a-zA-Z0-9]+]]: memref<?x5xi8>
//       CHECK:   %[[DATA:.*]] = bufferization.to_tensor %[[DBUF]] restrict writable
//       CHECK:   scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%[[OUT:.*]] = %[[DATA]]) -> (tensor<?x5xi8>)
//       CHECK:     %[[SLICE:.*]] = tensor.extract_slice %[[OUT]][%[[LO:.*]], 0] [%[[N:.*]], 5] [1, 1]
//       CHECK:     bufferization.to_buffer %[[SLICE]] : tensor<?x5xi8> to memref<?x5xi8, strided<[?, ?], offset: ?>>
//       CHECK:     scf.for
//       CHECK:       scf.for
//       CHECK:         %[[OLD:.*]] = memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x5xi8, strided<[?, ?], offset: ?>>
//       CHECK:         %[[M:.*]] = arith.maxsi %[[OLD]], %{{.*}} : i8
//       CHECK:         memref.store %[[M]]
//       CHECK:     tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[LO]], 0] [%[[N]], 5] [1, 1]
func.func @scatter_elements(%data: tensor<?x5xi8>, %indices: tensor<?x2xi32>, %updates: tensor<?x2xi8>) -> tensor<?x5xi8> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(-1) reduction<max> : tensor<?x5xi8>, tensor<?x2xi32>, tensor<?x2xi8>
  return %0 : tensor<?x5xi8>
}

// The shapes are compared first, then every index, before anything is
// written: a parallel pass over ranges of the indices, one unsigned max
// each (which vectorises), raises one flag per range. A raised flag makes
// the op report the first bad index in row-major order; otherwise the
// partitions update data (in place, or a copy of it) and check nothing.
// CHECKED-LABEL: func.func private @__nd_scatter_elements(%{{.*}}: memref<?x5xi8>
//  CHECKED-SAME:   %{{.*}}: tensor<?x2xi32>, %{{.*}}: tensor<?x2xi8>, %{{.*}}: index, %{{.*}}: i64)
//       CHECKED:   nd.message = "nd.scatter_elements: operand 'updates' dim 0 (%lld) does not match operand 'indices' dim 0 (%lld)"
//       CHECKED:   nd.message = "nd.scatter_elements: operand 'indices' dim 0 (%lld) exceeds operand 'data' dim 0 (%lld)"
//       CHECKED:   %[[FLAGS:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xi1>
//       CHECKED:     scf.for %{{.*}} iter_args(%{{.*}} = %c0) -> (index) {
//       CHECKED:       arith.maxui
//       CHECKED:     arith.cmpi uge
//       CHECKED:     memref.store %{{.*}}, %[[FLAGS]][%{{.*}}] : memref<?xi1>
//       CHECKED:   nd.message = "nd.scatter_elements: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)"
//       CHECKED:   scf.forall
//   CHECKED-NOT:     arith.cmpi uge
//       CHECKED:     arith.maxsi
//       CHECKED:   scf.forall.in_parallel

// -----

// The axis is dim 0: the partitions own ranges of the last dim.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//       CHECK:   %[[DATA:.*]] = bufferization.to_tensor %arg0 restrict writable
//       CHECK:   scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%[[OUT:.*]] = %[[DATA]]) -> (tensor<6x7xf32>)
//       CHECK:     tensor.extract_slice %[[OUT]][0, %{{.*}}] [6, %{{.*}}] [1, 1]
func.func @scatter_elements_axis0(%data: tensor<6x7xf32>, %indices: tensor<3x7xi64>, %updates: tensor<3x7xf32>) -> tensor<6x7xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(0) reduction<add> : tensor<6x7xf32>, tensor<3x7xi64>, tensor<3x7xf32>
  return %0 : tensor<6x7xf32>
}

// -----

// Rank 1: the positions are the axis, cut among row owners.
// CHECK-LABEL: func.func private @__nd_scatter_elements
//       CHECK:   %[[DATA:.*]] = bufferization.to_tensor %arg0 restrict writable
//       CHECK:   math.ctlz
//       CHECK:   scf.forall (%{{.*}}) in (%{{.*}}) shared_outs(%[[OUT:.*]] = %[[DATA]]) -> (tensor<16xf32>)
//       CHECK:     tensor.extract_slice %[[OUT]][%{{.*}}] [%{{.*}}] [1]
func.func @scatter_elements_1d(%data: tensor<16xf32>, %indices: tensor<9xi64>, %updates: tensor<9xf32>) -> tensor<16xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(0) reduction<add> : tensor<16xf32>, tensor<9xi64>, tensor<9xf32>
  return %0 : tensor<16xf32>
}

// -----

// Ops with the same lowering (name, attributes, operand and result types)
// share one function; each call passes its own site, which its messages
// name. Arguments nothing writes (not writable, as nd-donation marks them)
// are read through one buffer that every op's call shares. A scatter's data
// goes in as a buffer of its own per call: a copy of that shared buffer where
// nothing may write the data, else the tensor's buffer (bufferization copies
// it where it must).
// CHECK-LABEL: func.func @shared_functions
//  CHECK-SAME:   (%[[D:[a-zA-Z0-9]+]]: tensor<8x4xf32> {bufferization.writable = false}, %[[I:[a-zA-Z0-9]+]]: tensor<2x1xi64> {bufferization.writable = false}, %[[U:[a-zA-Z0-9]+]]: tensor<2x4xf32> {bufferization.writable = false})
//   CHECK-DAG:   %[[UB:.*]] = bufferization.to_buffer %[[U]] read_only : tensor<2x4xf32> to memref<2x4xf32>
//   CHECK-DAG:   %[[IB:.*]] = bufferization.to_buffer %[[I]] read_only : tensor<2x1xi64> to memref<2x1xi64>
//   CHECK-DAG:   %[[DB:.*]] = bufferization.to_buffer %[[D]] read_only : tensor<8x4xf32> to memref<8x4xf32>
//       CHECK:   %[[G0:.*]] = call @__nd_gather_nd(%[[DB]], %[[IB]]) : (memref<8x4xf32>, memref<2x1xi64>) -> tensor<2x4xf32>
//       CHECK:   %[[G1:.*]] = call @__nd_gather_nd(%[[DB]], %[[IB]]) : (memref<8x4xf32>, memref<2x1xi64>) -> tensor<2x4xf32>
//       CHECK:   %[[B0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x4xf32>
//       CHECK:   memref.copy %[[DB]], %[[B0]] : memref<8x4xf32> to memref<8x4xf32>
//       CHECK:   %[[S0:.*]] = call @__nd_scatter_nd(%[[B0]], %[[IB]], %[[UB]], %{{.*}})
//       CHECK:   %[[B1:.*]] = bufferization.to_buffer %[[S0]] {nd.update = {{[0-9]+}} : i64} : tensor<8x4xf32> to memref<8x4xf32>
//       CHECK:   %[[S1:.*]] = call @__nd_scatter_nd(%[[B1]], %[[IB]], %[[UB]], %{{.*}})
//       CHECK:   %[[S2:.*]] = call @__nd_scatter_nd_0(%{{.*}}, %[[IB]], %[[UB]], %{{.*}})
//       CHECK:   return %[[G0]], %[[G1]], %[[S2]]
// CHECK-LABEL: func.func private @__nd_gather_nd(
//  CHECK-SAME:   %[[GD:[a-zA-Z0-9]+]]: memref<8x4xf32>, %[[GI:[a-zA-Z0-9]+]]: memref<2x1xi64>) -> tensor<2x4xf32>
//   CHECK-NOT: func.func private @__nd_gather_nd
// CHECK-LABEL: func.func private @__nd_scatter_nd(
//   CHECK-NOT: func.func private @__nd_scatter_nd(
// CHECK-LABEL: func.func private @__nd_scatter_nd_0(
//   CHECK-NOT: func.func private @__nd_

// CHECKED-LABEL: func.func @shared_functions
//       CHECKED:   %[[W0:.*]] = call @__nd_site() {nd.site = "{{.*}}lower-scatter.mlir:[[@LINE+12]]:9"} : () -> i64
//       CHECKED:   call @__nd_gather_nd(%{{.*}}, %{{.*}}, %[[W0]])
//       CHECKED:   %[[W1:.*]] = call @__nd_site() {nd.site = "{{.*}}lower-scatter.mlir:[[@LINE+11]]:9"} : () -> i64
//       CHECKED:   call @__nd_gather_nd(%{{.*}}, %{{.*}}, %[[W1]])
// CHECKED-LABEL: func.func private @__nd_gather_nd(
//  CHECKED-SAME:   %{{.*}}: memref<8x4xf32>, %{{.*}}: memref<2x1xi64>, %[[SITE:[a-zA-Z0-9]+]]: i64) -> tensor<2x4xf32>
//       CHECKED:   func.call @__nd_report_error_at(%[[SITE]], %{{.*}}, %{{.*}}) {nd.message = "nd.gather_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)"}
//   CHECKED-NOT: func.func private @__nd_gather_nd
func.func @shared_functions(%data: tensor<8x4xf32> {bufferization.writable = false},
                            %indices: tensor<2x1xi64> {bufferization.writable = false},
                            %updates: tensor<2x4xf32> {bufferization.writable = false})
    -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<8x4xf32>) {
  %g0 = nd.gather_nd %data[%indices] : tensor<8x4xf32>, tensor<2x1xi64> -> tensor<2x4xf32>
  %g1 = nd.gather_nd %data[%indices] : tensor<8x4xf32>, tensor<2x1xi64> -> tensor<2x4xf32>
  %s0 = nd.scatter_nd %data[%indices], %updates : tensor<8x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>
  %s1 = nd.scatter_nd %s0[%indices], %updates : tensor<8x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>
  %s2 = nd.scatter_nd %s1[%indices], %updates reduction<add> : tensor<8x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>
  return %g0, %g1, %s2 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<8x4xf32>
}
