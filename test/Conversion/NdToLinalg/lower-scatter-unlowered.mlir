// RUN: nd-opt %s -split-input-file --lower-scatter -verify-diagnostics

// What the dialect accepts but --lower-scatter does not implement yet is
// reported by name (and the pass fails), never lowered as something else.

func.func @gather(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'nd.gather' op is not lowered yet}}
  %0 = nd.gather %d[%i] axis(0) : tensor<4x3xf32>, tensor<2xi64> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @tensor_scatter(%cache: tensor<1x8x4xf32>, %update: tensor<1x2x4xf32>) -> tensor<1x8x4xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op is not lowered yet}}
  %0 = nd.tensor_scatter %cache, %update : tensor<1x8x4xf32>, tensor<1x2x4xf32>
  return %0 : tensor<1x8x4xf32>
}

// -----

// use_init_val has no effect without a reduction: this one lowers.
func.func @use_init_val_none(%d: tensor<4xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<4xf32> {
  %0 = nd.scatter_elements %d[%i], %u use_init_val(false) oob<error> : tensor<4xf32>, tensor<2xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}
