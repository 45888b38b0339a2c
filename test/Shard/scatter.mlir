// RUN: nd-opt %s --nd-partition="check-process-count=false" -split-input-file | FileCheck %s

// Partitions of nd.scatter_nd, nd.scatter_elements and nd.tensor_scatter.

shard.grid @grid(shape = 2)

// An embedding gradient: a scatter-add into a row-sharded table. Each
// process checks the i32 ids against the whole table, shifts them into its
// rows and adds the gradients that land there, in their order, with
// oob<skip>; no communication.
// CHECK-LABEL: func.func @rows_split(
// CHECK-SAME: %{{.*}}: tensor<8x4xf32>, %[[IDS:.*]]: tensor<6x1xi32>, %[[GRADS:.*]]: tensor<6x4xf32>)
// CHECK: %[[ROWS:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<8x4xf32> -> tensor<4x4xf32>
// CHECK: %[[WIDE:.*]] = linalg.generic {{.*}} ins(%[[IDS]] : tensor<6x1xi32>) outs(%{{.*}} : tensor<6x1xi64>)
// CHECK: %[[CHECKED:.*]] = nd.gather_nd %{{.*}}[%[[WIDE]]] : tensor<8x1xi64>, tensor<6x1xi64> -> tensor<6x1xi64>
// CHECK: %[[LOCAL_IDS:.*]] = linalg.generic {{.*}} ins(%[[CHECKED]] : tensor<6x1xi64>)
// CHECK:   arith.select %{{.*}}, %{{.*}}, %c4_i64 : i64
// CHECK: %[[R:.*]] = nd.scatter_nd %[[ROWS]][%[[LOCAL_IDS]]], %[[GRADS]] reduction<add> oob<skip> : tensor<4x4xf32>, tensor<6x1xi64>, tensor<6x4xf32>
// CHECK-NOT: shard.all_reduce
// CHECK: shard.all_gather %[[R]] on @grid grid_axes = [0] gather_axis = 0 : tensor<4x4xf32> -> tensor<8x4xf32>
func.func @rows_split(%table: tensor<8x4xf32>, %ids: tensor<6x1xi32>, %grads: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %table to %all : tensor<8x4xf32>
  %t = shard.shard %t0 to %rows annotate_for_users : tensor<8x4xf32>
  %i = shard.shard %ids to %all : tensor<6x1xi32>
  %g = shard.shard %grads to %all : tensor<6x4xf32>
  %r = nd.scatter_nd %t[%i], %g reduction<add> : tensor<8x4xf32>, tensor<6x1xi32>, tensor<6x4xf32>
  %s = shard.shard %r to %rows : tensor<8x4xf32>
  %o = shard.shard %s to %all annotate_for_users : tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// The data arrives split and leaves split: the function takes and returns
// the process's rows. Under oob<skip> there is no check.
// CHECK-LABEL: func.func @rows_split_none(
// CHECK-SAME: %[[ROWS:.*]]: tensor<4xi8>, %[[IDS:.*]]: tensor<3x1xi64>, %[[UPDATES:.*]]: tensor<3xi8>) -> tensor<4xi8>
// CHECK-NOT: nd.gather_nd
// CHECK: %[[LOCAL_IDS:.*]] = linalg.generic {{.*}} ins(%[[IDS]] : tensor<3x1xi64>)
// CHECK: %[[R:.*]] = nd.scatter_nd %[[ROWS]][%[[LOCAL_IDS]]], %[[UPDATES]] oob<skip> : tensor<4xi8>, tensor<3x1xi64>, tensor<3xi8>
// CHECK-NEXT: return %[[R]] : tensor<4xi8>
func.func @rows_split_none(%data: tensor<8xi8>, %ids: tensor<3x1xi64>, %updates: tensor<3xi8>) -> tensor<8xi8> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %rows : tensor<8xi8>
  %d = shard.shard %d0 to %rows annotate_for_users : tensor<8xi8>
  %i = shard.shard %ids to %all : tensor<3x1xi64>
  %u = shard.shard %updates to %all : tensor<3xi8>
  %r = nd.scatter_nd %d[%i], %u oob<skip> : tensor<8xi8>, tensor<3x1xi64>, tensor<3xi8>
  %s = shard.shard %r to %rows : tensor<8xi8>
  return %s : tensor<8xi8>
}

// -----

shard.grid @grid(shape = 2)

// A KV cache (batch, sequence, heads, head_dim) split by heads: the slices
// of the cache and of the new tokens are split alike; the indices are the
// same on every process. No communication.
// CHECK-LABEL: func.func @heads_split(
// CHECK-SAME: %{{.*}}: tensor<2x8x4x3xf16>, %[[POS:.*]]: tensor<2x1x2xi64>, %{{.*}}: tensor<2x1x4x3xf16>)
// CHECK-DAG: %[[CACHE:.*]] = shard.all_slice %{{.*}} slice_axis = 2 : tensor<2x8x4x3xf16> -> tensor<2x8x2x3xf16>
// CHECK-DAG: %[[NEW:.*]] = shard.all_slice %{{.*}} slice_axis = 2 : tensor<2x1x4x3xf16> -> tensor<2x1x2x3xf16>
// CHECK: %[[R:.*]] = nd.scatter_nd %[[CACHE]][%[[POS]]], %[[NEW]] : tensor<2x8x2x3xf16>, tensor<2x1x2xi64>, tensor<2x1x2x3xf16>
// CHECK-NEXT: shard.all_gather %[[R]] on @grid grid_axes = [0] gather_axis = 2
func.func @heads_split(%cache: tensor<2x8x4x3xf16>, %pos: tensor<2x1x2xi64>, %new: tensor<2x1x4x3xf16>) -> tensor<2x8x4x3xf16> {
  %heads = shard.sharding @grid split_axes = [[], [], [0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %c0 = shard.shard %cache to %all : tensor<2x8x4x3xf16>
  %c = shard.shard %c0 to %heads annotate_for_users : tensor<2x8x4x3xf16>
  %p = shard.shard %pos to %all : tensor<2x1x2xi64>
  %n = shard.shard %new to %all : tensor<2x1x4x3xf16>
  %r = nd.scatter_nd %c[%p], %n : tensor<2x8x4x3xf16>, tensor<2x1x2xi64>, tensor<2x1x4x3xf16>
  %s = shard.shard %r to %heads : tensor<2x8x4x3xf16>
  %o = shard.shard %s to %all annotate_for_users : tensor<2x8x4x3xf16>
  return %o : tensor<2x8x4x3xf16>
}

// -----

shard.grid @grid(shape = 2)

// A scatter-add with its updates split: process 0 adds its updates into
// the data, the others into -0.0 (the identity of IEEE addition, so that a
// -0.0 in place survives), and an all-reduce sums the results.
// CHECK-LABEL: func.func @updates_split_add(
// CHECK-SAME: %[[TABLE:.*]]: tensor<8x4xf32>, %{{.*}}: tensor<6x1xi64>, %{{.*}}: tensor<6x4xf32>)
// CHECK-DAG: %[[IDS:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<6x1xi64> -> tensor<3x1xi64>
// CHECK-DAG: %[[GRADS:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<6x4xf32> -> tensor<3x4xf32>
// CHECK: %[[PROCESS:.*]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[PROCESS]], %c0 : index
// CHECK: %[[INIT:.*]] = scf.if %[[FIRST]] -> (tensor<8x4xf32>) {
// CHECK-NEXT: scf.yield %[[TABLE]] : tensor<8x4xf32>
// CHECK-NEXT: } else {
// CHECK: %[[NEG_ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%[[NEG_ZERO]] : f32)
// CHECK: scf.yield %[[ZEROS]] : tensor<8x4xf32>
// CHECK: %[[PARTIAL:.*]] = nd.scatter_nd %[[INIT]][%[[IDS]]], %[[GRADS]] reduction<add> : tensor<8x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
// CHECK-NEXT: %[[SUM:.*]] = shard.all_reduce %[[PARTIAL]] on @grid grid_axes = [0] : tensor<8x4xf32> -> tensor<8x4xf32>
// CHECK-NEXT: return %[[SUM]]
func.func @updates_split_add(%table: tensor<8x4xf32>, %ids: tensor<6x1xi64>, %grads: tensor<6x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t = shard.shard %table to %all : tensor<8x4xf32>
  %i0 = shard.shard %ids to %all : tensor<6x1xi64>
  %i = shard.shard %i0 to %rows annotate_for_users : tensor<6x1xi64>
  %g0 = shard.shard %grads to %all : tensor<6x4xf32>
  %r = nd.scatter_nd %t[%i], %g0 reduction<add> : tensor<8x4xf32>, tensor<6x1xi64>, tensor<6x4xf32>
  %o = shard.shard %r to %all : tensor<8x4xf32>
  return %o : tensor<8x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// The same for integers: 0 on the other processes; exact in any order.
// CHECK-LABEL: func.func @updates_split_add_i32(
// CHECK: scf.if
// CHECK: arith.constant 0 : i32
// CHECK: nd.scatter_nd %{{.*}} reduction<add> : tensor<5xi32>, tensor<2x1xi64>, tensor<2xi32>
// CHECK-NEXT: shard.all_reduce %{{.*}} on @grid grid_axes = [0] : tensor<5xi32> -> tensor<5xi32>
func.func @updates_split_add_i32(%data: tensor<5xi32>, %ids: tensor<4x1xi64>, %updates: tensor<4xi32>) -> tensor<5xi32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d = shard.shard %data to %all : tensor<5xi32>
  %i = shard.shard %ids to %all : tensor<4x1xi64>
  %u0 = shard.shard %updates to %all : tensor<4xi32>
  %u = shard.shard %u0 to %split annotate_for_users : tensor<4xi32>
  %r = nd.scatter_nd %d[%i], %u reduction<add> : tensor<5xi32>, tensor<4x1xi64>, tensor<4xi32>
  %o = shard.shard %r to %all : tensor<5xi32>
  return %o : tensor<5xi32>
}

// -----

shard.grid @grid(shape = 2)

// Updates split under reduction none: the last update in row-major order
// wins, which partial results cannot tell. Not partitioned: the updates are
// gathered back.
// CHECK-LABEL: func.func @updates_split_none_not_partitioned(
// CHECK: shard.all_gather %{{.*}} gather_axis = 0 : tensor<2xf32> -> tensor<4xf32>
// CHECK: nd.scatter_nd %{{.*}} : tensor<5xf32>, tensor<4x1xi64>, tensor<4xf32>
// CHECK-NOT: shard.all_reduce
func.func @updates_split_none_not_partitioned(%data: tensor<5xf32>, %ids: tensor<4x1xi64>, %updates: tensor<4xf32>) -> tensor<5xf32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d = shard.shard %data to %all : tensor<5xf32>
  %i = shard.shard %ids to %all : tensor<4x1xi64>
  %u0 = shard.shard %updates to %all : tensor<4xf32>
  %u = shard.shard %u0 to %split annotate_for_users : tensor<4xf32>
  %r = nd.scatter_nd %d[%i], %u : tensor<5xf32>, tensor<4x1xi64>, tensor<4xf32>
  %o = shard.shard %r to %all : tensor<5xf32>
  return %o : tensor<5xf32>
}

// -----

shard.grid @grid(shape = 2)

// MLIR 22's MPI lowering has no sum of f16: not partitioned either.
// CHECK-LABEL: func.func @updates_split_add_f16_not_partitioned(
// CHECK: shard.all_gather %{{.*}} gather_axis = 0 : tensor<2xf16> -> tensor<4xf16>
// CHECK: nd.scatter_nd %{{.*}} reduction<add> : tensor<5xf16>, tensor<4x1xi64>, tensor<4xf16>
// CHECK-NOT: shard.all_reduce
func.func @updates_split_add_f16_not_partitioned(%data: tensor<5xf16>, %ids: tensor<4x1xi64>, %updates: tensor<4xf16>) -> tensor<5xf16> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d = shard.shard %data to %all : tensor<5xf16>
  %i = shard.shard %ids to %all : tensor<4x1xi64>
  %u0 = shard.shard %updates to %all : tensor<4xf16>
  %u = shard.shard %u0 to %split annotate_for_users : tensor<4xf16>
  %r = nd.scatter_nd %d[%i], %u reduction<add> : tensor<5xf16>, tensor<4x1xi64>, tensor<4xf16>
  %o = shard.shard %r to %all : tensor<5xf16>
  return %o : tensor<5xf16>
}

// -----

shard.grid @grid(shape = 2)

// nd.scatter_elements with the data split along the axis, under mean
// without the value in place: every element's updates are on its owner, so
// the process's op computes the same means.
// CHECK-LABEL: func.func @elements_axis_split(
// CHECK: %[[COLS:.*]] = shard.all_slice %{{.*}} slice_axis = 1 : tensor<3x8xf32> -> tensor<3x4xf32>
// CHECK: nd.gather_nd %{{.*}} : tensor<8x1xi64>, tensor<3x2x1xi64> -> tensor<3x2x1xi64>
// CHECK: %[[LOCAL_IDS:.*]] = tensor.collapse_shape
// CHECK: %[[R:.*]] = nd.scatter_elements %[[COLS]][%[[LOCAL_IDS]]], %{{.*}} axis(1) reduction<mean> use_init_val(false) oob<skip> : tensor<3x4xf32>, tensor<3x2xi64>, tensor<3x2xf32>
// CHECK-NEXT: shard.all_gather %[[R]] on @grid grid_axes = [0] gather_axis = 1
func.func @elements_axis_split(%data: tensor<3x8xf32>, %ids: tensor<3x2xi64>, %updates: tensor<3x2xf32>) -> tensor<3x8xf32> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %all : tensor<3x8xf32>
  %d = shard.shard %d0 to %cols annotate_for_users : tensor<3x8xf32>
  %i = shard.shard %ids to %all : tensor<3x2xi64>
  %u = shard.shard %updates to %all : tensor<3x2xf32>
  %r = nd.scatter_elements %d[%i], %u axis(1) reduction<mean> use_init_val(false) : tensor<3x8xf32>, tensor<3x2xi64>, tensor<3x2xf32>
  %s = shard.shard %r to %cols : tensor<3x8xf32>
  %o = shard.shard %s to %all annotate_for_users : tensor<3x8xf32>
  return %o : tensor<3x8xf32>
}

// -----

shard.grid @grid(shape = 2)

// nd.scatter_elements add with its updates split along the axis: partial
// sums.
// CHECK-LABEL: func.func @elements_updates_split_add(
// CHECK-DAG: %[[IDS:.*]] = shard.all_slice %{{.*}} slice_axis = 1 : tensor<3x4xi64> -> tensor<3x2xi64>
// CHECK-DAG: %[[UPDATES:.*]] = shard.all_slice %{{.*}} slice_axis = 1 : tensor<3x4xi64> -> tensor<3x2xi64>
// CHECK: %[[INIT:.*]] = scf.if
// CHECK: %[[PARTIAL:.*]] = nd.scatter_elements %[[INIT]][%[[IDS]]], %[[UPDATES]] axis(1) reduction<add> : tensor<3x8xi64>, tensor<3x2xi64>, tensor<3x2xi64>
// CHECK-NEXT: shard.all_reduce %[[PARTIAL]] on @grid grid_axes = [0] : tensor<3x8xi64> -> tensor<3x8xi64>
func.func @elements_updates_split_add(%data: tensor<3x8xi64>, %ids: tensor<3x4xi64>, %updates: tensor<3x4xi64>) -> tensor<3x8xi64> {
  %split = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d = shard.shard %data to %all : tensor<3x8xi64>
  %i0 = shard.shard %ids to %all : tensor<3x4xi64>
  %i = shard.shard %i0 to %split annotate_for_users : tensor<3x4xi64>
  %u = shard.shard %updates to %all : tensor<3x4xi64>
  %r = nd.scatter_elements %d[%i], %u axis(1) reduction<add> : tensor<3x8xi64>, tensor<3x4xi64>, tensor<3x4xi64>
  %o = shard.shard %r to %all : tensor<3x8xi64>
  return %o : tensor<3x8xi64>
}

// -----

shard.grid @grid(shape = 2)

// nd.tensor_scatter (ONNX TensorScatter) on a cache split by heads: local,
// with the write indices of every batch entry.
// CHECK-LABEL: func.func @tensor_scatter_heads(
// CHECK-SAME: %{{.*}}: tensor<2x4x8x3xf16>, %[[WI:.*]]: tensor<2xi64>, %{{.*}}: tensor<2x4x1x3xf16>)
// CHECK-DAG: %[[CACHE:.*]] = shard.all_slice %{{.*}} slice_axis = 1 : tensor<2x4x8x3xf16> -> tensor<2x2x8x3xf16>
// CHECK-DAG: %[[UPDATE:.*]] = shard.all_slice %{{.*}} slice_axis = 1 : tensor<2x4x1x3xf16> -> tensor<2x2x1x3xf16>
// CHECK: %[[R:.*]] = nd.tensor_scatter %[[CACHE]][%[[WI]]], %[[UPDATE]] mode<circular> : tensor<2x2x8x3xf16>[tensor<2xi64>], tensor<2x2x1x3xf16>
// CHECK-NEXT: shard.all_gather %[[R]] on @grid grid_axes = [0] gather_axis = 1
func.func @tensor_scatter_heads(%past: tensor<2x4x8x3xf16>, %wi: tensor<2xi64>, %update: tensor<2x4x1x3xf16>) -> tensor<2x4x8x3xf16> {
  %heads = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %c0 = shard.shard %past to %all : tensor<2x4x8x3xf16>
  %c = shard.shard %c0 to %heads annotate_for_users : tensor<2x4x8x3xf16>
  %w = shard.shard %wi to %all : tensor<2xi64>
  %u = shard.shard %update to %all : tensor<2x4x1x3xf16>
  %r = nd.tensor_scatter %c[%w], %u mode<circular> : tensor<2x4x8x3xf16>[tensor<2xi64>], tensor<2x4x1x3xf16>
  %s = shard.shard %r to %heads : tensor<2x4x8x3xf16>
  %o = shard.shard %s to %all annotate_for_users : tensor<2x4x8x3xf16>
  return %o : tensor<2x4x8x3xf16>
}

// -----

shard.grid @grid(shape = 2)

// Split by batch entries: the write indices are split with them.
// CHECK-LABEL: func.func @tensor_scatter_batch(
// CHECK-DAG: %[[CACHE:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<2x4x8x3xf16> -> tensor<1x4x8x3xf16>
// CHECK-DAG: %[[UPDATE:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<2x4x1x3xf16> -> tensor<1x4x1x3xf16>
// CHECK-DAG: %[[WI:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<2xi64> -> tensor<1xi64>
// CHECK: nd.tensor_scatter %[[CACHE]][%[[WI]]], %[[UPDATE]] : tensor<1x4x8x3xf16>[tensor<1xi64>], tensor<1x4x1x3xf16>
func.func @tensor_scatter_batch(%past: tensor<2x4x8x3xf16>, %wi: tensor<2xi64>, %update: tensor<2x4x1x3xf16>) -> tensor<2x4x8x3xf16> {
  %batch = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %c0 = shard.shard %past to %all : tensor<2x4x8x3xf16>
  %c = shard.shard %c0 to %batch annotate_for_users : tensor<2x4x8x3xf16>
  %w = shard.shard %wi to %all : tensor<2xi64>
  %u = shard.shard %update to %all : tensor<2x4x1x3xf16>
  %r = nd.tensor_scatter %c[%w], %u : tensor<2x4x8x3xf16>[tensor<2xi64>], tensor<2x4x1x3xf16>
  %o = shard.shard %r to %all : tensor<2x4x8x3xf16>
  return %o : tensor<2x4x8x3xf16>
}

// -----

shard.grid @grid(shape = 2)

// The sequence axis is never split: the cache is gathered back whole.
// CHECK-LABEL: func.func @tensor_scatter_sequence_not_partitioned(
// CHECK: shard.all_gather %{{.*}} gather_axis = 2 : tensor<2x4x4x3xf16> -> tensor<2x4x8x3xf16>
// CHECK: nd.tensor_scatter %{{.*}}, %{{.*}} : tensor<2x4x8x3xf16>, tensor<2x4x1x3xf16>
func.func @tensor_scatter_sequence_not_partitioned(%past: tensor<2x4x8x3xf16>, %update: tensor<2x4x1x3xf16>) -> tensor<2x4x8x3xf16> {
  %seq = shard.sharding @grid split_axes = [[], [], [0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %c0 = shard.shard %past to %all : tensor<2x4x8x3xf16>
  %c = shard.shard %c0 to %seq annotate_for_users : tensor<2x4x8x3xf16>
  %u = shard.shard %update to %all : tensor<2x4x1x3xf16>
  %r = nd.tensor_scatter %c, %u : tensor<2x4x8x3xf16>, tensor<2x4x1x3xf16>
  %o = shard.shard %r to %all : tensor<2x4x8x3xf16>
  return %o : tensor<2x4x8x3xf16>
}
