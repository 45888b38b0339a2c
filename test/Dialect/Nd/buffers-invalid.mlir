// RUN: nd-opt %s -split-input-file -verify-diagnostics

// The rules of the two forms: all operands tensors with a result, or all
// memrefs without one; a gather on buffers writes into `into`.

func.func @mixed_forms(%data: memref<8xf32>, %indices: tensor<2x1xi64>, %updates: memref<2xf32>) {
  // expected-error @+1 {{operands must be all tensors or all memrefs, got 'tensor<2x1xi64>' beside memrefs}}
  "nd.scatter_nd"(%data, %indices, %updates) : (memref<8xf32>, tensor<2x1xi64>, memref<2xf32>) -> ()
  return
}

// -----

func.func @buffer_scatter_with_result(%data: memref<8xf32>, %indices: memref<2x1xi64>, %updates: memref<2xf32>) {
  // expected-error @+1 {{on memrefs has no result: it updates its destination in place}}
  %0 = "nd.scatter_nd"(%data, %indices, %updates) : (memref<8xf32>, memref<2x1xi64>, memref<2xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @tensor_scatter_without_result(%data: tensor<8xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2xf32>) {
  // expected-error @+1 {{on tensors must have a result}}
  "nd.scatter_nd"(%data, %indices, %updates) : (tensor<8xf32>, tensor<2x1xi64>, tensor<2xf32>) -> ()
  return
}

// -----

func.func @buffer_gather_without_into(%data: memref<8xf32>, %indices: memref<2x1xi64>) {
  // expected-error @+1 {{on memrefs needs an 'into' buffer to write its result to}}
  "nd.gather_nd"(%data, %indices) : (memref<8xf32>, memref<2x1xi64>) -> ()
  return
}

// -----

func.func @into_wrong_shape(%data: memref<8x4xf32>, %indices: memref<2x1xi64>, %out: memref<3x4xf32>) {
  // expected-error @+1 {{result dim 0 must match operand 'indices' dim 0: expected 2, got 3}}
  nd.gather_nd %data[%indices] into %out : memref<8x4xf32>, memref<2x1xi64> into memref<3x4xf32>
  return
}

// -----

func.func @into_wrong_element_type(%data: memref<8xf32>, %indices: memref<2xi64>, %out: memref<2xf16>) {
  // expected-error @+1 {{result element type must match operand 'data' element type: expected 'f32', got 'f16'}}
  nd.gather %data[%indices] into %out : memref<8xf32>, memref<2xi64> into memref<2xf16>
  return
}

// -----

func.func @buffer_checks_shapes(%data: memref<4xf32>, %indices: memref<3xi64>, %updates: memref<2xf32>) {
  // expected-error @+1 {{operand 'updates' dim 0 must match operand 'indices' dim 0: expected 3, got 2}}
  nd.scatter_elements %data[%indices], %updates : memref<4xf32>, memref<3xi64>, memref<2xf32>
  return
}
