func.func @main(%past: tensor<?x?x?xf32>, %update: tensor<?x?x?xf32>, %writes: tensor<?xi64>) -> tensor<?x?x?xf32> {
  %r = nd.tensor_scatter %past[%writes], %update : tensor<?x?x?xf32>[tensor<?xi64>], tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
