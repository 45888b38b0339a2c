func.func @main(%cache: tensor<2x4x8x4xf16>, %indices: tensor<2x4x1x3xi64>, %updates: tensor<2x4x1x4xf16>) -> tensor<2x4x8x4xf16> {
  %0 = nd.scatter_nd %cache[%indices], %updates : tensor<2x4x8x4xf16>, tensor<2x4x1x3xi64>, tensor<2x4x1x4xf16>
  return %0 : tensor<2x4x8x4xf16>
}
