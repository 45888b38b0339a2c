// nd.scatter_nd on a `data` whose dynamic dims make it empty at run time.

// Slices of `data` that are empty at run time ([1, 0]); the indices are
// checked all the same.
func.func @scatter_nd_empty_slices(%data: tensor<1x?xi16>, %indices: tensor<2x1xi64>, %updates: tensor<2x?xi16>) -> tensor<1x?xi16> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<1x?xi16>, tensor<2x1xi64>, tensor<2x?xi16>
  return %0 : tensor<1x?xi16>
}

// A `data` of no rows at run time ([0, 80]: wide slices).
func.func @scatter_nd_no_rows(%data: tensor<?x?xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2x?xf32>) -> tensor<?x?xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<?x?xf32>, tensor<2x1xi64>, tensor<2x?xf32>
  return %0 : tensor<?x?xf32>
}
