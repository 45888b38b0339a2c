// Ten results of three element types and ranks 1 to 3 (see
// many-results.test): scatters, gathers, an argument returned as it is and a
// result returned twice. nd-run's entry function writes them through a
// pointer rather than returning a struct of ten descriptors.
func.func @main(%a: tensor<6x4xf32>, %i: tensor<3x1xi64>, %u: tensor<3x4xf32>,
                %b: tensor<5xi32>, %j: tensor<2x1xi64>, %v: tensor<2xi32>,
                %c: tensor<2x3x4xf16>, %k: tensor<2x2xi64>, %w: tensor<2x4xf16>)
    -> (tensor<6x4xf32>, tensor<6x4xf32>, tensor<3x4xf32>, tensor<5xi32>,
        tensor<2xi32>, tensor<2x3x4xf16>, tensor<2x4xf16>, tensor<6x4xf32>,
        tensor<6x4xf32>, tensor<5xi32>) {
  %s0 = nd.scatter_nd %a[%i], %u : tensor<6x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  %s1 = nd.scatter_nd %a[%i], %u reduction<add> : tensor<6x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  %g0 = nd.gather_nd %a[%i] : tensor<6x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>
  %s2 = nd.scatter_nd %b[%j], %v : tensor<5xi32>, tensor<2x1xi64>, tensor<2xi32>
  %g1 = nd.gather_nd %b[%j] : tensor<5xi32>, tensor<2x1xi64> -> tensor<2xi32>
  %s3 = nd.scatter_nd %c[%k], %w : tensor<2x3x4xf16>, tensor<2x2xi64>, tensor<2x4xf16>
  %g2 = nd.gather_nd %c[%k] : tensor<2x3x4xf16>, tensor<2x2xi64> -> tensor<2x4xf16>
  return %s0, %s1, %g0, %s2, %g1, %s3, %g2, %a, %s0, %b
      : tensor<6x4xf32>, tensor<6x4xf32>, tensor<3x4xf32>, tensor<5xi32>,
        tensor<2xi32>, tensor<2x3x4xf16>, tensor<2x4xf16>, tensor<6x4xf32>,
        tensor<6x4xf32>, tensor<5xi32>
}
