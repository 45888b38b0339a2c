// bfloat16 results computed in f32 and f64 and rounded back: code generated
// for a CPU without bfloat16 conversions calls the runtime's.
func.func @main(%data: tensor<4xbf16>, %indices: tensor<3x1xi64>,
                %updates: tensor<3xbf16>, %wide: tensor<3xf64>)
    -> (tensor<4xbf16>, tensor<3xbf16>) {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add>
      : tensor<4xbf16>, tensor<3x1xi64>, tensor<3xbf16>
  %1 = arith.truncf %wide : tensor<3xf64> to tensor<3xbf16>
  return %0, %1 : tensor<4xbf16>, tensor<3xbf16>
}
