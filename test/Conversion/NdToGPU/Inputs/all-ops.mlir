// Every nd op, reduction and oob mode on a few element types, static and
// dynamic shapes: the kernels of nd-to-gpu-ptxas.test.
func.func @gather_nd(%d: tensor<?x?x8xf16>, %i: tensor<?x5x1xi64>) -> tensor<?x5x8xf16> {
  %0 = nd.gather_nd %d[%i] batch_dims(1) : tensor<?x?x8xf16>, tensor<?x5x1xi64> -> tensor<?x5x8xf16>
  return %0 : tensor<?x5x8xf16>
}
func.func @gather(%d: tensor<5x7x4xbf16>, %i: tensor<3xi32>) -> tensor<5x3x4xbf16> {
  %0 = nd.gather %d[%i] axis(1) oob<skip> : tensor<5x7x4xbf16>, tensor<3xi32> -> tensor<5x3x4xbf16>
  return %0 : tensor<5x3x4xbf16>
}
func.func @gather_elements(%d: tensor<?x?xf64>, %i: tensor<?x?xindex>) -> tensor<?x?xf64> {
  %0 = nd.gather_elements %d[%i] axis(0) oob<clamp> : tensor<?x?xf64>, tensor<?x?xindex> -> tensor<?x?xf64>
  return %0 : tensor<?x?xf64>
}
func.func @scatter_nd_none(%d: tensor<?x16xi8>, %i: tensor<?x1xi64>, %u: tensor<?x16xi8>) -> tensor<?x16xi8> {
  %0 = nd.scatter_nd %d[%i], %u : tensor<?x16xi8>, tensor<?x1xi64>, tensor<?x16xi8>
  return %0 : tensor<?x16xi8>
}
func.func @scatter_nd_add(%d: tensor<64x64xf32>, %i: tensor<1000x2xi32>, %u: tensor<1000xf32>) -> tensor<64x64xf32> {
  %0 = nd.scatter_nd %d[%i], %u reduction<add> : tensor<64x64xf32>, tensor<1000x2xi32>, tensor<1000xf32>
  return %0 : tensor<64x64xf32>
}
func.func @scatter_nd_mul(%d: tensor<8x4xcomplex<f32>>, %i: tensor<3x1xi64>, %u: tensor<3x4xcomplex<f32>>) -> tensor<8x4xcomplex<f32>> {
  %0 = nd.scatter_nd %d[%i], %u reduction<mul> oob<skip> : tensor<8x4xcomplex<f32>>, tensor<3x1xi64>, tensor<3x4xcomplex<f32>>
  return %0 : tensor<8x4xcomplex<f32>>
}
func.func @scatter_nd_max(%d: tensor<?x?xui16>, %i: tensor<?x1xi64>, %u: tensor<?x?xui16>) -> tensor<?x?xui16> {
  %0 = nd.scatter_nd %d[%i], %u reduction<max> : tensor<?x?xui16>, tensor<?x1xi64>, tensor<?x?xui16>
  return %0 : tensor<?x?xui16>
}
func.func @scatter_nd_min_bool(%d: tensor<8x4xi1>, %i: tensor<3x1xi64>, %u: tensor<3x4xi1>) -> tensor<8x4xi1> {
  %0 = nd.scatter_nd %d[%i], %u reduction<min> : tensor<8x4xi1>, tensor<3x1xi64>, tensor<3x4xi1>
  return %0 : tensor<8x4xi1>
}
func.func @scatter_nd_sub(%d: tensor<8x4xf64>, %i: tensor<?x?xi64>, %u: tensor<?x4xf64>) -> tensor<8x4xf64> {
  %0 = nd.scatter_nd %d[%i], %u reduction<sub> oob<clamp> : tensor<8x4xf64>, tensor<?x?xi64>, tensor<?x4xf64>
  return %0 : tensor<8x4xf64>
}
func.func @scatter_elements_mean(%d: tensor<?x?xi64>, %i: tensor<?x?xi64>, %u: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %0 = nd.scatter_elements %d[%i], %u axis(0) reduction<mean> : tensor<?x?xi64>, tensor<?x?xi64>, tensor<?x?xi64>
  return %0 : tensor<?x?xi64>
}
func.func @scatter_elements_mean_f16(%d: tensor<6x4xf16>, %i: tensor<5x4xi32>, %u: tensor<5x4xf16>) -> tensor<6x4xf16> {
  %0 = nd.scatter_elements %d[%i], %u axis(0) reduction<mean> {use_init_val = false} : tensor<6x4xf16>, tensor<5x4xi32>, tensor<5x4xf16>
  return %0 : tensor<6x4xf16>
}
func.func @scatter_elements_max(%d: tensor<6x4xf32>, %i: tensor<6x3xi64>, %u: tensor<6x3xf32>) -> tensor<6x4xf32> {
  %0 = nd.scatter_elements %d[%i], %u axis(1) reduction<max> {use_init_val = false} : tensor<6x4xf32>, tensor<6x3xi64>, tensor<6x3xf32>
  return %0 : tensor<6x4xf32>
}
func.func @tensor_scatter(%c: tensor<?x4x?x8xf16>, %w: tensor<?xi64>, %u: tensor<?x4x?x8xf16>) -> tensor<?x4x?x8xf16> {
  %0 = nd.tensor_scatter %c[%w], %u axis(2) mode<circular> : tensor<?x4x?x8xf16>[tensor<?xi64>], tensor<?x4x?x8xf16>
  return %0 : tensor<?x4x?x8xf16>
}
