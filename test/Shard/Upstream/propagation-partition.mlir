// MLIR 22 as packaged by Debian: upstream's sharding-propagation and
// shard-partition work on a function of upstream ops (linalg here), with the
// stock mlir-opt.
// RUN: %mlir_opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' | FileCheck %s

shard.grid @grid(shape = 2)

// A sum over a split vector: each process sums its half (process 0 into the
// init value, the others into the neutral 0), then an all-reduce; the input
// arrives replicated and is sliced.
// CHECK-LABEL: func.func @sum(
// CHECK-SAME: %[[X:.*]]: tensor<4xf32>) -> tensor<f32>
// CHECK: %[[HALF:.*]] = shard.all_slice %[[X]] on @grid grid_axes = [0] slice_axis = 0 : tensor<4xf32> -> tensor<2xf32>
// CHECK: %[[INIT:.*]] = scf.if
// CHECK: %[[PARTIAL:.*]] = linalg.reduce ins(%[[HALF]] : tensor<2xf32>) outs(%[[INIT]] : tensor<f32>)
// CHECK: shard.all_reduce %[[PARTIAL]] on @grid grid_axes = [0] : tensor<f32> -> tensor<f32>
func.func @sum(%x: tensor<4xf32>) -> tensor<f32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x0 = shard.shard %x to %all : tensor<4xf32>
  %a = shard.shard %x0 to %split annotate_for_users : tensor<4xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%a : tensor<4xf32>) outs(%init : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<f32>
}

// An elementwise op on split operands, the result gathered back to
// replicated.
// CHECK-LABEL: func.func @double(
// CHECK: %[[HALF:.*]] = shard.all_slice %{{.*}} : tensor<4xf32> -> tensor<2xf32>
// CHECK: %[[Y:.*]] = linalg.add ins(%[[HALF]], %[[HALF]] : tensor<2xf32>, tensor<2xf32>)
// CHECK: shard.all_gather %[[Y]] on @grid grid_axes = [0] gather_axis = 0 : tensor<2xf32> -> tensor<4xf32>
func.func @double(%x: tensor<4xf32>) -> tensor<4xf32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x0 = shard.shard %x to %all : tensor<4xf32>
  %a = shard.shard %x0 to %split annotate_for_users : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %b = shard.shard %y to %split : tensor<4xf32>
  %c = shard.shard %b to %all annotate_for_users : tensor<4xf32>
  return %c : tensor<4xf32>
}
