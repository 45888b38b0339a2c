func.func @main(%data: tensor<5xf32>, %indices: tensor<7xi64>, %rows: tensor<2x3x2xi32>, %rowIndices: tensor<2x2xi32>)
    -> (tensor<7xf32>, tensor<7xf32>, tensor<?xf32>, tensor<?xf32>, tensor<2x2x2xi32>, tensor<2x2x2xi32>, tensor<?x?x2xi32>, tensor<?x?x?xi32>) {
  %skip = nd.gather %data[%indices] oob<skip> : tensor<5xf32>, tensor<7xi64> -> tensor<7xf32>
  %clamp = nd.gather %data[%indices] oob<clamp> : tensor<5xf32>, tensor<7xi64> -> tensor<7xf32>
  %dd = tensor.cast %data : tensor<5xf32> to tensor<?xf32>
  %di = tensor.cast %indices : tensor<7xi64> to tensor<?xi64>
  %dskip = nd.gather %dd[%di] oob<skip> : tensor<?xf32>, tensor<?xi64> -> tensor<?xf32>
  %dclamp = nd.gather %dd[%di] oob<clamp> : tensor<?xf32>, tensor<?xi64> -> tensor<?xf32>
  %rskip = nd.gather %rows[%rowIndices] axis(1) batch_dims(1) oob<skip> : tensor<2x3x2xi32>, tensor<2x2xi32> -> tensor<2x2x2xi32>
  %rclamp = nd.gather %rows[%rowIndices] axis(1) batch_dims(1) oob<clamp> : tensor<2x3x2xi32>, tensor<2x2xi32> -> tensor<2x2x2xi32>
  %dr = tensor.cast %rows : tensor<2x3x2xi32> to tensor<?x?x?xi32>
  %dri = tensor.cast %rowIndices : tensor<2x2xi32> to tensor<?x?xi32>
  %drskip = nd.gather %dr[%dri] axis(1) batch_dims(1) oob<skip> : tensor<?x?x?xi32>, tensor<?x?xi32> -> tensor<?x?x?xi32>
  %drs = tensor.cast %drskip : tensor<?x?x?xi32> to tensor<?x?x2xi32>
  %drclamp = nd.gather %dr[%dri] axis(1) batch_dims(1) oob<clamp> : tensor<?x?x?xi32>, tensor<?x?xi32> -> tensor<?x?x?xi32>
  return %skip, %clamp, %dskip, %dclamp, %rskip, %rclamp, %drs, %drclamp
      : tensor<7xf32>, tensor<7xf32>, tensor<?xf32>, tensor<?xf32>, tensor<2x2x2xi32>, tensor<2x2x2xi32>, tensor<?x?x2xi32>, tensor<?x?x?xi32>
}
