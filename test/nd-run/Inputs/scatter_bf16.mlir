// A bf16 scatter_nd with reduction add: bf16 inputs and a bf16 result.
func.func @main(%data: tensor<4xbf16>, %indices: tensor<2x1xi64>,
                %updates: tensor<2xbf16>) -> tensor<4xbf16> {
  %sum = nd.scatter_nd %data[%indices], %updates reduction<add>
      : tensor<4xbf16>, tensor<2x1xi64>, tensor<2xbf16>
  return %sum : tensor<4xbf16>
}
