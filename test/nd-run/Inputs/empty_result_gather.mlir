// The op of test/Dialect/Nd/Tiling/tiling-invalid.mlir's @empty_result,
// untiled: a gather with an empty result (dim 0 of 'data' is 0).
func.func @main(%d: tensor<0x?xui8>, %i: tensor<2xi64>) -> tensor<0x2xui8> {
  %r = nd.gather %d[%i] axis(1) : tensor<0x?xui8>, tensor<2xi64> -> tensor<0x2xui8>
  return %r : tensor<0x2xui8>
}
