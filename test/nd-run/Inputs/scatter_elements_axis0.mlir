// scatter_elements along dim 0 of a matrix (see scatter-elements-checks.test):
// the partitions own ranges of columns; every index is checked before they
// write.
func.func @main(%data: tensor<4000x64xf32>, %indices: tensor<20000x64xi64>,
                %updates: tensor<20000x64xf32>) -> tensor<4000x64xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(0) reduction<add>
      : tensor<4000x64xf32>, tensor<20000x64xi64>, tensor<20000x64xf32>
  return %0 : tensor<4000x64xf32>
}
