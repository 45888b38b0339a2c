// A cache updated in place (donated with --donate 0) and rows gathered from
// it, both of a number of rows known at run time.
func.func @main(%cache: tensor<4x3xf32>, %rows: tensor<?x1xi64>,
                %values: tensor<?x3xf32>, %ids: tensor<?xi64>)
    -> (tensor<4x3xf32>, tensor<?x3xf32>) {
  %0 = nd.scatter_nd %cache[%rows], %values
      : tensor<4x3xf32>, tensor<?x1xi64>, tensor<?x3xf32>
  %1 = nd.gather %0[%ids] : tensor<4x3xf32>, tensor<?xi64> -> tensor<?x3xf32>
  return %0, %1 : tensor<4x3xf32>, tensor<?x3xf32>
}
