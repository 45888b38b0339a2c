// RUN: nd-opt %s -split-input-file --transform-interpreter -canonicalize -cse | FileCheck %s

// transform.structured.tile_using_for on nd ops. Sequential tiles may cut a
// scatter's update entries too: the tiles run in order, each applying its
// entries in order to what the tiles before left.

// CHECK-LABEL: func.func @scatter_nd_entries
// CHECK-SAME: (%[[DATA:.*]]: tensor<100x64xf32>, %[[IDX:.*]]: tensor<32x1xi64>, %[[UPD:.*]]: tensor<32x64xf32>)
// CHECK: %[[R:.*]] = scf.for %[[E:.*]] = %c0 to %c32 step %c8 iter_args(%[[ACC:.*]] = %[[DATA]])
// CHECK: scf.for %[[C:.*]] = %c0 to %c64 step %c32 iter_args(%[[IN:.*]] = %[[ACC]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[IN]][0, %[[C]]] [100, 32] [1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[E]], 0] [8, 1] [1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][%[[E]], %[[C]]] [8, 32] [1, 1]
// CHECK: %[[T:.*]] = nd.scatter_nd %[[D]][%[[X]]], %[[U]] reduction<add> : tensor<100x32xf32>, tensor<8x1xi64>, tensor<8x32xf32>
// CHECK: %[[NEW:.*]] = tensor.insert_slice %[[T]] into %[[IN]][0, %[[C]]] [100, 32] [1, 1]
// CHECK: scf.yield %[[NEW]]
// CHECK: return %[[R]]
func.func @scatter_nd_entries(%data: tensor<100x64xf32>, %idx: tensor<32x1xi64>, %upd: tensor<32x64xf32>) -> tensor<100x64xf32> {
  %0 = nd.scatter_nd %data[%idx], %upd reduction<add> : tensor<100x64xf32>, tensor<32x1xi64>, tensor<32x64xf32>
  return %0 : tensor<100x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [8, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Entries along axis 0 and columns, partial last tiles; data keeps its rows.
// CHECK-LABEL: func.func @scatter_elements_entries
// CHECK-SAME: (%[[DATA:.*]]: tensor<10x9xi32>, %[[IDX:.*]]: tensor<6x7xi32>, %[[UPD:.*]]: tensor<6x7xi32>)
// CHECK: scf.for %[[E:.*]] = %c0 to %c6 step %c4 iter_args(%[[ACC:.*]] = %[[DATA]])
// CHECK: scf.for %[[C:.*]] = %c0 to %c7 step %c3 iter_args(%[[IN:.*]] = %[[ACC]])
// CHECK-DAG: %[[H:.*]] = affine.min {{.*}}(%[[E]])
// CHECK-DAG: %[[W:.*]] = affine.min {{.*}}(%[[C]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[IN]][0, %[[C]]] [10, %[[W]]] [1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[E]], %[[C]]] [%[[H]], %[[W]]] [1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][%[[E]], %[[C]]] [%[[H]], %[[W]]] [1, 1]
// CHECK: nd.scatter_elements %[[D]][%[[X]]], %[[U]] oob<skip> : tensor<10x?xi32>, tensor<?x?xi32>, tensor<?x?xi32>
func.func @scatter_elements_entries(%data: tensor<10x9xi32>, %idx: tensor<6x7xi32>, %upd: tensor<6x7xi32>) -> tensor<10x9xi32> {
  %0 = nd.scatter_elements %data[%idx], %upd axis(0) oob<skip> : tensor<10x9xi32>, tensor<6x7xi32>, tensor<6x7xi32>
  return %0 : tensor<10x9xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [4, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A gather cut by rows of its result: data's rows follow (axis 1 is the
// indexed dim, whole).
// CHECK-LABEL: func.func @gather_elements_rows
// CHECK-SAME: (%[[DATA:.*]]: tensor<10x9xf32>, %[[IDX:.*]]: tensor<6x7xi64>)
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<6x7xf32>
// CHECK: scf.for %[[R:.*]] = %c0 to %c6 step %c4 iter_args(%[[ACC:.*]] = %[[EMPTY]])
// CHECK: %[[H:.*]] = affine.min {{.*}}(%[[R]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[DATA]][%[[R]], 0] [%[[H]], 9] [1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[R]], 0] [%[[H]], 7] [1, 1]
// CHECK: %[[T:.*]] = nd.gather_elements %[[D]][%[[X]]] axis(1) : tensor<?x9xf32>, tensor<?x7xi64> -> tensor<?x7xf32>
// CHECK: tensor.insert_slice %[[T]] into %[[ACC]][%[[R]], 0] [%[[H]], 7] [1, 1]
func.func @gather_elements_rows(%data: tensor<10x9xf32>, %idx: tensor<6x7xi64>) -> tensor<6x7xf32> {
  %0 = nd.gather_elements %data[%idx] axis(1) : tensor<10x9xf32>, tensor<6x7xi64> -> tensor<6x7xf32>
  return %0 : tensor<6x7xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// nd.gather cut along the dims of indices (result dims 0 and 1).
// CHECK-LABEL: func.func @gather_indices
// CHECK-SAME: (%[[DATA:.*]]: tensor<5x4xi8>, %[[IDX:.*]]: tensor<6x3xi32>)
// CHECK: scf.for %[[I:.*]] = %c0 to %c6 step %c2
// CHECK: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[I]], 0] [2, 3] [1, 1]
// CHECK: nd.gather %[[DATA]][%[[X]]] oob<clamp> : tensor<5x4xi8>, tensor<2x3xi32> -> tensor<2x3x4xi8>
func.func @gather_indices(%data: tensor<5x4xi8>, %idx: tensor<6x3xi32>) -> tensor<6x3x4xi8> {
  %0 = nd.gather %data[%idx] oob<clamp> : tensor<5x4xi8>, tensor<6x3xi32> -> tensor<6x3x4xi8>
  return %0 : tensor<6x3x4xi8>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_for %op tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A gather_nd's batch and slice dims; the indexed rows of data stay whole,
// and the batch dim cuts data and indices alike.
// CHECK-LABEL: func.func @gather_nd_batch
// CHECK-SAME: (%[[DATA:.*]]: tensor<4x10x6xf32>, %[[IDX:.*]]: tensor<4x5x1xi64>)
// CHECK: scf.for %[[B:.*]] = %c0 to %c4 step %c2
// CHECK: scf.for %[[C:.*]] = %c0 to %c6 step %c4
// CHECK: %[[W:.*]] = affine.min {{.*}}(%[[C]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[DATA]][%[[B]], 0, %[[C]]] [2, 10, %[[W]]] [1, 1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[B]], 0, 0] [2, 5, 1] [1, 1, 1]
// CHECK: %[[T:.*]] = nd.gather_nd %[[D]][%[[X]]] batch_dims(1) oob<clamp> : tensor<2x10x?xf32>, tensor<2x5x1xi64> -> tensor<2x5x?xf32>
// CHECK: tensor.insert_slice %[[T]] into %{{.*}}[%[[B]], 0, %[[C]]] [2, 5, %[[W]]] [1, 1, 1]
func.func @gather_nd_batch(%data: tensor<4x10x6xf32>, %idx: tensor<4x5x1xi64>) -> tensor<4x5x6xf32> {
  %0 = nd.gather_nd %data[%idx] batch_dims(1) oob<clamp> : tensor<4x10x6xf32>, tensor<4x5x1xi64> -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [2, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A tensor_scatter's batch entries and heads, in circular mode; the
// sequence axis (where the update lands, wrapping) is never cut.
// CHECK-LABEL: func.func @tensor_scatter_circular
// CHECK-SAME: (%[[PAST:.*]]: tensor<2x4x16x8xf16>, %[[W:.*]]: tensor<2xi64>, %[[UPD:.*]]: tensor<2x4x3x8xf16>)
// CHECK: scf.for %[[B:.*]] = %c0 to %c2 step %c1 iter_args(%[[ACC:.*]] = %[[PAST]])
// CHECK: scf.for %[[H:.*]] = %c0 to %c4 step %c3 iter_args(%[[IN:.*]] = %[[ACC]])
// CHECK: %[[N:.*]] = affine.min {{.*}}(%[[H]])
// CHECK-DAG: %[[C:.*]] = tensor.extract_slice %[[IN]][%[[B]], %[[H]], 0, 0] [1, %[[N]], 16, 8] [1, 1, 1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][%[[B]], %[[H]], 0, 0] [1, %[[N]], 3, 8] [1, 1, 1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[W]][%[[B]]] [1] [1]
// CHECK: %[[T:.*]] = nd.tensor_scatter %[[C]][%[[X]]], %[[U]] mode<circular> : tensor<1x?x16x8xf16>[tensor<1xi64>], tensor<1x?x3x8xf16>
// CHECK: tensor.insert_slice %[[T]] into %[[IN]][%[[B]], %[[H]], 0, 0] [1, %[[N]], 16, 8] [1, 1, 1, 1]
func.func @tensor_scatter_circular(%past: tensor<2x4x16x8xf16>, %w: tensor<2xi64>, %upd: tensor<2x4x3x8xf16>) -> tensor<2x4x16x8xf16> {
  %0 = nd.tensor_scatter %past[%w], %upd mode<circular> : tensor<2x4x16x8xf16>[tensor<2xi64>], tensor<2x4x3x8xf16>
  return %0 : tensor<2x4x16x8xf16>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.tensor_scatter"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %op tile_sizes [1, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
