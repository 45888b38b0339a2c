// RUN: nd-opt %s -split-input-file -verify-diagnostics

// The rules of the two forms: on buffers (no result) all operands memrefs, a
// gather writing into `into`; on tensors (a result) a scatter's destination
// a tensor of the result's type and no `into`.

func.func @tensor_beside_buffers(%data: memref<8xf32>, %indices: tensor<2x1xi64>, %updates: memref<2xf32>) {
  // expected-error @+1 {{on buffers (without a result) takes memrefs only, got 'tensor<2x1xi64>' for operand #1}}
  "nd.scatter_nd"(%data, %indices, %updates) : (memref<8xf32>, tensor<2x1xi64>, memref<2xf32>) -> ()
  return
}

// -----

func.func @buffer_destination_with_result(%data: memref<8xf32>, %indices: memref<2x1xi64>, %updates: memref<2xf32>) {
  // expected-error @+1 {{expected the number of tensor results (1) to be equal to the number of output tensors (0)}}
  %0 = "nd.scatter_nd"(%data, %indices, %updates) : (memref<8xf32>, memref<2x1xi64>, memref<2xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @tensor_scatter_without_result(%data: tensor<8xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2xf32>) {
  // expected-error @+1 {{on buffers (without a result) takes memrefs only, got 'tensor<8xf32>' for operand #0}}
  "nd.scatter_nd"(%data, %indices, %updates) : (tensor<8xf32>, tensor<2x1xi64>, tensor<2xf32>) -> ()
  return
}

// -----

func.func @buffer_gather_without_into(%data: memref<8xf32>, %indices: memref<2x1xi64>) {
  // expected-error @+1 {{on buffers needs an 'into' buffer to write its result to}}
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

// -----

func.func @into_on_tensors(%data: tensor<8xf32>, %indices: tensor<2xi64>, %out: memref<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{on tensors takes no 'into' operand: its result is a new tensor}}
  %0 = "nd.gather"(%data, %indices, %out) <{axis = 0 : i64, batch_dims = 0 : i64, oob = #nd.oob<error>}> : (tensor<8xf32>, tensor<2xi64>, memref<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
