// RUN: nd-opt %s -split-input-file --transform-interpreter -canonicalize -cse | FileCheck %s

// Fusion of nd ops into tiled consumers: each consumer tile computes the
// producer's tile it reads (a gather of the tile's rows and columns), not a
// clone of the whole op.

// fuse_into_containing_op: a gather into a forall-tiled linalg.exp.
// CHECK-LABEL: func.func @gather_into_forall
// CHECK-SAME: (%[[DATA:.*]]: tensor<100x64xf32>, %[[IDX:.*]]: tensor<32xi64>)
// CHECK-NOT: nd.gather
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in (4, 4) shared_outs(%[[OUT:.*]] =
// CHECK-DAG: %[[R:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[C:.*]] = affine.apply {{.*}}(%[[J]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[DATA]][0, %[[C]]] [100, 16] [1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[R]]] [8] [1]
// CHECK: %[[G:.*]] = nd.gather %[[D]][%[[X]]] : tensor<100x16xf32>, tensor<8xi64> -> tensor<8x16xf32>
// CHECK: linalg.exp ins(%[[G]] : tensor<8x16xf32>)
func.func @gather_into_forall(%data: tensor<100x64xf32>, %idx: tensor<32xi64>) -> tensor<32x64xf32> {
  %0 = nd.gather %data[%idx] : tensor<100x64xf32>, tensor<32xi64> -> tensor<32x64xf32>
  %e = tensor.empty() : tensor<32x64xf32>
  %1 = linalg.exp ins(%0 : tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %1 : tensor<32x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.structured.match ops{["nd.gather"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %e tile_sizes [8, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %nl = transform.structured.fuse_into_containing_op %g into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// transform.structured.fuse: tile a consumer and fuse its chain of
// producers (an embedding lookup, then a gather along its rows). The
// gather_elements tile reads whole rows of the gather_nd result (axis 1 is
// indexed), so the gather_nd tile is 8 rows of 64.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[DATA:.*]]: tensor<100x64xf32>, %[[IDX:.*]]: tensor<32x1xi64>, %[[IDX2:.*]]: tensor<32x64xi64>)
// CHECK: scf.for %[[R:.*]] = %c0 to %c32 step %c8
// CHECK: scf.for %[[C:.*]] = %c0 to %c64 step %c16
// CHECK: %[[X:.*]] = tensor.extract_slice %[[IDX]][%[[R]], 0] [8, 1] [1, 1]
// CHECK: %[[ROWS:.*]] = nd.gather_nd %[[DATA]][%[[X]]] : tensor<100x64xf32>, tensor<8x1xi64> -> tensor<8x64xf32>
// CHECK: %[[X2:.*]] = tensor.extract_slice %[[IDX2]][%[[R]], %[[C]]] [8, 16] [1, 1]
// CHECK: %[[E:.*]] = nd.gather_elements %[[ROWS]][%[[X2]]] axis(1) : tensor<8x64xf32>, tensor<8x16xi64> -> tensor<8x16xf32>
// CHECK: linalg.exp ins(%[[E]] : tensor<8x16xf32>)
func.func @chain(%data: tensor<100x64xf32>, %idx: tensor<32x1xi64>, %idx2: tensor<32x64xi64>) -> tensor<32x64xf32> {
  %0 = nd.gather_nd %data[%idx] : tensor<100x64xf32>, tensor<32x1xi64> -> tensor<32x64xf32>
  %1 = nd.gather_elements %0[%idx2] axis(1) : tensor<32x64xf32>, tensor<32x64xi64> -> tensor<32x64xf32>
  %e = tensor.empty() : tensor<32x64xf32>
  %2 = linalg.exp ins(%1 : tensor<32x64xf32>) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %2 : tensor<32x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.fuse %e tile_sizes [8, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A scatter fused into a consumer tiled by columns: the scatter's tile
// updates the same columns of data with the same columns of every update.
// CHECK-LABEL: func.func @scatter_columns
// CHECK-SAME: (%[[DATA:.*]]: tensor<100x64xf32>, %[[IDX:.*]]: tensor<32x1xi64>, %[[UPD:.*]]: tensor<32x64xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (4)
// CHECK: %[[C:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[DATA]][0, %[[C]]] [100, 16] [1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][0, %[[C]]] [32, 16] [1, 1]
// CHECK: %[[S:.*]] = nd.scatter_nd %[[D]][%[[IDX]]], %[[U]] reduction<add> : tensor<100x16xf32>, tensor<32x1xi64>, tensor<32x16xf32>
// CHECK: linalg.exp ins(%[[S]] : tensor<100x16xf32>)
func.func @scatter_columns(%data: tensor<100x64xf32>, %idx: tensor<32x1xi64>, %upd: tensor<32x64xf32>) -> tensor<100x64xf32> {
  %0 = nd.scatter_nd %data[%idx], %upd reduction<add> : tensor<100x64xf32>, tensor<32x1xi64>, tensor<32x64xf32>
  %e = tensor.empty() : tensor<100x64xf32>
  %1 = linalg.exp ins(%0 : tensor<100x64xf32>) outs(%e : tensor<100x64xf32>) -> tensor<100x64xf32>
  return %1 : tensor<100x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.match ops{["nd.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %e tile_sizes [0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %nl = transform.structured.fuse_into_containing_op %s into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A consumer tile that cuts the rows a scatter's indices address: the
// scatter computes its columns for every row (rows are never cut) and the
// consumer's rows are sliced out of that.
// CHECK-LABEL: func.func @scatter_rows_widened
// CHECK-SAME: (%[[DATA:.*]]: tensor<100x64xf32>, %[[IDX:.*]]: tensor<32x1xi64>, %[[UPD:.*]]: tensor<32x64xf32>)
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) in (10, 4)
// CHECK-DAG: %[[R:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[C:.*]] = affine.apply {{.*}}(%[[J]])
// CHECK: %[[D:.*]] = tensor.extract_slice %[[DATA]][0, %[[C]]] [100, 16] [1, 1]
// CHECK: %[[S:.*]] = nd.scatter_nd %[[D]][%[[IDX]]], %{{.*}} reduction<add> : tensor<100x16xf32>
// CHECK: %[[PART:.*]] = tensor.extract_slice %[[S]][%[[R]], 0] [10, 16] [1, 1]
// CHECK: linalg.exp ins(%[[PART]] : tensor<10x16xf32>)
func.func @scatter_rows_widened(%data: tensor<100x64xf32>, %idx: tensor<32x1xi64>, %upd: tensor<32x64xf32>) -> tensor<100x64xf32> {
  %0 = nd.scatter_nd %data[%idx], %upd reduction<add> : tensor<100x64xf32>, tensor<32x1xi64>, tensor<32x64xf32>
  %e = tensor.empty() : tensor<100x64xf32>
  %1 = linalg.exp ins(%0 : tensor<100x64xf32>) outs(%e : tensor<100x64xf32>) -> tensor<100x64xf32>
  return %1 : tensor<100x64xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.match ops{["nd.scatter_nd"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %e tile_sizes [10, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %nl = transform.structured.fuse_into_containing_op %s into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A scatter_elements along axis 0 fused into a consumer tiled by columns:
// every update of a column lands in that column, so the tile scatters the
// columns of indices and updates into the columns of data.
// CHECK-LABEL: func.func @scatter_elements_columns
// CHECK-SAME: (%[[DATA:.*]]: tensor<10x9xf32>, %[[IDX:.*]]: tensor<6x9xi64>, %[[UPD:.*]]: tensor<6x9xf32>)
// CHECK: scf.forall (%[[I:.*]]) in (3)
// CHECK: %[[C:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[DATA]][0, %[[C]]] [10, 3] [1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][0, %[[C]]] [6, 3] [1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][0, %[[C]]] [6, 3] [1, 1]
// CHECK: %[[S:.*]] = nd.scatter_elements %[[D]][%[[X]]], %[[U]] reduction<max> : tensor<10x3xf32>, tensor<6x3xi64>, tensor<6x3xf32>
// CHECK: linalg.exp ins(%[[S]] : tensor<10x3xf32>)
func.func @scatter_elements_columns(%data: tensor<10x9xf32>, %idx: tensor<6x9xi64>, %upd: tensor<6x9xf32>) -> tensor<10x9xf32> {
  %0 = nd.scatter_elements %data[%idx], %upd axis(0) reduction<max> : tensor<10x9xf32>, tensor<6x9xi64>, tensor<6x9xf32>
  %e = tensor.empty() : tensor<10x9xf32>
  %1 = linalg.exp ins(%0 : tensor<10x9xf32>) outs(%e : tensor<10x9xf32>) -> tensor<10x9xf32>
  return %1 : tensor<10x9xf32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.exp"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.match ops{["nd.scatter_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %e tile_sizes [0, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %nl = transform.structured.fuse_into_containing_op %s into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A tensor_scatter fused into a consumer tiled by batch entry and heads:
// the tile writes its entry's update into its heads of the cache.
// CHECK-LABEL: func.func @tensor_scatter_heads
// CHECK-SAME: (%[[PAST:.*]]: tensor<2x4x16x8xf16>, %[[W:.*]]: tensor<2xi64>, %[[UPD:.*]]: tensor<2x4x3x8xf16>)
// CHECK: scf.forall (%[[B:.*]], %[[I:.*]]) in (2, 2)
// CHECK: %[[H:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[C:.*]] = tensor.extract_slice %[[PAST]][%[[B]], %[[H]], 0, 0] [1, 2, 16, 8] [1, 1, 1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][%[[B]], %[[H]], 0, 0] [1, 2, 3, 8] [1, 1, 1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[W]][%[[B]]] [1] [1]
// CHECK: %[[S:.*]] = nd.tensor_scatter %[[C]][%[[X]]], %[[U]] : tensor<1x2x16x8xf16>[tensor<1xi64>], tensor<1x2x3x8xf16>
// CHECK: linalg.negf ins(%[[S]] : tensor<1x2x16x8xf16>)

func.func @tensor_scatter_heads(%past: tensor<2x4x16x8xf16>, %w: tensor<2xi64>, %upd: tensor<2x4x3x8xf16>) -> tensor<2x4x16x8xf16> {
  %0 = nd.tensor_scatter %past[%w], %upd : tensor<2x4x16x8xf16>[tensor<2xi64>], tensor<2x4x3x8xf16>
  %e = tensor.empty() : tensor<2x4x16x8xf16>
  %1 = linalg.negf ins(%0 : tensor<2x4x16x8xf16>) outs(%e : tensor<2x4x16x8xf16>) -> tensor<2x4x16x8xf16>
  return %1 : tensor<2x4x16x8xf16>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %e = transform.structured.match ops{["linalg.negf"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.match ops{["nd.tensor_scatter"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %e tile_sizes [1, 2, 0, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %nl = transform.structured.fuse_into_containing_op %s into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// A scatter_elements whose data is wider than its indices off the axis
// (4 columns, 2 of indices), fused into a consumer tiled by 2 columns: the
// tile scatters into its columns of data the part of the indices and
// updates inside them, [min(c, 2), min(c + 2, 2)), empty for the columns
// past the indices (never a slice of indices past their extent).
// CHECK-DAG: #[[START:.*]] = affine_map<(d0) -> (2, d0 * 2)>
// CHECK-DAG: #[[END:.*]] = affine_map<(d0) -> (2, d0 * 2 + 2)>
// CHECK-LABEL: func.func @scatter_elements_wider_data
// CHECK-SAME: (%[[DATA:.*]]: tensor<4x4xi32>, %[[IDX:.*]]: tensor<2x2xi64>, %[[UPD:.*]]: tensor<2x2xi32>)
// CHECK: scf.forall (%[[I:.*]]) in (2)
// CHECK-DAG: %[[C:.*]] = affine.apply {{.*}}(%[[I]])
// CHECK-DAG: %[[S:.*]] = affine.min #[[START]](%[[I]])
// CHECK-DAG: %[[E:.*]] = affine.min #[[END]](%[[I]])
// CHECK-DAG: %[[N:.*]] = affine.apply {{.*}}(%[[E]], %[[S]])
// CHECK-DAG: %[[D:.*]] = tensor.extract_slice %[[DATA]][0, %[[C]]] [4, 2] [1, 1]
// CHECK-DAG: %[[X:.*]] = tensor.extract_slice %[[IDX]][0, %[[S]]] [2, %[[N]]] [1, 1]
// CHECK-DAG: %[[U:.*]] = tensor.extract_slice %[[UPD]][0, %[[S]]] [2, %[[N]]] [1, 1]
// CHECK: %[[T:.*]] = nd.scatter_elements %[[D]][%[[X]]], %[[U]] : tensor<4x2xi32>, tensor<2x?xi64>, tensor<2x?xi32>
// CHECK: tensor.parallel_insert_slice %[[T]] into %{{.*}}[0, %[[C]]] [4, 2] [1, 1]
func.func @scatter_elements_wider_data(%data: tensor<4x4xi32>, %idx: tensor<2x2xi64>, %upd: tensor<2x2xi32>) -> tensor<4x4xi32> {
  %0 = nd.scatter_elements %data[%idx], %upd axis(0) : tensor<4x4xi32>, tensor<2x2xi64>, tensor<2x2xi32>
  %e = tensor.empty() : tensor<4x4xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%0 : tensor<4x4xi32>) outs(%e : tensor<4x4xi32>) {
  ^bb0(%x: i32, %y: i32):
    linalg.yield %x : i32
  } -> tensor<4x4xi32>
  return %1 : tensor<4x4xi32>
}
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %g = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %s = transform.structured.match ops{["nd.scatter_elements"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l = transform.structured.tile_using_forall %g tile_sizes [4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %f, %nl = transform.structured.fuse_into_containing_op %s into %l : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
