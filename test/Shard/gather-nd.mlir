// RUN: nd-opt %s --nd-partition="check-process-count=false" -split-input-file | FileCheck %s

// Partitions of nd.gather_nd, as sharding-propagation chooses them from the
// annotations and shard-partition builds them.

shard.grid @grid(shape = 2)

// The index dims of `indices` split: each process gathers its rows of the
// result from the whole table, with its own indices. No communication.
// CHECK-LABEL: func.func @index_dims_split(
// CHECK-SAME: %[[TABLE:.*]]: tensor<8x4xf32>, %[[IDS:.*]]: tensor<6x1xi64>) -> tensor<6x4xf32>
// CHECK: %[[MY_IDS:.*]] = shard.all_slice %[[IDS]] on @grid grid_axes = [0] slice_axis = 0 : tensor<6x1xi64> -> tensor<3x1xi64>
// CHECK-NEXT: %[[ROWS:.*]] = nd.gather_nd %[[TABLE]][%[[MY_IDS]]] : tensor<8x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>
// CHECK-NEXT: shard.all_gather %[[ROWS]] on @grid grid_axes = [0] gather_axis = 0 : tensor<3x4xf32> -> tensor<6x4xf32>
func.func @index_dims_split(%table: tensor<8x4xf32>, %ids: tensor<6x1xi64>) -> tensor<6x4xf32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t = shard.shard %table to %all : tensor<8x4xf32>
  %i = shard.shard %ids to %all : tensor<6x1xi64>
  %r = nd.gather_nd %t[%i] : tensor<8x4xf32>, tensor<6x1xi64> -> tensor<6x4xf32>
  %s = shard.shard %r to %split : tensor<6x4xf32>
  %o = shard.shard %s to %all annotate_for_users : tensor<6x4xf32>
  return %o : tensor<6x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Batch dims split: data, indices and result alike.
// CHECK-LABEL: func.func @batch_dims_split(
// CHECK-DAG: %[[DATA:.*]] = shard.all_slice %{{.*}} on @grid grid_axes = [0] slice_axis = 0 : tensor<4x5x3xf32> -> tensor<2x5x3xf32>
// CHECK-DAG: %[[IDS:.*]] = shard.all_slice %{{.*}} on @grid grid_axes = [0] slice_axis = 0 : tensor<4x2x1xi32> -> tensor<2x2x1xi32>
// CHECK: %[[R:.*]] = nd.gather_nd %[[DATA]][%[[IDS]]] batch_dims(1) : tensor<2x5x3xf32>, tensor<2x2x1xi32> -> tensor<2x2x3xf32>
// CHECK-NEXT: shard.all_gather %[[R]] on @grid grid_axes = [0] gather_axis = 0 : tensor<2x2x3xf32> -> tensor<4x2x3xf32>
func.func @batch_dims_split(%data: tensor<4x5x3xf32>, %ids: tensor<4x2x1xi32>) -> tensor<4x2x3xf32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %all : tensor<4x5x3xf32>
  %d = shard.shard %d0 to %split annotate_for_users : tensor<4x5x3xf32>
  %i = shard.shard %ids to %all : tensor<4x2x1xi32>
  %r = nd.gather_nd %d[%i] batch_dims(1) : tensor<4x5x3xf32>, tensor<4x2x1xi32> -> tensor<4x2x3xf32>
  %o = shard.shard %r to %all : tensor<4x2x3xf32>
  return %o : tensor<4x2x3xf32>
}

// -----

shard.grid @grid(shape = 2)

// A slice dim split: the columns of the table.
// CHECK-LABEL: func.func @slice_dim_split(
// CHECK-SAME: %{{.*}}: tensor<8x4xf32>, %[[IDS:.*]]: tensor<3x1xi64>)
// CHECK: %[[COLS:.*]] = shard.all_slice %{{.*}} on @grid grid_axes = [0] slice_axis = 1 : tensor<8x4xf32> -> tensor<8x2xf32>
// CHECK-NEXT: %[[R:.*]] = nd.gather_nd %[[COLS]][%[[IDS]]] : tensor<8x2xf32>, tensor<3x1xi64> -> tensor<3x2xf32>
// CHECK-NEXT: shard.all_gather %[[R]] on @grid grid_axes = [0] gather_axis = 1 : tensor<3x2xf32> -> tensor<3x4xf32>
func.func @slice_dim_split(%table: tensor<8x4xf32>, %ids: tensor<3x1xi64>) -> tensor<3x4xf32> {
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %table to %all : tensor<8x4xf32>
  %t = shard.shard %t0 to %cols annotate_for_users : tensor<8x4xf32>
  %i = shard.shard %ids to %all : tensor<3x1xi64>
  %r = nd.gather_nd %t[%i] : tensor<8x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>
  %o = shard.shard %r to %all : tensor<3x4xf32>
  return %o : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// The gathered dim split (a vocabulary-sharded embedding table), under the
// default oob<error>: the ids are checked against the whole table by a
// gather from a table of positions (nd's run-time error for an id out of
// range, with the table's size), shifted into the process's rows (4 for the
// others, out of range), gathered with oob<skip>, and the bits of the
// processes' rows or-ed together.
// CHECK-LABEL: func.func @gathered_dim_split(
// CHECK-SAME: %{{.*}}: tensor<8x4xf32>, %[[IDS:.*]]: tensor<3x1xi64>) -> tensor<3x4xf32>
// CHECK-DAG: %[[ROWS:.*]] = shard.all_slice %{{.*}} on @grid grid_axes = [0] slice_axis = 0 : tensor<8x4xf32> -> tensor<4x4xf32>
// CHECK-DAG: %[[PROCESS:.*]] = shard.process_multi_index on @grid axes = [0] : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[FIRST:.*]] = arith.muli %[[PROCESS]], %[[C4]] : index
// CHECK: %[[POSITIONS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<8x1xi64>)
// CHECK:   linalg.index 0
// CHECK: %[[CHECKED:.*]] = nd.gather_nd %[[POSITIONS]][%[[IDS]]] : tensor<8x1xi64>, tensor<3x1xi64> -> tensor<3x1xi64>
// CHECK: %[[FIRST_I64:.*]] = arith.index_cast %[[FIRST]] : index to i64
// CHECK: %[[C4_I64:.*]] = arith.constant 4 : i64
// CHECK: %[[END:.*]] = arith.addi %[[FIRST_I64]], %[[C4_I64]] : i64
// CHECK: %[[LOCAL_IDS:.*]] = linalg.generic {{.*}} ins(%[[CHECKED]] : tensor<3x1xi64>)
// CHECK: ^bb0(%[[ID:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[GE:.*]] = arith.cmpi sge, %[[ID]], %[[FIRST_I64]] : i64
// CHECK-NEXT: %[[LT:.*]] = arith.cmpi slt, %[[ID]], %[[END]] : i64
// CHECK-NEXT: %[[MINE:.*]] = arith.andi %[[GE]], %[[LT]] : i1
// CHECK-NEXT: %[[SHIFTED:.*]] = arith.subi %[[ID]], %[[FIRST_I64]] : i64
// CHECK-NEXT: %[[LOCAL:.*]] = arith.select %[[MINE]], %[[SHIFTED]], %[[C4_I64]] : i64
// CHECK-NEXT: linalg.yield %[[LOCAL]] : i64
// CHECK: %[[MY_ROWS:.*]] = nd.gather_nd %[[ROWS]][%[[LOCAL_IDS]]] oob<skip> : tensor<4x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>
// CHECK: %[[BITS:.*]] = linalg.generic {{.*}} ins(%[[MY_ROWS]] : tensor<3x4xf32>) outs(%{{.*}} : tensor<3x4xi32>)
// CHECK:   arith.bitcast %{{.*}} : f32 to i32
// CHECK: %[[OR:.*]] = shard.all_reduce %[[BITS]] on @grid grid_axes = [0] reduction = bitwise_or : tensor<3x4xi32> -> tensor<3x4xi32>
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[OR]] : tensor<3x4xi32>) outs(%{{.*}} : tensor<3x4xf32>)
// CHECK:   arith.bitcast %{{.*}} : i32 to f32
// CHECK: return %[[R]] : tensor<3x4xf32>
func.func @gathered_dim_split(%table: tensor<8x4xf32>, %ids: tensor<3x1xi64>) -> tensor<3x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %table to %all : tensor<8x4xf32>
  %t = shard.shard %t0 to %rows annotate_for_users : tensor<8x4xf32>
  %i = shard.shard %ids to %all : tensor<3x1xi64>
  %r = nd.gather_nd %t[%i] : tensor<8x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>
  %o = shard.shard %r to %all : tensor<3x4xf32>
  return %o : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Under oob<skip>: no check; i32 ids are widened, negative ones normalised
// (+ 8) before the shift; ids out of range stay out of every process's rows.
// CHECK-LABEL: func.func @gathered_dim_split_skip(
// CHECK-SAME: %{{.*}}: tensor<8x4xf32>, %[[IDS:.*]]: tensor<3x1xi32>)
// CHECK-NOT: nd.gather_nd %{{.*}}[%[[IDS]]]
// CHECK: %[[WIDE:.*]] = linalg.generic {{.*}} ins(%[[IDS]] : tensor<3x1xi32>) outs(%{{.*}} : tensor<3x1xi64>)
// CHECK:   arith.extsi %{{.*}} : i32 to i64
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[SIZE:.*]] = arith.index_cast %[[C8]] : index to i64
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: linalg.generic {{.*}} ins(%[[WIDE]] : tensor<3x1xi64>)
// CHECK: ^bb0(%[[ID:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpi slt, %[[ID]], %[[ZERO]] : i64
// CHECK-NEXT: %[[WRAPPED:.*]] = arith.addi %[[ID]], %[[SIZE]] : i64
// CHECK-NEXT: %[[NORM:.*]] = arith.select %[[NEG]], %[[WRAPPED]], %[[ID]] : i64
// CHECK-NEXT: arith.cmpi sge, %[[NORM]]
// CHECK: nd.gather_nd %{{.*}}[%{{.*}}] oob<skip> : tensor<4x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>
// CHECK: shard.all_reduce %{{.*}} reduction = bitwise_or : tensor<3x4xi32> -> tensor<3x4xi32>
func.func @gathered_dim_split_skip(%table: tensor<8x4xf32>, %ids: tensor<3x1xi32>) -> tensor<3x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %table to %all : tensor<8x4xf32>
  %t = shard.shard %t0 to %rows annotate_for_users : tensor<8x4xf32>
  %i = shard.shard %ids to %all : tensor<3x1xi32>
  %r = nd.gather_nd %t[%i] oob<skip> : tensor<8x4xf32>, tensor<3x1xi32> -> tensor<3x4xf32>
  %o = shard.shard %r to %all : tensor<3x4xf32>
  return %o : tensor<3x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// Two index components, the second one's dim split, under oob<clamp>: each
// component is clamped into its dim as the op would (the first one too,
// since the process's op skips), the second one is shifted, and the tuples
// are put back together. i16 needs no bitcast for the all-reduce.
// CHECK-LABEL: func.func @two_components_clamp(
// CHECK-SAME: %{{.*}}: tensor<4x6x2xi16>, %[[IDS:.*]]: tensor<3x2xi64>)
// CHECK: %[[DATA:.*]] = shard.all_slice %{{.*}} on @grid grid_axes = [0] slice_axis = 1 : tensor<4x6x2xi16> -> tensor<4x3x2xi16>
// CHECK: %[[FIRST_COMPONENT:.*]] = tensor.extract_slice %[[IDS]][0, 0] [3, 1] [1, 1] : tensor<3x2xi64> to tensor<3x1xi64>
// CHECK: %[[FIRST:.*]] = linalg.generic {{.*}} ins(%[[FIRST_COMPONENT]] : tensor<3x1xi64>)
// CHECK:   arith.maxsi
// CHECK:   arith.minsi
// CHECK-NOT: arith.cmpi sge
// CHECK: linalg.yield
// CHECK: %[[SECOND_COMPONENT:.*]] = tensor.extract_slice %[[IDS]][0, 1] [3, 1] [1, 1] : tensor<3x2xi64> to tensor<3x1xi64>
// CHECK: %[[SECOND:.*]] = linalg.generic {{.*}} ins(%[[SECOND_COMPONENT]] : tensor<3x1xi64>)
// CHECK:   arith.maxsi
// CHECK:   arith.minsi
// CHECK:   arith.cmpi sge
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3x2xi64>
// CHECK: %[[WITH_FIRST:.*]] = tensor.insert_slice %[[FIRST]] into %[[EMPTY]][0, 0] [3, 1] [1, 1]
// CHECK: %[[TUPLES:.*]] = tensor.insert_slice %[[SECOND]] into %[[WITH_FIRST]][0, 1] [3, 1] [1, 1]
// CHECK: %[[R:.*]] = nd.gather_nd %[[DATA]][%[[TUPLES]]] oob<skip> : tensor<4x3x2xi16>, tensor<3x2xi64> -> tensor<3x2xi16>
// CHECK-NEXT: shard.all_reduce %[[R]] on @grid grid_axes = [0] reduction = bitwise_or : tensor<3x2xi16> -> tensor<3x2xi16>
func.func @two_components_clamp(%data: tensor<4x6x2xi16>, %ids: tensor<3x2xi64>) -> tensor<3x2xi16> {
  %rows = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %all : tensor<4x6x2xi16>
  %d = shard.shard %d0 to %rows annotate_for_users : tensor<4x6x2xi16>
  %i = shard.shard %ids to %all : tensor<3x2xi64>
  %r = nd.gather_nd %d[%i] oob<clamp> : tensor<4x6x2xi16>, tensor<3x2xi64> -> tensor<3x2xi16>
  %o = shard.shard %r to %all : tensor<3x2xi16>
  return %o : tensor<3x2xi16>
}

// -----

shard.grid @grid(shape = 2)

// complex<f32> has no MPI datatype in MLIR 22: the gathered dim is not
// partitioned; the table, split on the way in, is gathered back whole.
// CHECK-LABEL: func.func @complex_not_partitioned(
// CHECK-SAME: %[[ROWS:.*]]: tensor<4x4xcomplex<f32>>, %[[IDS:.*]]: tensor<3x1xi64>)
// CHECK: %[[TABLE:.*]] = shard.all_gather %[[ROWS]] on @grid grid_axes = [0] gather_axis = 0 : tensor<4x4xcomplex<f32>> -> tensor<8x4xcomplex<f32>>
// CHECK: nd.gather_nd %{{.*}}[%[[IDS]]] : tensor<8x4xcomplex<f32>>, tensor<3x1xi64> -> tensor<3x4xcomplex<f32>>
// CHECK-NOT: shard.all_reduce
func.func @complex_not_partitioned(%table: tensor<8x4xcomplex<f32>>, %ids: tensor<3x1xi64>) -> tensor<3x4xcomplex<f32>> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %table to %rows : tensor<8x4xcomplex<f32>>
  %t = shard.shard %t0 to %rows annotate_for_users : tensor<8x4xcomplex<f32>>
  %i = shard.shard %ids to %all : tensor<3x1xi64>
  %r = nd.gather_nd %t[%i] : tensor<8x4xcomplex<f32>>, tensor<3x1xi64> -> tensor<3x4xcomplex<f32>>
  %o = shard.shard %r to %all : tensor<3x4xcomplex<f32>>
  return %o : tensor<3x4xcomplex<f32>>
}

// -----

shard.grid @grid(shape = 2)

// A gathered dim of dynamic size is not partitioned either (the offsets of
// the shards and the all-reduce need static sizes).
// CHECK-LABEL: func.func @dynamic_rows_not_partitioned(
// CHECK-SAME: %[[ROWS:.*]]: tensor<?x4xf32>, %[[IDS:.*]]: tensor<?x1xi64>)
// CHECK: shard.all_gather %[[ROWS]] on @grid grid_axes = [0] gather_axis = 0 : tensor<?x4xf32> -> tensor<?x4xf32>
// CHECK: nd.gather_nd %{{.*}}[%[[IDS]]] : tensor<?x4xf32>, tensor<?x1xi64> -> tensor<?x4xf32>
// CHECK-NOT: shard.all_reduce
func.func @dynamic_rows_not_partitioned(%table: tensor<?x4xf32>, %ids: tensor<?x1xi64>) -> tensor<?x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %rows : tensor<?x4xf32>
  %t1 = shard.shard %t to %rows annotate_for_users : tensor<?x4xf32>
  %r = nd.gather_nd %t1[%ids] : tensor<?x4xf32>, tensor<?x1xi64> -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
