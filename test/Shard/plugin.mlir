// REQUIRES: nd-plugin
// A stock mlir-opt with NdPlugin.so partitions nd ops: the plugin registers
// their ShardingInterface and nd's passes through nd's registration entry
// point.
// RUN: %mlir_opt %s --load-dialect-plugin=%nd_plugin --load-pass-plugin=%nd_plugin --pass-pipeline='builtin.module(nd-partition{check-process-count=false})' | FileCheck %s

shard.grid @grid(shape = 2)

// CHECK-LABEL: func.func @lookup(
// CHECK: %[[ROWS:.*]] = shard.all_slice %{{.*}} slice_axis = 0 : tensor<8x4xf32> -> tensor<4x4xf32>
// CHECK: nd.gather_nd %[[ROWS]][%{{.*}}] oob<skip> : tensor<4x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>
// CHECK: shard.all_reduce %{{.*}} reduction = bitwise_or
func.func @lookup(%table: tensor<8x4xf32>, %ids: tensor<3x1xi64>) -> tensor<3x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t0 = shard.shard %table to %all : tensor<8x4xf32>
  %t = shard.shard %t0 to %rows annotate_for_users : tensor<8x4xf32>
  %i = shard.shard %ids to %all : tensor<3x1xi64>
  %r = nd.gather_nd %t[%i] : tensor<8x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>
  %o = shard.shard %r to %all : tensor<3x4xf32>
  return %o : tensor<3x4xf32>
}
