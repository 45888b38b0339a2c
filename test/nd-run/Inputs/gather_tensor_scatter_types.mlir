// nd.gather and nd.tensor_scatter on bf16, i1, complex<f32> and ui8.
func.func @main(%b: tensor<4xbf16>, %bi: tensor<3xi64>, %bp: tensor<1x4xbf16>, %bu: tensor<1x2xbf16>, %bw: tensor<1xi64>,
                %flags: tensor<5xi1>, %fi: tensor<2x2xi32>,
                %c: tensor<2x3x1xcomplex<f32>>, %cu: tensor<2x2x1xcomplex<f32>>, %cw: tensor<2xi64>,
                %p: tensor<2x3xui8>, %pu: tensor<2x1xui8>)
    -> (tensor<3xbf16>, tensor<1x4xbf16>, tensor<2x2xi1>, tensor<2x3x1xcomplex<f32>>, tensor<2x3xui8>) {
  %g = nd.gather %b[%bi] oob<skip> : tensor<4xbf16>, tensor<3xi64> -> tensor<3xbf16>
  %s = nd.tensor_scatter %bp[%bw], %bu axis(1) mode<circular> : tensor<1x4xbf16>[tensor<1xi64>], tensor<1x2xbf16>
  %f = nd.gather %flags[%fi] oob<clamp> : tensor<5xi1>, tensor<2x2xi32> -> tensor<2x2xi1>
  %k = nd.tensor_scatter %c[%cw], %cu mode<circular> : tensor<2x3x1xcomplex<f32>>[tensor<2xi64>], tensor<2x2x1xcomplex<f32>>
  %u = nd.tensor_scatter %p, %pu axis(-1) : tensor<2x3xui8>, tensor<2x1xui8>
  return %g, %s, %f, %k, %u : tensor<3xbf16>, tensor<1x4xbf16>, tensor<2x2xi1>, tensor<2x3x1xcomplex<f32>>, tensor<2x3xui8>
}
