// Rows of a 4x3 table, as many as there are ids (known at run time).
func.func @main(%data: tensor<4x3xf32>, %ids: tensor<?xi64>)
    -> tensor<?x3xf32> {
  %r = nd.gather %data[%ids] : tensor<4x3xf32>, tensor<?xi64> -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
