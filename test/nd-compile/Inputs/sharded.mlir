// A function whose rows are sharded over two processes: nd-compile
// --target=cuda refuses it (test/nd-compile/cuda-invalid.test).
shard.grid @grid(shape = 2)
func.func @main(%table: tensor<8x4xf32>, %ids: tensor<3xi64>)
    -> tensor<3x4xf32> {
  %sharding = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %rows = shard.shard %table to %sharding : tensor<8x4xf32>
  %0 = nd.gather %rows[%ids] : tensor<8x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
