// MLIR 22: shard-partition of a dim that does not split evenly (6 rows over
// 4 processes) builds invalid IR: the shards get 6 / 4 = 1 row, gathered
// back into 4, cast to 6. nd ops never ask for such a split
// (docs/Rationale.md, "Sharded programs"); an annotation that does fails
// here, in upstream's resharding.
// RUN: not %mlir_opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' 2>&1 | FileCheck %s

// CHECK: error: 'tensor.cast' op operand type 'tensor<4x4xf32>' and result type 'tensor<6x4xf32>' are cast incompatible

shard.grid @grid(shape = 4)
func.func @double(%x: tensor<6x4xf32>) -> tensor<6x4xf32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x0 = shard.shard %x to %all : tensor<6x4xf32>
  %a = shard.shard %x0 to %split annotate_for_users : tensor<6x4xf32>
  %e = tensor.empty() : tensor<6x4xf32>
  %y = linalg.add ins(%a, %a : tensor<6x4xf32>, tensor<6x4xf32>) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %b = shard.shard %y to %split : tensor<6x4xf32>
  %c = shard.shard %b to %all annotate_for_users : tensor<6x4xf32>
  return %c : tensor<6x4xf32>
}
