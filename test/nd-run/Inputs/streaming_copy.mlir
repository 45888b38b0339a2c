// Out-of-place scatters into data of 16 MiB or more (see streaming-copy.test):
// data is an argument, which is not written, so each scatter copies it.
func.func @main(%d32: tensor<4200001xf32>, %i32: tensor<1000x1xi64>, %u32: tensor<1000xf32>,
                %d16: tensor<3x2900001xf16>, %i16: tensor<2x1xi64>, %u16: tensor<2x2900001xf16>,
                %d8: tensor<17000003xi8>, %i8: tensor<500x1xi64>, %u8: tensor<500xi8>)
    -> (tensor<4200001xf32>, tensor<3x2900001xf16>, tensor<17000003xi8>, tensor<?xf32>) {
  %a = nd.scatter_nd %d32[%i32], %u32 reduction<add> : tensor<4200001xf32>, tensor<1000x1xi64>, tensor<1000xf32>
  %b = nd.scatter_nd %d16[%i16], %u16 : tensor<3x2900001xf16>, tensor<2x1xi64>, tensor<2x2900001xf16>
  %c = nd.scatter_nd %d8[%i8], %u8 : tensor<17000003xi8>, tensor<500x1xi64>, tensor<500xi8>
  %dyn = tensor.cast %d32 : tensor<4200001xf32> to tensor<?xf32>
  %e = nd.scatter_nd %dyn[%i32], %u32 reduction<add> : tensor<?xf32>, tensor<1000x1xi64>, tensor<1000xf32>
  return %a, %b, %c, %e : tensor<4200001xf32>, tensor<3x2900001xf16>, tensor<17000003xi8>, tensor<?xf32>
}
