// RUN: nd-opt %s -split-input-file --lower-scatter -verify-diagnostics

// What the dialect accepts but --lower-scatter does not implement yet is
// reported by name (and the pass fails), never lowered as something else.

func.func @skip(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'nd.gather_nd' op oob<skip> is not lowered yet}}
  %0 = nd.gather_nd %d[%i] oob<skip> : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @clamp(%d: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'nd.scatter_nd' op oob<clamp> is not lowered yet}}
  %0 = nd.scatter_nd %d[%i], %u oob<clamp> : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @mean(%d: tensor<4xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'nd.scatter_elements' op reduction<mean> is not lowered yet}}
  %0 = nd.scatter_elements %d[%i], %u reduction<mean> : tensor<4xf32>, tensor<2xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @use_init_val(%d: tensor<4xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'nd.scatter_elements' op use_init_val(false) is not lowered yet}}
  %0 = nd.scatter_elements %d[%i], %u reduction<max> use_init_val(false) : tensor<4xf32>, tensor<2xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

// use_init_val has no effect without a reduction: this one lowers.
func.func @use_init_val_none(%d: tensor<4xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<4xf32> {
  %0 = nd.scatter_elements %d[%i], %u use_init_val(false) oob<error> : tensor<4xf32>, tensor<2xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}
