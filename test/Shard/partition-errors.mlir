// RUN: nd-opt %s --pass-pipeline='builtin.module(func.func(shard-partition))' -split-input-file -verify-diagnostics

// Shardings an nd op cannot be partitioned with, given to shard-partition
// as they are (sharding-propagation never chooses them): the op is reported,
// never partitioned wrongly.

shard.grid @grid(shape = 2)

// Splits of the table's rows and of the ids over the same grid axis cannot
// both hold.
func.func @conflicting_annotations(%table: tensor<8x4xf32>, %ids: tensor<6x1xi64>) -> tensor<6x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %rows annotate_for_users : tensor<8x4xf32>
  %i = shard.shard %ids to %rows annotate_for_users : tensor<6x1xi64>
  // expected-error @below {{cannot be partitioned: grid axis 0 splits two dims}}
  %r = nd.gather_nd %t[%i] : tensor<8x4xf32>, tensor<6x1xi64> -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// -----

shard.grid @grid(shape = 2)

// The component dim of the indices is never split.
func.func @component_dim_split(%table: tensor<8x4xf32>, %ids: tensor<3x2xi64>) -> tensor<3xf32> {
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %t0 = shard.shard %table to %all : tensor<8x4xf32>
  %t = shard.shard %t0 to %all annotate_for_users : tensor<8x4xf32>
  %i0 = shard.shard %ids to %cols : tensor<3x2xi64>
  %i = shard.shard %i0 to %cols annotate_for_users : tensor<3x2xi64>
  // expected-error @below {{cannot be partitioned as annotated: dim 1 of 'indices' is never split}}
  %r = nd.gather_nd %t[%i] : tensor<8x4xf32>, tensor<3x2xi64> -> tensor<3xf32>
  %o = shard.shard %r to %all : tensor<3xf32>
  %o1 = shard.shard %o to %all annotate_for_users : tensor<3xf32>
  return %o1 : tensor<3xf32>
}

// -----

shard.grid @grid(shape = 2)

// The result's columns split, the data's not: they are the same loop.
func.func @result_split_unlike_data(%data: tensor<4x6xf32>, %ids: tensor<3x1xi64>) -> tensor<3x6xf32> {
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %cols = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %d0 = shard.shard %data to %all : tensor<4x6xf32>
  %d = shard.shard %d0 to %all annotate_for_users : tensor<4x6xf32>
  %i0 = shard.shard %ids to %all : tensor<3x1xi64>
  %i = shard.shard %i0 to %all annotate_for_users : tensor<3x1xi64>
  // expected-error @below {{cannot be partitioned: dim 1 of 'result' is split unlike the dims it must be split with}}
  %r = nd.gather_nd %d[%i] : tensor<4x6xf32>, tensor<3x1xi64> -> tensor<3x6xf32>
  %o = shard.shard %r to %cols : tensor<3x6xf32>
  %o1 = shard.shard %o to %cols annotate_for_users : tensor<3x6xf32>
  return %o1 : tensor<3x6xf32>
}

// -----

shard.grid @grid(shape = 2)

// Halos are not partitionings of nd ops.
func.func @halo(%data: tensor<8xf32>, %ids: tensor<3x1xi64>) -> tensor<3xf32> {
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %halo = shard.sharding @grid split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %d0 = shard.shard %data to %halo : tensor<8xf32>
  %d = shard.shard %d0 to %halo annotate_for_users : tensor<8xf32>
  %i0 = shard.shard %ids to %all : tensor<3x1xi64>
  %i = shard.shard %i0 to %all annotate_for_users : tensor<3x1xi64>
  // expected-error @below {{cannot be partitioned: 'data' has halos or explicit shard offsets; nd ops take even splits only}}
  %r = nd.gather_nd %d[%i] : tensor<8xf32>, tensor<3x1xi64> -> tensor<3xf32>
  %o = shard.shard %r to %all : tensor<3xf32>
  %o1 = shard.shard %o to %all annotate_for_users : tensor<3xf32>
  return %o1 : tensor<3xf32>
}

// -----

shard.grid @grid(shape = 2x2)

// A scatter-add with both its data's rows and its update entries split.
func.func @owned_and_partial(%data: tensor<8xf32>, %ids: tensor<4x1xi64>, %updates: tensor<4xf32>) -> tensor<8xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %entries = shard.sharding @grid split_axes = [[1]] : !shard.sharding
  %d0 = shard.shard %data to %rows : tensor<8xf32>
  %d = shard.shard %d0 to %rows annotate_for_users : tensor<8xf32>
  %i0 = shard.shard %ids to %entries : tensor<4x1xi64>
  %i = shard.shard %i0 to %entries annotate_for_users : tensor<4x1xi64>
  %u0 = shard.shard %updates to %entries : tensor<4xf32>
  %u = shard.shard %u0 to %entries annotate_for_users : tensor<4xf32>
  // expected-error @below {{cannot be partitioned as annotated: the update entries and an indexed dim of 'data' are both split}}
  %r = nd.scatter_nd %d[%i], %u reduction<add> : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  %o = shard.shard %r to %rows : tensor<8xf32>
  %o1 = shard.shard %o to %rows annotate_for_users : tensor<8xf32>
  return %o1 : tensor<8xf32>
}

// -----

shard.grid @grid(shape = 4)

// A split that does not divide the dim.
func.func @not_divisible(%data: tensor<6x2xf32>, %ids: tensor<3x1xi64>) -> tensor<3x2xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %rows : tensor<6x2xf32>
  %d = shard.shard %d0 to %rows annotate_for_users : tensor<6x2xf32>
  %i0 = shard.shard %ids to %all : tensor<3x1xi64>
  %i = shard.shard %i0 to %all annotate_for_users : tensor<3x1xi64>
  // expected-error @below {{cannot be partitioned as annotated: dim 0 of 'data' (6) is not divisible by the 4 processes}}
  %r = nd.gather_nd %d[%i] : tensor<6x2xf32>, tensor<3x1xi64> -> tensor<3x2xf32>
  %o = shard.shard %r to %all : tensor<3x2xf32>
  %o1 = shard.shard %o to %all annotate_for_users : tensor<3x2xf32>
  return %o1 : tensor<3x2xf32>
}

// -----

shard.grid @grid(shape = 2)

// The indexed dim of `data` split where its size is dynamic.
func.func @dynamic_owned(%data: tensor<?x2xf32>, %ids: tensor<3x1xi64>) -> tensor<3x2xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %rows : tensor<?x2xf32>
  %d = shard.shard %d0 to %rows annotate_for_users : tensor<?x2xf32>
  %i0 = shard.shard %ids to %all : tensor<3x1xi64>
  %i = shard.shard %i0 to %all annotate_for_users : tensor<3x1xi64>
  // expected-error @below {{cannot be partitioned as annotated: dim 0 of 'data' is dynamic}}
  %r = nd.gather_nd %d[%i] : tensor<?x2xf32>, tensor<3x1xi64> -> tensor<3x2xf32>
  %o = shard.shard %r to %all : tensor<3x2xf32>
  %o1 = shard.shard %o to %all annotate_for_users : tensor<3x2xf32>
  return %o1 : tensor<3x2xf32>
}

// -----

shard.grid @grid(shape = 2)
shard.grid @other(shape = 2)

// Operands on different grids.
func.func @two_grids(%data: tensor<4x2xf32>, %ids: tensor<2x1xi64>) -> tensor<2x2xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %other = shard.sharding @other split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %d0 = shard.shard %data to %all : tensor<4x2xf32>
  %d = shard.shard %d0 to %all annotate_for_users : tensor<4x2xf32>
  %i0 = shard.shard %ids to %other : tensor<2x1xi64>
  %i = shard.shard %i0 to %other annotate_for_users : tensor<2x1xi64>
  // expected-error @below {{cannot be partitioned: its operands and result are sharded on different grids}}
  %r = nd.gather_nd %d[%i] : tensor<4x2xf32>, tensor<2x1xi64> -> tensor<2x2xf32>
  %o = shard.shard %r to %rows : tensor<2x2xf32>
  %o1 = shard.shard %o to %rows annotate_for_users : tensor<2x2xf32>
  return %o1 : tensor<2x2xf32>
}
