// Scatters with dynamic dims, for --donate: @main replaces rows of dim 0
// (the slice of a row spans two dynamic dims), @elements adds along dim 1,
// @along replaces positions of dim 0 (every other dim is 1).
func.func @main(%data: tensor<4x?x?xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2x?x?xf32>) -> tensor<4x?x?xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<4x?x?xf32>, tensor<2x1xi64>, tensor<2x?x?xf32>
  return %0 : tensor<4x?x?xf32>
}

func.func @elements(%data: tensor<?x?xf32>, %indices: tensor<2x2xi64>, %updates: tensor<2x2xf32>) -> tensor<?x?xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<add>
      : tensor<?x?xf32>, tensor<2x2xi64>, tensor<2x2xf32>
  return %0 : tensor<?x?xf32>
}

func.func @along(%data: tensor<?x1xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2x1xf32>) -> tensor<?x1xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(0)
      : tensor<?x1xf32>, tensor<2x1xi64>, tensor<2x1xf32>
  return %0 : tensor<?x1xf32>
}
