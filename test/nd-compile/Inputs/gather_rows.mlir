// Rows of `table` at `ids`: a result as large as the caller asks for
// (out-of-memory.test asks for more than can be allocated).
func.func @main(%table: tensor<?x?xf32>, %ids: tensor<?xi64>) -> tensor<?x?xf32> {
  %rows = nd.gather %table[%ids] : tensor<?x?xf32>, tensor<?xi64> -> tensor<?x?xf32>
  return %rows : tensor<?x?xf32>
}
