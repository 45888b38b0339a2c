// nd.gather on an `indices` whose dynamic dim is 0 at run time.

// Rows of `data` by an `indices` whose dynamic dim is 0 at run time.
func.func @gather(%data: tensor<4x3xf32>, %indices: tensor<?xi64>) -> tensor<?x3xf32> {
  %0 = nd.gather %data[%indices] : tensor<4x3xf32>, tensor<?xi64> -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// Along axis 1 of i8 data, with a batch dim and 2-D indices [2, 0].
func.func @gather_batch(%data: tensor<2x4x3xi8>, %indices: tensor<2x?xi32>) -> tensor<2x?x3xi8> {
  %0 = "nd.gather"(%data, %indices) <{axis = 1 : i64, batch_dims = 1 : i64}>
      : (tensor<2x4x3xi8>, tensor<2x?xi32>) -> tensor<2x?x3xi8>
  return %0 : tensor<2x?x3xi8>
}
