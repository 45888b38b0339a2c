func.func @main(%table: tensor<1000x64xf32>, %ids: tensor<4096xi64>, %heads: tensor<4x8x16xf16>, %cols: tensor<4x3000xi32>,
                %cache: tensor<4x8x512x64xf32>, %new: tensor<4x8x64x64xf32>, %writes: tensor<4xi64>, %cwrites: tensor<4xi64>,
                %prompt: tensor<1x4096x64xf32>, %tokens: tensor<1x3000x64xf32>, %pw: tensor<1xi64>, %pcw: tensor<1xi64>)
    -> (tensor<4096x64xf32>, tensor<4x8x3000xf16>, tensor<4x8x512x64xf32>, tensor<4x8x512x64xf32>,
        tensor<1x4096x64xf32>, tensor<1x4096x64xf32>) {
  %rows = nd.gather %table[%ids] : tensor<1000x64xf32>, tensor<4096xi64> -> tensor<4096x64xf32>
  %points = nd.gather %heads[%cols] axis(2) batch_dims(1) : tensor<4x8x16xf16>, tensor<4x3000xi32> -> tensor<4x8x3000xf16>
  %linear = nd.tensor_scatter %cache[%writes], %new : tensor<4x8x512x64xf32>[tensor<4xi64>], tensor<4x8x64x64xf32>
  %circular = nd.tensor_scatter %cache[%cwrites], %new mode<circular> : tensor<4x8x512x64xf32>[tensor<4xi64>], tensor<4x8x64x64xf32>
  // One batch entry: partitions split the positions along the axis.
  %plinear = nd.tensor_scatter %prompt[%pw], %tokens axis(1) : tensor<1x4096x64xf32>[tensor<1xi64>], tensor<1x3000x64xf32>
  %pcircular = nd.tensor_scatter %prompt[%pcw], %tokens axis(1) mode<circular> : tensor<1x4096x64xf32>[tensor<1xi64>], tensor<1x3000x64xf32>
  return %rows, %points, %linear, %circular, %plinear, %pcircular
      : tensor<4096x64xf32>, tensor<4x8x3000xf16>, tensor<4x8x512x64xf32>, tensor<4x8x512x64xf32>,
        tensor<1x4096x64xf32>, tensor<1x4096x64xf32>
}
