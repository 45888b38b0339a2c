// RUN: nd-opt %s -split-input-file --lower-scatter -verify-diagnostics

// The lowering takes the ops on buffers; an op on tensors is an error that
// says how to get there.
func.func @on_tensors(%data: tensor<8x4xf32>, %indices: tensor<3x1xi64>, %updates: tensor<3x4xf32>) -> tensor<8x4xf32> {
  // expected-error @+1 {{'nd.scatter_nd' op on tensors: --lower-scatter takes nd ops on buffers; bufferize first (--one-shot-bufferize, as --nd-to-llvm does)}}
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<8x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

func.func @gather_on_tensors(%data: tensor<5x4xf32>, %indices: tensor<3xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'nd.gather' op on tensors: --lower-scatter takes nd ops on buffers}}
  %0 = nd.gather %data[%indices] : tensor<5x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
