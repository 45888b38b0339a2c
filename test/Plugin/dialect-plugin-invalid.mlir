// nd's verifiers run inside stock mlir-opt through the dialect plugin.

// RUN: %mlir_opt %s --load-dialect-plugin=%nd_plugin -verify-diagnostics

func.func @scatter_nd_data_rank_0(%data: tensor<f32>, %indices: tensor<1xi64>,
                                  %updates: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'nd.scatter_nd' op operand 'data' must have rank >= 1, got rank 0}}
  %r = nd.scatter_nd %data[%indices], %updates
      : tensor<f32>, tensor<1xi64>, tensor<f32>
  return %r : tensor<f32>
}
