// RUN: nd-opt %s -split-input-file --transform-interpreter -canonicalize -cse | FileCheck %s

// transform.structured.tile_using_forall on every nd op: each tile is the
// same nd op on slices of its operands. A gather's tiles cut its result's
// dims (and the matching dims of data and indices); a scatter's cut the
// dims of its updates that are not update entries (and the same dims of its
// destination, the forall's shared output). Dims that index values address
// are never cut.

// CHECK-LABEL: func.func @gather_nd_batch
// CHECK-SAME: (%[[DATA:.*]]: tensor<4x10x8xf32>, %[[IDX:.*]]: tensor<4x6x1xi64>)
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x6x8xf32>
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in (2, 2) shared_outs(%[[OUT:.*]] = %[[EMPTY]])
// CHECK-DAG: %[[B:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[P:.*]] = affine.apply {{.*}}(%[[J]])
// CHECK-DAG: %[[N:.*]] = affine.min {{.*}}(%[[J]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[DATA]][%[[B]], 0, 0] [2, 10, 8] [1, 1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[B]], %[[P]], 0] [2, %[[N]], 1] [1, 1, 1]
// CHECK: %[[T:.*]] = nd.gather_nd %[[D]][%[[X]]] batch_dims(1) : tensor<2x10x8xf32>, tensor<2x?x1xi64> -> tensor<2x?x8xf32>
// CHECK: tensor.parallel_insert_slice %[[T]] into %[[OUT]][%[[B]], %[[P]], 0] [2, %[[N]], 8]
func.func @gather_nd_batch(%data: tensor<4x10x8xf32>, %idx: tensor<4x6x1xi64>) -> tensor<4x6x8xf32> {
  %0 = nd.gather_nd %data[%idx] batch_dims(1) : tensor<4x10x8xf32>, tensor<4x6x1xi64> -> tensor<4x6x8xf32>
  return %0 : tensor<4x6x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// The indexed dim of data (1) is whole in every tile; the result's dims 1
// and 2 come from indices.
// CHECK-LABEL: func.func @gather_axis
// CHECK-SAME: (%[[DATA:.*]]: tensor<6x10x8xf32>, %[[IDX:.*]]: tensor<3x2xi32>)
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]], %[[K:.*]]) in (3, 3, 2) shared_outs(%[[OUT:.*]] =
// CHECK-DAG: %[[A:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[C:.*]] = affine.apply {{.*}}(%[[K]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[DATA]][%[[A]], 0, %[[C]]] [2, 10, 4] [1, 1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[J]], 0] [1, 2] [1, 1]
// CHECK: %[[T:.*]] = nd.gather %[[D]][%[[X]]] axis(1) : tensor<2x10x4xf32>, tensor<1x2xi32> -> tensor<2x1x2x4xf32>
// CHECK: tensor.parallel_insert_slice %[[T]] into %[[OUT]][%[[A]], %[[J]], 0, %[[C]]] [2, 1, 2, 4]
func.func @gather_axis(%data: tensor<6x10x8xf32>, %idx: tensor<3x2xi32>) -> tensor<6x3x2x8xf32> {
  %0 = nd.gather %data[%idx] axis(1) : tensor<6x10x8xf32>, tensor<3x2xi32> -> tensor<6x3x2x8xf32>
  return %0 : tensor<6x3x2x8xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [2, 1, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Off the axis, data's dim (9) is larger than indices' (7): a tile reads the
// same columns of data.
// CHECK-LABEL: func.func @gather_elements
// CHECK-SAME: (%[[DATA:.*]]: tensor<10x9xf32>, %[[IDX:.*]]: tensor<6x7xi64>)
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in (3, 2) shared_outs(%[[OUT:.*]] =
// CHECK-DAG: %[[R:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[C:.*]] = affine.apply {{.*}}(%[[J]])
// CHECK-DAG: %[[W:.*]] = affine.min {{.*}}(%[[J]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[DATA]][0, %[[C]]] [10, %[[W]]] [1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[R]], %[[C]]] [2, %[[W]]] [1, 1]
// CHECK: %[[T:.*]] = nd.gather_elements %[[D]][%[[X]]] : tensor<10x?xf32>, tensor<2x?xi64> -> tensor<2x?xf32>
// CHECK: tensor.parallel_insert_slice %[[T]] into %[[OUT]][%[[R]], %[[C]]] [2, %[[W]]]
func.func @gather_elements(%data: tensor<10x9xf32>, %idx: tensor<6x7xi64>) -> tensor<6x7xf32> {
  %0 = nd.gather_elements %data[%idx] axis(0) : tensor<10x9xf32>, tensor<6x7xi64> -> tensor<6x7xf32>
  return %0 : tensor<6x7xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A scatter's tiles cut the slice dims: every tile takes every entry (all of
// indices) and updates its columns of the forall's shared output.
// CHECK-LABEL: func.func @scatter_nd_slices
// CHECK-SAME: (%[[DATA:.*]]: tensor<100x64xf32>, %[[IDX:.*]]: tensor<32x1xi64>, %[[UPD:.*]]: tensor<32x64xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (4) shared_outs(%[[OUT:.*]] = %[[DATA]])
// CHECK: %[[C:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[OUT]][0, %[[C]]] [100, 16] [1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][0, %[[C]]] [32, 16] [1, 1]
// CHECK: %[[T:.*]] = nd.scatter_nd %[[D]][%[[IDX]]], %[[U]] reduction<add> : tensor<100x16xf32>, tensor<32x1xi64>, tensor<32x16xf32>
// CHECK: tensor.parallel_insert_slice %[[T]] into %[[OUT]][0, %[[C]]] [100, 16]
func.func @scatter_nd_slices(%data: tensor<100x64xf32>, %idx: tensor<32x1xi64>, %upd: tensor<32x64xf32>) -> tensor<100x64xf32> {
  %0 = nd.scatter_nd %data[%idx], %upd reduction<add> : tensor<100x64xf32>, tensor<32x1xi64>, tensor<32x64xf32>
  return %0 : tensor<100x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// scatter_elements along axis 0: loop 0 holds the entries; loop 1 (columns)
// is cut, in indices, updates and data alike.
// CHECK-LABEL: func.func @scatter_elements
// CHECK-SAME: (%[[DATA:.*]]: tensor<10x9xf32>, %[[IDX:.*]]: tensor<6x7xi64>, %[[UPD:.*]]: tensor<6x7xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (2) shared_outs(%[[OUT:.*]] = %[[DATA]])
// CHECK-DAG: %[[C:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[W:.*]] = affine.min {{.*}}(%[[I]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[OUT]][0, %[[C]]] [10, %[[W]]] [1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][0, %[[C]]] [6, %[[W]]] [1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][0, %[[C]]] [6, %[[W]]] [1, 1]
// CHECK: %[[T:.*]] = nd.scatter_elements %[[D]][%[[X]]], %[[U]] reduction<max> : tensor<10x?xf32>, tensor<6x?xi64>, tensor<6x?xf32>
// CHECK: tensor.parallel_insert_slice %[[T]] into %[[OUT]][0, %[[C]]] [10, %[[W]]]
func.func @scatter_elements(%data: tensor<10x9xf32>, %idx: tensor<6x7xi64>, %upd: tensor<6x7xf32>) -> tensor<10x9xf32> {
  %0 = nd.scatter_elements %data[%idx], %upd axis(0) reduction<max> : tensor<10x9xf32>, tensor<6x7xi64>, tensor<6x7xf32>
  return %0 : tensor<10x9xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.scatter_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A KV-cache write cut by batch entry, head and feature: write_indices
// follows the batch dim; the sequence dim stays whole.
// CHECK-LABEL: func.func @tensor_scatter
// CHECK-SAME: (%[[PAST:.*]]: tensor<2x4x16x8xf16>, %[[W:.*]]: tensor<2xi64>, %[[UPD:.*]]: tensor<2x4x3x8xf16>)
// CHECK: scf.forall (%[[B:.*]], %[[H:.*]], %[[F:.*]]) in (2, 2, 2) shared_outs(%[[OUT:.*]] = %[[PAST]])
// CHECK-DAG: %[[H2:.*]] = affine.apply {{.*}}(%[[H]])
// CHECK-DAG: %[[F4:.*]] = affine.apply {{.*}}(%[[F]])
// CHECK-DAG: %[[C:.*]] = tensor.extract_slice %[[OUT]][%[[B]], %[[H2]], 0, %[[F4]]] [1, 2, 16, 4] [1, 1, 1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][%[[B]], %[[H2]], 0, %[[F4]]] [1, 2, 3, 4] [1, 1, 1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[W]][%[[B]]] [1] [1]
// CHECK: %[[T:.*]] = nd.tensor_scatter %[[C]][%[[X]]], %[[U]] : tensor<1x2x16x4xf16>[tensor<1xi64>], tensor<1x2x3x4xf16>
// CHECK: tensor.parallel_insert_slice %[[T]] into %[[OUT]][%[[B]], %[[H2]], 0, %[[F4]]] [1, 2, 16, 4]
func.func @tensor_scatter(%past: tensor<2x4x16x8xf16>, %w: tensor<2xi64>, %upd: tensor<2x4x3x8xf16>) -> tensor<2x4x16x8xf16> {
  %0 = nd.tensor_scatter %past[%w], %upd : tensor<2x4x16x8xf16>[tensor<2xi64>], tensor<2x4x3x8xf16>
  return %0 : tensor<2x4x16x8xf16>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.tensor_scatter"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [1, 2, 0, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// Dynamic shapes: the loop counts and the last tiles' sizes come from the
// dims of the operands.
// CHECK-LABEL: func.func @gather_nd_dynamic
// CHECK-SAME: (%[[DATA:.*]]: tensor<?x?xf32>, %[[IDX:.*]]: tensor<?x1xi64>)
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[IDX]], %c0
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[DATA]], %c1
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]], %[[M]]) : tensor<?x?xf32>
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in (%{{.*}}, %{{.*}}) shared_outs(%[[OUT:.*]] = %[[EMPTY]])
// CHECK: %[[D:.*]] = tensor.extract_slice %[[DATA]][0, %{{.*}}] [%{{.*}}, %{{.*}}] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK: %[[X:.*]] = tensor.extract_slice %[[IDX]][%{{.*}}, 0] [%{{.*}}, 1] [1, 1] : tensor<?x1xi64> to tensor<?x1xi64>
// CHECK: nd.gather_nd %[[D]][%[[X]]] : tensor<?x?xf32>, tensor<?x1xi64> -> tensor<?x?xf32>
func.func @gather_nd_dynamic(%data: tensor<?x?xf32>, %idx: tensor<?x1xi64>) -> tensor<?x?xf32> {
  %0 = nd.gather_nd %data[%idx] : tensor<?x?xf32>, tensor<?x1xi64> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %op = transform.structured.match ops{["nd.gather_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %op tile_sizes [2, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
