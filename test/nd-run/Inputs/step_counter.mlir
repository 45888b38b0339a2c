// A call counter kept in a donated input: each call adds 1 to %count in
// place and reads row %count (after the increment) of a 3-row table, so the
// third call on the same counter reads row 3, which is out of range.
func.func @main(%count: tensor<1xi64>, %table: tensor<3x2xf32>) -> (tensor<1xi64>, tensor<1x2xf32>) {
  %at = arith.constant dense<[[0]]> : tensor<1x1xi64>
  %one = arith.constant dense<[1]> : tensor<1xi64>
  %next = nd.scatter_nd %count[%at], %one reduction<add> : tensor<1xi64>, tensor<1x1xi64>, tensor<1xi64>
  %row = tensor.expand_shape %next [[0, 1]] output_shape [1, 1] : tensor<1xi64> into tensor<1x1xi64>
  %read = nd.gather_nd %table[%row] : tensor<3x2xf32>, tensor<1x1xi64> -> tensor<1x2xf32>
  return %next, %read : tensor<1xi64>, tensor<1x2xf32>
}
