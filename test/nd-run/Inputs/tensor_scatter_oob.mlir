func.func @main(%past: tensor<3x4x2xf32>, %update: tensor<3x2x2xf32>, %writes: tensor<3xi64>)
    -> (tensor<3x4x2xf32>, tensor<3x4x2xf32>, tensor<3x4x2xf32>, tensor<3x4x2xf32>, tensor<?x?x2xf32>, tensor<?x?x2xf32>, tensor<?x?x?xf32>) {
  %lskip = nd.tensor_scatter %past[%writes], %update oob<skip> : tensor<3x4x2xf32>[tensor<3xi64>], tensor<3x2x2xf32>
  %lclamp = nd.tensor_scatter %past[%writes], %update oob<clamp> : tensor<3x4x2xf32>[tensor<3xi64>], tensor<3x2x2xf32>
  %cskip = nd.tensor_scatter %past[%writes], %update mode<circular> oob<skip> : tensor<3x4x2xf32>[tensor<3xi64>], tensor<3x2x2xf32>
  %cclamp = nd.tensor_scatter %past[%writes], %update mode<circular> oob<clamp> : tensor<3x4x2xf32>[tensor<3xi64>], tensor<3x2x2xf32>
  %dp = tensor.cast %past : tensor<3x4x2xf32> to tensor<?x?x2xf32>
  %du = tensor.cast %update : tensor<3x2x2xf32> to tensor<?x?x2xf32>
  %dw = tensor.cast %writes : tensor<3xi64> to tensor<?xi64>
  %dlskip = nd.tensor_scatter %dp[%dw], %du oob<skip> : tensor<?x?x2xf32>[tensor<?xi64>], tensor<?x?x2xf32>
  %dlclamp = nd.tensor_scatter %dp[%dw], %du oob<clamp> : tensor<?x?x2xf32>[tensor<?xi64>], tensor<?x?x2xf32>
  %ap = tensor.cast %past : tensor<3x4x2xf32> to tensor<?x?x?xf32>
  %au = tensor.cast %update : tensor<3x2x2xf32> to tensor<?x?x?xf32>
  %dcclamp = nd.tensor_scatter %ap[%dw], %au mode<circular> oob<clamp> : tensor<?x?x?xf32>[tensor<?xi64>], tensor<?x?x?xf32>
  return %lskip, %lclamp, %cskip, %cclamp, %dlskip, %dlclamp, %dcclamp
      : tensor<3x4x2xf32>, tensor<3x4x2xf32>, tensor<3x4x2xf32>, tensor<3x4x2xf32>, tensor<?x?x2xf32>, tensor<?x?x2xf32>, tensor<?x?x?xf32>
}
