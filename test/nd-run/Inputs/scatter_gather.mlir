// Dynamic shapes: a scatter_nd with reduction add, then a gather_elements of
// its result.
func.func @main(%data: tensor<?x?xf32>, %indices: tensor<?x1xi64>,
                %updates: tensor<?x?xf32>, %picks: tensor<?x?xi32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %sum = nd.scatter_nd %data[%indices], %updates reduction<add>
      : tensor<?x?xf32>, tensor<?x1xi64>, tensor<?x?xf32>
  %picked = nd.gather_elements %sum[%picks] axis(1)
      : tensor<?x?xf32>, tensor<?x?xi32> -> tensor<?x?xf32>
  return %sum, %picked : tensor<?x?xf32>, tensor<?x?xf32>
}
