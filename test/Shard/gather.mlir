// RUN: nd-opt %s --nd-partition="check-process-count=false" -split-input-file | FileCheck %s

// Partitions of nd.gather and nd.gather_elements.

shard.grid @grid(shape = 2)

// A vocabulary-sharded table read by nd.gather (ONNX Gather) with 2-D ids
// of bf16 rows: the ids get a trailing component dim for the check and the
// shift, and lose it again for the process's gather; the rows' bits are
// or-ed as i16.
// CHECK-LABEL: func.func @vocabulary_split(
// CHECK-SAME: %{{.*}}: tensor<8x4xbf16>, %[[IDS:.*]]: tensor<2x3xi64>)
// CHECK: %[[ROWS:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<8x4xbf16> -> tensor<4x4xbf16>
// CHECK: %[[TUPLES:.*]] = tensor.expand_shape %[[IDS]] {{\[}}[0], [1, 2]] output_shape [2, 3, 1] : tensor<2x3xi64> into tensor<2x3x1xi64>
// CHECK: %[[CHECKED:.*]] = nd.gather_nd %{{.*}}[%[[TUPLES]]] : tensor<8x1xi64>, tensor<2x3x1xi64> -> tensor<2x3x1xi64>
// CHECK: %[[SHIFTED:.*]] = linalg.generic {{.*}} ins(%[[CHECKED]] : tensor<2x3x1xi64>)
// CHECK: %[[LOCAL_IDS:.*]] = tensor.collapse_shape %[[SHIFTED]] {{\[}}[0], [1, 2]] : tensor<2x3x1xi64> into tensor<2x3xi64>
// CHECK: %[[R:.*]] = nd.gather %[[ROWS]][%[[LOCAL_IDS]]] oob<skip> : tensor<4x4xbf16>, tensor<2x3xi64> -> tensor<2x3x4xbf16>
// CHECK: %[[BITS:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<2x3x4xbf16>) outs(%{{.*}} : tensor<2x3x4xi16>)
// CHECK:   arith.bitcast %{{.*}} : bf16 to i16
// CHECK: shard.all_reduce %[[BITS]] on @grid grid_axes = [0] reduction = bitwise_or : tensor<2x3x4xi16> -> tensor<2x3x4xi16>
// CHECK:   arith.bitcast %{{.*}} : i16 to bf16
func.func @vocabulary_split(%table: tensor<8x4xbf16>, %ids: tensor<2x3xi64>) -> tensor<2x3x4xbf16> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %table to %all : tensor<8x4xbf16>
  %t = shard.shard %t0 to %rows annotate_for_users : tensor<8x4xbf16>
  %i = shard.shard %ids to %all : tensor<2x3xi64>
  %r = nd.gather %t[%i] : tensor<8x4xbf16>, tensor<2x3xi64> -> tensor<2x3x4xbf16>
  %o = shard.shard %r to %all : tensor<2x3x4xbf16>
  return %o : tensor<2x3x4xbf16>
}

// -----

shard.grid @grid(shape = 2)

// A 0-D id of type index: widened to i64, given a component dim of its own.
// CHECK-LABEL: func.func @scalar_id(
// CHECK-SAME: %{{.*}}: tensor<8x4xf64>, %[[ID:.*]]: tensor<index>)
// CHECK: %[[WIDE:.*]] = linalg.generic {{.*}} ins(%[[ID]] : tensor<index>) outs(%{{.*}} : tensor<i64>)
// CHECK:   arith.index_cast %{{.*}} : index to i64
// CHECK: %[[TUPLE:.*]] = tensor.expand_shape %[[WIDE]] [] output_shape [1] : tensor<i64> into tensor<1xi64>
// CHECK: nd.gather_nd %{{.*}}[%[[TUPLE]]] : tensor<8x1xi64>, tensor<1xi64> -> tensor<1xi64>
// CHECK: %[[LOCAL_ID:.*]] = tensor.collapse_shape %{{.*}} [] : tensor<1xi64> into tensor<i64>
// CHECK: nd.gather %{{.*}}[%[[LOCAL_ID]]] oob<skip> : tensor<4x4xf64>, tensor<i64> -> tensor<4xf64>
// CHECK: shard.all_reduce %{{.*}} reduction = bitwise_or : tensor<4xi64> -> tensor<4xi64>
func.func @scalar_id(%table: tensor<8x4xf64>, %id: tensor<index>) -> tensor<4xf64> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %table to %all : tensor<8x4xf64>
  %t = shard.shard %t0 to %rows annotate_for_users : tensor<8x4xf64>
  %r = nd.gather %t[%id] : tensor<8x4xf64>, tensor<index> -> tensor<4xf64>
  %o = shard.shard %r to %all : tensor<4xf64>
  return %o : tensor<4xf64>
}

// -----

shard.grid @grid(shape = 2)

// nd.gather along axis 1 with a batch dim, the batch split: local.
// CHECK-LABEL: func.func @batch_split(
// CHECK-DAG: %[[DATA:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<4x5x3xf32> -> tensor<2x5x3xf32>
// CHECK-DAG: %[[IDS:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<4x2xi32> -> tensor<2x2xi32>
// CHECK: %[[R:.*]] = nd.gather %[[DATA]][%[[IDS]]] axis(1) batch_dims(1) : tensor<2x5x3xf32>, tensor<2x2xi32> -> tensor<2x2x3xf32>
// CHECK-NEXT: shard.all_gather %[[R]] on @grid grid_axes = [0] gather_axis = 0
// CHECK-NOT: shard.all_reduce
func.func @batch_split(%data: tensor<4x5x3xf32>, %ids: tensor<4x2xi32>) -> tensor<4x2x3xf32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %all : tensor<4x5x3xf32>
  %d = shard.shard %d0 to %split annotate_for_users : tensor<4x5x3xf32>
  %i = shard.shard %ids to %all : tensor<4x2xi32>
  %r = nd.gather %d[%i] axis(1) batch_dims(1) : tensor<4x5x3xf32>, tensor<4x2xi32> -> tensor<4x2x3xf32>
  %o = shard.shard %r to %all : tensor<4x2x3xf32>
  return %o : tensor<4x2x3xf32>
}

// -----

shard.grid @grid(shape = 2)

// nd.gather_elements with the data split along the axis: shifted ids, the
// process's op with oob<skip>, an or of the i32 results.
// CHECK-LABEL: func.func @elements_axis_split(
// CHECK: %[[COLS:.*]] = shard.all_slice %{{.*}} slice_axis = 1 : tensor<3x8xi32> -> tensor<3x4xi32>
// CHECK: nd.gather_nd %{{.*}} : tensor<8x1xi64>, tensor<3x2x1xi64> -> tensor<3x2x1xi64>
// CHECK: %[[LOCAL_IDS:.*]] = tensor.collapse_shape
// CHECK: %[[R:.*]] = nd.gather_elements %[[COLS]][%[[LOCAL_IDS]]] axis(1) oob<skip> : tensor<3x4xi32>, tensor<3x2xi64> -> tensor<3x2xi32>
// CHECK-NEXT: shard.all_reduce %[[R]] on @grid grid_axes = [0] reduction = bitwise_or : tensor<3x2xi32> -> tensor<3x2xi32>
func.func @elements_axis_split(%data: tensor<3x8xi32>, %ids: tensor<3x2xi64>) -> tensor<3x2xi32> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %all : tensor<3x8xi32>
  %d = shard.shard %d0 to %cols annotate_for_users : tensor<3x8xi32>
  %i = shard.shard %ids to %all : tensor<3x2xi64>
  %r = nd.gather_elements %d[%i] axis(1) : tensor<3x8xi32>, tensor<3x2xi64> -> tensor<3x2xi32>
  %o = shard.shard %r to %all : tensor<3x2xi32>
  return %o : tensor<3x2xi32>
}

// -----

shard.grid @grid(shape = 2)

// nd.gather_elements split along a dim other than the axis, where `data`
// and `indices` have the same size: local.
// CHECK-LABEL: func.func @elements_other_dim_split(
// CHECK-DAG: %[[DATA:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
// CHECK-DAG: %[[IDS:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<4x3xi64> -> tensor<2x3xi64>
// CHECK: %[[R:.*]] = nd.gather_elements %[[DATA]][%[[IDS]]] axis(1) : tensor<2x8xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
// CHECK-NEXT: shard.all_gather %[[R]]
func.func @elements_other_dim_split(%data: tensor<4x8xf32>, %ids: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %all : tensor<4x8xf32>
  %d = shard.shard %d0 to %rows annotate_for_users : tensor<4x8xf32>
  %i = shard.shard %ids to %all : tensor<4x3xi64>
  %r = nd.gather_elements %d[%i] axis(1) : tensor<4x8xf32>, tensor<4x3xi64> -> tensor<4x3xf32>
  %o = shard.shard %r to %all : tensor<4x3xf32>
  return %o : tensor<4x3xf32>
}

// -----

shard.grid @grid(shape = 2)

// ... and not where `indices` is smaller along that dim: the rows of
// `data` a process needs are not the rows it holds. Not partitioned: the
// data is gathered back first.
// CHECK-LABEL: func.func @elements_smaller_dim_not_split(
// CHECK: %[[SPLIT:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
// CHECK: shard.all_gather %[[SPLIT]] on @grid grid_axes = [0] gather_axis = 0 : tensor<2x8xf32> -> tensor<4x8xf32>
// CHECK: nd.gather_elements %{{.*}}[%{{.*}}] axis(1) : tensor<4x8xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
func.func @elements_smaller_dim_not_split(%data: tensor<4x8xf32>, %ids: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %all : tensor<4x8xf32>
  %d = shard.shard %d0 to %rows annotate_for_users : tensor<4x8xf32>
  %i = shard.shard %ids to %all : tensor<2x3xi64>
  %r = nd.gather_elements %d[%i] axis(1) : tensor<4x8xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  %o = shard.shard %r to %all : tensor<2x3xf32>
  return %o : tensor<2x3xf32>
}
