// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false -cse | FileCheck %s
// RUN: nd-opt %s -split-input-file --lower-scatter -cse | FileCheck %s --check-prefix=CHECKED
// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false -cse | FileCheck %s --check-prefix=UNCHECKED

// Without checks nothing of the error path is emitted.
// UNCHECKED-NOT: __nd_report_error
// UNCHECKED-NOT: llvm.
// UNCHECKED-NOT: scf.if
// UNCHECKED-NOT: nd.

//===----------------------------------------------------------------------===//
// gather_nd
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @gather_nd_static
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<2x2x2xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<2x1xi64>
//       CHECK:   %[[INIT:.*]] = tensor.empty() : tensor<2x2x2xf32>
//       CHECK:   %[[G:.*]] = linalg.generic
//  CHECK-SAME:     iterator_types = ["parallel", "parallel", "parallel"]
//  CHECK-SAME:     outs(%[[INIT]] : tensor<2x2x2xf32>)
//       CHECK:     %[[I0:.*]] = linalg.index 0 : index
//       CHECK:     %[[I1:.*]] = linalg.index 1 : index
//       CHECK:     %[[I2:.*]] = linalg.index 2 : index
//       CHECK:     %[[RAW:.*]] = tensor.extract %[[IND]][%[[I0]], %{{.*}}] : tensor<2x1xi64>
//       CHECK:     %[[IDX:.*]] = arith.index_cast %[[RAW]] : i64 to index
//       CHECK:     %[[NEG:.*]] = arith.cmpi slt, %[[IDX]], %{{.*}} : index
//       CHECK:     %[[WRAP:.*]] = arith.addi %[[IDX]], %{{.*}} : index
//       CHECK:     %[[N:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[IDX]] : index
//       CHECK:     %[[V:.*]] = tensor.extract %[[DATA]][%[[N]], %[[I1]], %[[I2]]] : tensor<2x2x2xf32>
//       CHECK:     linalg.yield %[[V]] : f32
//       CHECK:   return %[[G]]
func.func @gather_nd_static(%data: tensor<2x2x2xf32>, %indices: tensor<2x1xi64>) -> tensor<2x2x2xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<2x2x2xf32>, tensor<2x1xi64> -> tensor<2x2x2xf32>
  return %0 : tensor<2x2x2xf32>
}

// -----

// Batch dims index data directly; dynamic dims come from tensor.dim.
// CHECK-LABEL: func.func @gather_nd_batch_dynamic
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<?x4x5x6xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<?x3x2xi32>
//       CHECK:   %[[DIM:.*]] = tensor.dim %[[IND]], %{{.*}} : tensor<?x3x2xi32>
//       CHECK:   %[[INIT:.*]] = tensor.empty(%[[DIM]]) : tensor<?x3x6xf32>
//       CHECK:   linalg.generic
//       CHECK:     %[[B:.*]] = linalg.index 0 : index
//       CHECK:     %[[P:.*]] = linalg.index 1 : index
//       CHECK:     %[[S:.*]] = linalg.index 2 : index
//       CHECK:     tensor.extract %[[IND]][%[[B]], %[[P]], %{{.*}}] : tensor<?x3x2xi32>
//       CHECK:     arith.index_cast %{{.*}} : i32 to index
//       CHECK:     tensor.extract %[[IND]][%[[B]], %[[P]], %{{.*}}] : tensor<?x3x2xi32>
//       CHECK:     %[[V:.*]] = tensor.extract %[[DATA]][%[[B]], %{{.*}}, %{{.*}}, %[[S]]] : tensor<?x4x5x6xf32>
//       CHECK:     linalg.yield %[[V]]
func.func @gather_nd_batch_dynamic(%data: tensor<?x4x5x6xf32>, %indices: tensor<?x3x2xi32>) -> tensor<?x3x6xf32> {
  %0 = nd.gather_nd %data[%indices] batch_dims(1) : tensor<?x4x5x6xf32>, tensor<?x3x2xi32> -> tensor<?x3x6xf32>
  return %0 : tensor<?x3x6xf32>
}

// CHECKED-LABEL: func.func @gather_nd_batch_dynamic
// The batch dims of data and indices are compared at run time, then every
// index component is checked before the gather.
//       CHECKED:   %[[DB:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?x3x2xi32>
//       CHECKED:   %[[IB:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x4x5x6xf32>
//       CHECKED:   %[[NE:.*]] = arith.cmpi ne, %[[DB]], %[[IB]] : index
//       CHECKED:   scf.if %[[NE]] {
//       CHECKED:     llvm.mlir.addressof @[[DIMMSG:__nd_msg_[0-9]+]]
//       CHECKED:     llvm.call @__nd_report_error
//       CHECKED:   scf.for
//       CHECKED:     scf.for
//       CHECKED:       arith.cmpi uge
//       CHECKED:       scf.if
//       CHECKED:         llvm.call @__nd_report_error
//       CHECKED:       arith.cmpi uge
//       CHECKED:       scf.if
//       CHECKED:         llvm.call @__nd_report_error
//       CHECKED:   linalg.generic
//   CHECKED-NOT:     scf.if
//       CHECKED:     linalg.yield

// -----

//===----------------------------------------------------------------------===//
// gather_elements
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @gather_elements
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<3x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<2x2xindex>
//       CHECK:   %[[INIT:.*]] = tensor.empty() : tensor<2x2xf32>
//       CHECK:   %[[SIZE:.*]] = tensor.dim %[[DATA]], %{{.*}} : tensor<3x?xf32>
//       CHECK:   linalg.generic
//  CHECK-SAME:     ins(%[[IND]] : tensor<2x2xindex>) outs(%[[INIT]] : tensor<2x2xf32>)
//       CHECK:   ^bb0(%[[IN:.*]]: index, %{{.*}}: f32):
//       CHECK:     %[[I0:.*]] = linalg.index 0 : index
//       CHECK:     %[[NEG:.*]] = arith.cmpi slt, %[[IN]], %{{.*}} : index
//       CHECK:     %[[WRAP:.*]] = arith.addi %[[IN]], %[[SIZE]] : index
//       CHECK:     %[[N:.*]] = arith.select %[[NEG]], %[[WRAP]], %[[IN]] : index
//       CHECK:     %[[V:.*]] = tensor.extract %[[DATA]][%[[I0]], %[[N]]] : tensor<3x?xf32>
//       CHECK:     linalg.yield %[[V]] : f32
func.func @gather_elements(%data: tensor<3x?xf32>, %indices: tensor<2x2xindex>) -> tensor<2x2xf32> {
  %0 = nd.gather_elements %data[%indices] axis(1) : tensor<3x?xf32>, tensor<2x2xindex> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// CHECKED-LABEL: func.func @gather_elements
// The off-axis dim 0 is static on both sides: no run-time shape check.
//   CHECKED-NOT:   arith.cmpi ugt
//       CHECKED:   scf.for
//       CHECKED:     scf.for
//       CHECKED:       arith.cmpi uge
//       CHECKED:       scf.if
//       CHECKED:   linalg.generic

// -----

//===----------------------------------------------------------------------===//
// scatter_nd
//===----------------------------------------------------------------------===//

// One element per entry: extract the index tuple, insert the update.
// CHECK-LABEL: func.func @scatter_nd_elements
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<4x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<3x2xi64>
//  CHECK-SAME:   %[[UPD:[a-zA-Z0-9]+]]: tensor<3xf32>
//       CHECK:   %[[R:.*]] = scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[DATA]]) -> (tensor<4x?xf32>)
//       CHECK:     tensor.extract %[[IND]][%[[IV]], %{{.*}}] : tensor<3x2xi64>
//       CHECK:     %[[T0:.*]] = arith.select
//       CHECK:     tensor.extract %[[IND]][%[[IV]], %{{.*}}] : tensor<3x2xi64>
//       CHECK:     %[[T1:.*]] = arith.select
//       CHECK:     %[[U:.*]] = tensor.extract %[[UPD]][%[[IV]]] : tensor<3xf32>
//       CHECK:     %[[INS:.*]] = tensor.insert %[[U]] into %[[ACC]][%[[T0]], %[[T1]]] : tensor<4x?xf32>
//       CHECK:     scf.yield %[[INS]]
//       CHECK:   return %[[R]]
func.func @scatter_nd_elements(%data: tensor<4x?xf32>, %indices: tensor<3x2xi64>, %updates: tensor<3xf32>) -> tensor<4x?xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<4x?xf32>, tensor<3x2xi64>, tensor<3xf32>
  return %0 : tensor<4x?xf32>
}

// CHECKED-LABEL: func.func @scatter_nd_elements
// The validation loop runs before the loop that writes.
//       CHECKED:   scf.for
//       CHECKED:     scf.if
//       CHECKED:       llvm.call @__nd_report_error
//       CHECKED:     scf.if
//       CHECKED:       llvm.call @__nd_report_error
//       CHECKED:   scf.for {{.*}} iter_args
//   CHECKED-NOT:     llvm.call
//       CHECKED:     tensor.insert

// -----

// Slices with reduction none: each entry copies its slice with a linalg.copy
// into the slice in place, then inserts it back.
// CHECK-LABEL: func.func @scatter_nd_slices
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<4x4x4xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<2x1xi64>
//  CHECK-SAME:   %[[UPD:[a-zA-Z0-9]+]]: tensor<2x4x4xf32>
//       CHECK:   scf.for %[[IV:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[DATA]])
//       CHECK:     %[[T:.*]] = arith.select
//       CHECK:     %[[S:.*]] = tensor.extract_slice %[[UPD]][%[[IV]], 0, 0] [1, 4, 4] [1, 1, 1] : tensor<2x4x4xf32> to tensor<4x4xf32>
//       CHECK:     %[[CUR:.*]] = tensor.extract_slice %[[ACC]][%[[T]], 0, 0] [1, 4, 4] [1, 1, 1] : tensor<4x4x4xf32> to tensor<4x4xf32>
//       CHECK:     %[[G:.*]] = linalg.copy ins(%[[S]] : tensor<4x4xf32>) outs(%[[CUR]] : tensor<4x4xf32>)
//       CHECK:     %[[INS:.*]] = tensor.insert_slice %[[G]] into %[[ACC]][%[[T]], 0, 0] [1, 4, 4] [1, 1, 1] : tensor<4x4xf32> into tensor<4x4x4xf32>
//       CHECK:     scf.yield %[[INS]]
func.func @scatter_nd_slices(%data: tensor<4x4x4xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2x4x4xf32>) -> tensor<4x4x4xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
  return %0 : tensor<4x4x4xf32>
}

// -----

// Slices with a reduction: the slice in place is combined by a linalg.generic.
// CHECK-LABEL: func.func @scatter_nd_slices_add
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<4x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<3x1xi64>
//  CHECK-SAME:   %[[UPD:[a-zA-Z0-9]+]]: tensor<3x?xf32>
//       CHECK:   %[[DIM:.*]] = tensor.dim %[[DATA]], %{{.*}} : tensor<4x?xf32>
//       CHECK:   scf.for %[[IV:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[DATA]])
//       CHECK:     %[[T:.*]] = arith.select
//       CHECK:     %[[U:.*]] = tensor.extract_slice %[[UPD]][%[[IV]], 0] [1, %[[DIM]]] [1, 1] : tensor<3x?xf32> to tensor<?xf32>
//       CHECK:     %[[CUR:.*]] = tensor.extract_slice %[[ACC]][%[[T]], 0] [1, %[[DIM]]] [1, 1] : tensor<4x?xf32> to tensor<?xf32>
//       CHECK:     %[[G:.*]] = linalg.generic
//  CHECK-SAME:       ins(%[[U]] : tensor<?xf32>) outs(%[[CUR]] : tensor<?xf32>)
//       CHECK:     ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
//       CHECK:       %[[SUM:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
//       CHECK:       linalg.yield %[[SUM]]
//       CHECK:     tensor.insert_slice %[[G]] into %[[ACC]][%[[T]], 0] [1, %[[DIM]]] [1, 1]
func.func @scatter_nd_slices_add(%data: tensor<4x?xf32>, %indices: tensor<3x1xi64>, %updates: tensor<3x?xf32>) -> tensor<4x?xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<4x?xf32>, tensor<3x1xi64>, tensor<3x?xf32>
  return %0 : tensor<4x?xf32>
}

// CHECKED-LABEL: func.func @scatter_nd_slices_add
// updates dim 1 and data dim 1 are both dynamic: compared at run time.
//       CHECKED:   %[[U1:.*]] = tensor.dim %arg2, %{{.*}} : tensor<3x?xf32>
//       CHECKED:   %[[D1:.*]] = tensor.dim %arg0, %{{.*}} : tensor<4x?xf32>
//       CHECKED:   %[[NE:.*]] = arith.cmpi ne, %[[U1]], %[[D1]] : index
//       CHECKED:   scf.if %[[NE]]

// -----

// No loop at all for a single index tuple (rank(indices) == 1); OpenVINO's
// one-element updates tensor is read at [0, 0].
// CHECK-LABEL: func.func @scatter_nd_single_openvino
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<2x2xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<2xi64>
//  CHECK-SAME:   %[[UPD:[a-zA-Z0-9]+]]: tensor<1x1xf32>
//   CHECK-NOT:   scf.for
//       CHECK:   %[[Z:.*]] = arith.constant 0 : index
//       CHECK:   %[[U:.*]] = tensor.extract %[[UPD]][%[[Z]], %[[Z]]] : tensor<1x1xf32>
//       CHECK:   %[[R:.*]] = tensor.insert %[[U]] into %[[DATA]]
//       CHECK:   return %[[R]]
func.func @scatter_nd_single_openvino(%data: tensor<2x2xf32>, %indices: tensor<2xi64>, %updates: tensor<1x1xf32>) -> tensor<2x2xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<2x2xf32>, tensor<2xi64>, tensor<1x1xf32>
  return %0 : tensor<2x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Reductions, per element type
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reductions_float
//       CHECK:   arith.addf
//       CHECK:   arith.mulf
//       CHECK:   arith.maximumf
//       CHECK:   arith.minimumf
func.func @reductions_float(%d: tensor<8xf16>, %i: tensor<2x1xi64>, %u: tensor<2xf16>) -> (tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>) {
  %0 = nd.scatter_nd %d[%i], %u reduction<add> : tensor<8xf16>, tensor<2x1xi64>, tensor<2xf16>
  %1 = nd.scatter_nd %d[%i], %u reduction<mul> : tensor<8xf16>, tensor<2x1xi64>, tensor<2xf16>
  %2 = nd.scatter_nd %d[%i], %u reduction<max> : tensor<8xf16>, tensor<2x1xi64>, tensor<2xf16>
  %3 = nd.scatter_nd %d[%i], %u reduction<min> : tensor<8xf16>, tensor<2x1xi64>, tensor<2xf16>
  return %0, %1, %2, %3 : tensor<8xf16>, tensor<8xf16>, tensor<8xf16>, tensor<8xf16>
}

// -----

// CHECK-LABEL: func.func @reductions_signed
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

// Unsigned integers go through signless for the arith op and compare unsigned.
// CHECK-LABEL: func.func @reductions_unsigned
//       CHECK:   %[[OLD:.*]] = tensor.extract %{{.*}} : tensor<4xui8>
//       CHECK:   %[[A:.*]] = builtin.unrealized_conversion_cast %[[OLD]] : ui8 to i8
//       CHECK:   %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : ui8 to i8
//       CHECK:   %[[M:.*]] = arith.maxui %[[A]], %[[B]] : i8
//       CHECK:   %[[R:.*]] = builtin.unrealized_conversion_cast %[[M]] : i8 to ui8
//       CHECK:   tensor.insert %[[R]]
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

// A loop per dim of indices; the axis coordinate is replaced by the index.
// CHECK-LABEL: func.func @scatter_elements
//  CHECK-SAME:   %[[DATA:[a-zA-Z0-9]+]]: tensor<?x5xi8>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<?x2xi32>
//  CHECK-SAME:   %[[UPD:[a-zA-Z0-9]+]]: tensor<?x2xi8>
//       CHECK:   scf.for %[[I:.*]] = {{.*}} iter_args(%[[A0:.*]] = %[[DATA]]) -> (tensor<?x5xi8>)
//       CHECK:     scf.for %[[J:.*]] = {{.*}} iter_args(%[[A1:.*]] = %[[A0]]) -> (tensor<?x5xi8>)
//       CHECK:       tensor.extract %[[IND]][%[[I]], %[[J]]] : tensor<?x2xi32>
//       CHECK:       %[[T:.*]] = arith.select
//       CHECK:       %[[U:.*]] = tensor.extract %[[UPD]][%[[I]], %[[J]]] : tensor<?x2xi8>
//       CHECK:       %[[OLD:.*]] = tensor.extract %[[A1]][%[[I]], %[[T]]] : tensor<?x5xi8>
//       CHECK:       %[[M:.*]] = arith.maxsi %[[OLD]], %[[U]] : i8
//       CHECK:       tensor.insert %[[M]] into %[[A1]][%[[I]], %[[T]]] : tensor<?x5xi8>
func.func @scatter_elements(%data: tensor<?x5xi8>, %indices: tensor<?x2xi32>, %updates: tensor<?x2xi8>) -> tensor<?x5xi8> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(-1) reduction<max> : tensor<?x5xi8>, tensor<?x2xi32>, tensor<?x2xi8>
  return %0 : tensor<?x5xi8>
}

// CHECKED: llvm.mlir.global internal constant @{{__nd_msg_[0-9]+}}("error: {{.*}}lower-scatter.mlir:[[#]]:[[#]]: nd.scatter_elements: index %lld in operand 'indices' is out of range for dim 1 of operand 'data' (size %lld)\0A\00")
// CHECKED: llvm.mlir.global internal constant @{{__nd_msg_[0-9]+}}("error: {{.*}}: nd.scatter_elements: operand 'indices' dim 0 (%lld) exceeds operand 'data' dim 0 (%lld)\0A\00")
// CHECKED: llvm.mlir.global internal constant @{{__nd_msg_[0-9]+}}("error: {{.*}}: nd.scatter_elements: operand 'updates' dim 0 (%lld) does not match operand 'indices' dim 0 (%lld)\0A\00")
// CHECKED: llvm.mlir.global external @stderr()
// CHECKED: llvm.func @exit(i32)
// CHECKED: llvm.func @fprintf(!llvm.ptr, !llvm.ptr, ...) -> i32
// CHECKED-LABEL: func.func @scatter_elements
//       CHECKED:   arith.cmpi ne
//       CHECKED:   arith.cmpi ugt
//       CHECKED:   scf.for
//       CHECKED:     scf.for
//       CHECKED:       arith.cmpi uge
// CHECKED-LABEL: llvm.func internal @__nd_report_error(%{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64)
//  CHECKED-SAME:   passthrough = ["noreturn", "cold", "noinline"]
//       CHECKED:   %[[ADDR:.*]] = llvm.mlir.addressof @stderr
//       CHECKED:   %[[STREAM:.*]] = llvm.load %[[ADDR]]
//       CHECKED:   llvm.call @fprintf(%[[STREAM]], %{{.*}}, %{{.*}}, %{{.*}}) vararg
//       CHECKED:   llvm.call @exit
//       CHECKED:   llvm.unreachable
