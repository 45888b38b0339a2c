func.func @main(%data: tensor<5xf32>, %indices: tensor<7xi64>, %rows: tensor<?x?x?xi32>, %rowIndices: tensor<?x?xi32>)
    -> (tensor<7xf32>, tensor<?x?x?xi32>) {
  %static = nd.gather %data[%indices] : tensor<5xf32>, tensor<7xi64> -> tensor<7xf32>
  %dynamic = nd.gather %rows[%rowIndices] axis(1) batch_dims(1) : tensor<?x?x?xi32>, tensor<?x?xi32> -> tensor<?x?x?xi32>
  return %static, %dynamic : tensor<7xf32>, tensor<?x?x?xi32>
}
