func.func @main(%data: tensor<8xf32>, %indices: tensor<4x1xi64>, %updates: tensor<4xf32>) -> tensor<8xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  return %0 : tensor<8xf32>
}
