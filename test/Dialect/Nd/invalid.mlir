// RUN: nd-opt %s -split-input-file -verify-diagnostics

// One broken rule per chunk, each function named after it: first the
// declarative constraints (operand and result types), then the shape rules of
// the verifiers. Chunks that need a type the custom form cannot express are
// written in the generic form.

//===----------------------------------------------------------------------===//
// nd.scatter_nd
//===----------------------------------------------------------------------===//

func.func @scatter_nd_data_rank_0(%data: tensor<f32>, %indices: tensor<1xi64>,
                                  %updates: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'nd.scatter_nd' op operand 'data' must have rank >= 1, got rank 0}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<f32>, tensor<1xi64>, tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @scatter_nd_indices_rank_0(%data: tensor<4xf32>, %indices: tensor<i64>,
                                     %updates: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand 'indices' must have rank >= 1, got rank 0}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4xf32>, tensor<i64>, tensor<f32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_nd_indices_element_type_f32(%data: tensor<4xf32>, %indices: tensor<2x1xf32>,
                                               %updates: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<2x1xf32>'}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4xf32>, tensor<2x1xf32>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_nd_indices_element_type_i16(%data: tensor<4xf32>, %indices: tensor<2x1xi16>,
                                               %updates: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<2x1xi16>'}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4xf32>, tensor<2x1xi16>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_nd_data_element_type_signed(%data: tensor<4xsi32>, %indices: tensor<2x1xi64>,
                                               %updates: tensor<2xsi32>) -> tensor<4xsi32> {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<4xsi32>'}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4xsi32>, tensor<2x1xi64>, tensor<2xsi32>
  return %0 : tensor<4xsi32>
}

// -----

func.func @scatter_nd_data_element_type_f8(%data: tensor<4xf8E4M3FN>, %indices: tensor<2x1xi64>,
                                           %updates: tensor<2xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4xf8E4M3FN>, tensor<2x1xi64>, tensor<2xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

func.func @scatter_nd_updates_element_type_signed(%data: tensor<4xi32>, %indices: tensor<2x1xi64>,
                                                  %updates: tensor<2xsi32>) -> tensor<4xi32> {
  // expected-error @+1 {{operand #2 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<2xsi32>'}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4xi32>, tensor<2x1xi64>, tensor<2xsi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @scatter_nd_data_memref(%data: memref<4xf32>, %indices: tensor<2x1xi64>,
                                  %updates: tensor<2xf32>) -> memref<4xf32> {
  // expected-error @+1 {{result #0 must be ranked tensor of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'memref<4xf32>'}}
  %0 = "nd.scatter_nd"(%data, %indices, %updates)
      : (memref<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

func.func @scatter_nd_indices_unranked(%data: tensor<4xf32>, %indices: tensor<*xi64>,
                                       %updates: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<*xi64>'}}
  %0 = "nd.scatter_nd"(%data, %indices, %updates)
      : (tensor<4xf32>, tensor<*xi64>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The custom form only takes ranked tensors (and memrefs).
func.func @scatter_nd_updates_unranked_custom_form(%data: tensor<4xf32>, %indices: tensor<2x1xi64>,
                                                   %updates: tensor<*xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #2 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<*xf32>'}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4xf32>, tensor<2x1xi64>, tensor<*xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_nd_updates_element_type_mismatch(%data: tensor<4xf32>, %indices: tensor<2x1xi64>,
                                                    %updates: tensor<2xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to verify that all of {data, updates} have same element type}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4xf32>, tensor<2x1xi64>, tensor<2xf16>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_nd_result_type_mismatch(%data: tensor<4xf32>, %indices: tensor<2x1xi64>,
                                           %updates: tensor<2xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{expected type of operand #0 ('tensor<4xf32>') to match type of corresponding result ('tensor<5xf32>')}}
  %0 = "nd.scatter_nd"(%data, %indices, %updates)
      : (tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// A dynamic k is given by the ranks: rank(updates) = 3 would need k = 0.
func.func @scatter_nd_index_depth_dynamic_rank(%data: tensor<4x4xf32>, %indices: tensor<2x?xi64>,
                                               %updates: tensor<2x4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'indices' last dim (the index depth k) is dynamic and the rank of operand 'updates' (3) gives k = 0, which must be in [1, 2]}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2x?xi64>, tensor<2x4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// The k the ranks give (1) fixes the expected updates shape: 2x4.
func.func @scatter_nd_index_depth_dynamic_updates_dim(%data: tensor<4x4xf32>, %indices: tensor<2x?xi64>,
                                                      %updates: tensor<2x3xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'updates' dim 1 must match operand 'data' dim 1: expected 4, got 3}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2x?xi64>, tensor<2x3xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_nd_index_depth_zero(%data: tensor<4x4xf32>, %indices: tensor<2x0xi64>,
                                       %updates: tensor<2x4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'indices' last dim (the index depth k) must be in [1, 2] (rank(data)), got 0}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2x0xi64>, tensor<2x4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_nd_index_depth_exceeds_data_rank(%data: tensor<4x4xf32>, %indices: tensor<2x3xi64>,
                                                    %updates: tensor<2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'indices' last dim (the index depth k) must be in [1, 2] (rank(data)), got 3}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2x3xi64>, tensor<2xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_nd_updates_rank_mismatch(%data: tensor<4x4xf32>, %indices: tensor<3x1xi64>,
                                            %updates: tensor<3xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'updates' must have rank 2 (rank(indices) - 1 + rank(data) - k), got 1}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x4xf32>, tensor<3x1xi64>, tensor<3xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_nd_updates_indices_dim_mismatch(%data: tensor<4x5xf32>, %indices: tensor<3x2x1xi64>,
                                                   %updates: tensor<3x7x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{operand 'updates' dim 1 must match operand 'indices' dim 1: expected 2, got 7}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x5xf32>, tensor<3x2x1xi64>, tensor<3x7x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_nd_updates_data_dim_mismatch(%data: tensor<4x5x6xf32>, %indices: tensor<3x1xi64>,
                                                %updates: tensor<3x5x7xf32>) -> tensor<4x5x6xf32> {
  // expected-error @+1 {{operand 'updates' dim 2 must match operand 'data' dim 2: expected 6, got 7}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x5x6xf32>, tensor<3x1xi64>, tensor<3x5x7xf32>
  return %0 : tensor<4x5x6xf32>
}

// -----

// OpenVINO: a 0-D expected updates shape admits one element, not two.
func.func @scatter_nd_single_element_two_elements(%data: tensor<4x4xf32>, %indices: tensor<2xi64>,
                                                  %updates: tensor<2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'updates' must be 0-D or have every dim 1 (the single element addressed when rank(indices) == 1 and k == rank(data)), got 'tensor<2xf32>'}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2xi64>, tensor<2xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// OpenVINO: the element count of a single-element update must be static.
func.func @scatter_nd_single_element_dynamic(%data: tensor<4x4xf32>, %indices: tensor<2xi64>,
                                             %updates: tensor<1x?xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'updates' must be 0-D or have every dim 1 (the single element addressed when rank(indices) == 1 and k == rank(data)), got 'tensor<1x?xf32>'}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2xi64>, tensor<1x?xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_nd_reduction_max_complex(%data: tensor<4xcomplex<f32>>, %indices: tensor<2x1xi64>,
                                            %updates: tensor<2xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{reduction 'max' is not defined for element type 'complex<f32>'}}
  %0 = nd.scatter_nd %data[%indices], %updates reduction<max>
      : tensor<4xcomplex<f32>>, tensor<2x1xi64>, tensor<2xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @scatter_nd_reduction_min_complex(%data: tensor<4xcomplex<f64>>, %indices: tensor<2x1xi64>,
                                            %updates: tensor<2xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
  // expected-error @+1 {{reduction 'min' is not defined for element type 'complex<f64>'}}
  %0 = nd.scatter_nd %data[%indices], %updates reduction<min>
      : tensor<4xcomplex<f64>>, tensor<2x1xi64>, tensor<2xcomplex<f64>>
  return %0 : tensor<4xcomplex<f64>>
}

// -----

//===----------------------------------------------------------------------===//
// nd.gather_nd
//===----------------------------------------------------------------------===//

func.func @gather_nd_data_rank_0(%data: tensor<f32>, %indices: tensor<1xi64>) -> tensor<f32> {
  // expected-error @+1 {{'nd.gather_nd' op operand 'data' must have rank >= 1, got rank 0}}
  %0 = nd.gather_nd %data[%indices] : tensor<f32>, tensor<1xi64> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @gather_nd_indices_rank_0(%data: tensor<4xf32>, %indices: tensor<i64>) -> tensor<f32> {
  // expected-error @+1 {{operand 'indices' must have rank >= 1, got rank 0}}
  %0 = nd.gather_nd %data[%indices] : tensor<4xf32>, tensor<i64> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @gather_nd_indices_element_type_f32(%data: tensor<4xf32>, %indices: tensor<2x1xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<2x1xf32>'}}
  %0 = nd.gather_nd %data[%indices] : tensor<4xf32>, tensor<2x1xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_nd_indices_element_type_i16(%data: tensor<4xf32>, %indices: tensor<2x1xi16>) -> tensor<2xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<2x1xi16>'}}
  %0 = nd.gather_nd %data[%indices] : tensor<4xf32>, tensor<2x1xi16> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_nd_data_element_type_f8(%data: tensor<4xf8E4M3FN>, %indices: tensor<2x1xi64>) -> tensor<2xf8E4M3FN> {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = nd.gather_nd %data[%indices] : tensor<4xf8E4M3FN>, tensor<2x1xi64> -> tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}

// -----

func.func @gather_nd_data_element_type_signed(%data: tensor<4xsi8>, %indices: tensor<2x1xi64>) -> tensor<2xsi8> {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<4xsi8>'}}
  %0 = nd.gather_nd %data[%indices] : tensor<4xsi8>, tensor<2x1xi64> -> tensor<2xsi8>
  return %0 : tensor<2xsi8>
}

// -----


func.func @gather_nd_result_unranked(%data: tensor<4xf32>, %indices: tensor<2x1xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{result #0 must be ranked tensor of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<*xf32>'}}
  %0 = "nd.gather_nd"(%data, %indices) : (tensor<4xf32>, tensor<2x1xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// The custom form only takes ranked tensors.
func.func @gather_nd_data_unranked_custom_form(%data: tensor<*xf32>, %indices: tensor<2x1xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<*xf32>'}}
  %0 = nd.gather_nd %data[%indices] : tensor<*xf32>, tensor<2x1xi64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_nd_result_data_dim_mismatch(%data: tensor<4x3xf32>, %indices: tensor<2x1xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{result dim 1 must match operand 'data' dim 1: expected 3, got 4}}
  %0 = nd.gather_nd %data[%indices] : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gather_nd_result_indices_dim_mismatch(%data: tensor<4x3xf32>, %indices: tensor<5x2x1xi64>) -> tensor<5x6x3xf32> {
  // expected-error @+1 {{result dim 1 must match operand 'indices' dim 1: expected 2, got 6}}
  %0 = nd.gather_nd %data[%indices] : tensor<4x3xf32>, tensor<5x2x1xi64> -> tensor<5x6x3xf32>
  return %0 : tensor<5x6x3xf32>
}

// -----

func.func @gather_nd_result_rank_mismatch(%data: tensor<4x3xf32>, %indices: tensor<2x2xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{result must have rank 1 (rank(indices) - 1 + rank(data) - batch_dims - k), got 2}}
  %0 = nd.gather_nd %data[%indices] : tensor<4x3xf32>, tensor<2x2xi64> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_nd_result_element_type_mismatch(%data: tensor<4x3xf32>, %indices: tensor<2x1xi64>) -> tensor<2x3xf16> {
  // expected-error @+1 {{result element type must match operand 'data' element type: expected 'f32', got 'f16'}}
  %0 = nd.gather_nd %data[%indices] : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

// A batch dim that indices leaves dynamic still has the size of data's.
func.func @gather_nd_result_batch_dim_mismatch(%data: tensor<2x4x3xf32>, %indices: tensor<?x1xi64>) -> tensor<3x3xf32> {
  // expected-error @+1 {{result dim 0 must match operand 'data' dim 0: expected 2, got 3}}
  %0 = nd.gather_nd %data[%indices] batch_dims(1)
      : tensor<2x4x3xf32>, tensor<?x1xi64> -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// A dynamic k is given by the ranks: a result of rank 4 would need k = -1.
func.func @gather_nd_index_depth_dynamic_rank(%data: tensor<4x3xf32>, %indices: tensor<2x?xi64>) -> tensor<2x4x3x1xf32> {
  // expected-error @+1 {{operand 'indices' last dim (the index depth k) is dynamic and the rank of the result (4) gives k = -1, which must be in [1, 2]}}
  %0 = nd.gather_nd %data[%indices] : tensor<4x3xf32>, tensor<2x?xi64> -> tensor<2x4x3x1xf32>
  return %0 : tensor<2x4x3x1xf32>
}

// -----

// k = 1 from the ranks: the result is indices.shape[:-1] ++ data.shape[1:].
func.func @gather_nd_index_depth_dynamic_result_dim(%data: tensor<4x3xf32>, %indices: tensor<2x?xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{result dim 1 must match operand 'data' dim 1: expected 3, got 4}}
  %0 = nd.gather_nd %data[%indices] : tensor<4x3xf32>, tensor<2x?xi64> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gather_nd_index_depth_zero(%data: tensor<4x3xf32>, %indices: tensor<2x0xi64>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{operand 'indices' last dim (the index depth k) must be in [1, 2] (rank(data)), got 0}}
  %0 = nd.gather_nd %data[%indices] : tensor<4x3xf32>, tensor<2x0xi64> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @gather_nd_index_depth_exceeds_data_rank(%data: tensor<4x3xf32>, %indices: tensor<2x3xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{operand 'indices' last dim (the index depth k) must be in [1, 2] (rank(data)), got 3}}
  %0 = nd.gather_nd %data[%indices] : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// k == rank(data) is too deep once a batch dim is taken off.
func.func @gather_nd_index_depth_exceeds_non_batch_rank(%data: tensor<2x4x3xf32>, %indices: tensor<2x3xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{operand 'indices' last dim (the index depth k) must be in [1, 2] (rank(data) - batch_dims), got 3}}
  %0 = nd.gather_nd %data[%indices] batch_dims(1)
      : tensor<2x4x3xf32>, tensor<2x3xi64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_nd_batch_dims_negative(%data: tensor<2x4x3xf32>, %indices: tensor<2x1xi64>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{batch_dims must be in [0, 2) (min(rank(data), rank(indices))), got -1}}
  %0 = nd.gather_nd %data[%indices] batch_dims(-1)
      : tensor<2x4x3xf32>, tensor<2x1xi64> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// batch_dims must leave indices its last dim (the index tuples).
func.func @gather_nd_batch_dims_reaches_indices_rank(%data: tensor<2x4x3xf32>, %indices: tensor<2x1xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{batch_dims must be in [0, 2) (min(rank(data), rank(indices))), got 2}}
  %0 = nd.gather_nd %data[%indices] batch_dims(2)
      : tensor<2x4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// batch_dims must leave data a dim to index.
func.func @gather_nd_batch_dims_reaches_data_rank(%data: tensor<2x4xf32>, %indices: tensor<2x4x3x1xi64>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{batch_dims must be in [0, 2) (min(rank(data), rank(indices))), got 2}}
  %0 = nd.gather_nd %data[%indices] batch_dims(2)
      : tensor<2x4xf32>, tensor<2x4x3x1xi64> -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @gather_nd_batch_dim_mismatch(%data: tensor<2x5x4x3xf32>, %indices: tensor<2x6x1xi64>) -> tensor<2x6x3xf32> {
  // expected-error @+1 {{operand 'indices' batch dim 1 must match operand 'data' dim 1: expected 5, got 6}}
  %0 = nd.gather_nd %data[%indices] batch_dims(2)
      : tensor<2x5x4x3xf32>, tensor<2x6x1xi64> -> tensor<2x6x3xf32>
  return %0 : tensor<2x6x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// nd.scatter_elements
//===----------------------------------------------------------------------===//

func.func @scatter_elements_data_rank_0(%data: tensor<f32>, %indices: tensor<i64>,
                                        %updates: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'nd.scatter_elements' op operand 'data' must have rank >= 1, got rank 0}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<f32>, tensor<i64>, tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @scatter_elements_indices_rank_0(%data: tensor<4xf32>, %indices: tensor<i64>,
                                           %updates: tensor<f32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand 'indices' must have the rank of operand 'data': expected 1, got 0}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4xf32>, tensor<i64>, tensor<f32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_elements_indices_element_type_f32(%data: tensor<4xf32>, %indices: tensor<2xf32>,
                                                     %updates: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<2xf32>'}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4xf32>, tensor<2xf32>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_elements_indices_element_type_i16(%data: tensor<4xf32>, %indices: tensor<2xi16>,
                                                     %updates: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<2xi16>'}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4xf32>, tensor<2xi16>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_elements_data_element_type_signed(%data: tensor<4xsi32>, %indices: tensor<2xi64>,
                                                     %updates: tensor<2xsi32>) -> tensor<4xsi32> {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<4xsi32>'}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4xsi32>, tensor<2xi64>, tensor<2xsi32>
  return %0 : tensor<4xsi32>
}

// -----

func.func @scatter_elements_data_element_type_f8(%data: tensor<4xf8E4M3FN>, %indices: tensor<2xi64>,
                                                 %updates: tensor<2xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4xf8E4M3FN>, tensor<2xi64>, tensor<2xf8E4M3FN>
  return %0 : tensor<4xf8E4M3FN>
}

// -----

func.func @scatter_elements_data_memref(%data: memref<4xf32>, %indices: tensor<2xi64>,
                                        %updates: tensor<2xf32>) -> memref<4xf32> {
  // expected-error @+1 {{result #0 must be ranked tensor of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'memref<4xf32>'}}
  %0 = "nd.scatter_elements"(%data, %indices, %updates)
      : (memref<4xf32>, tensor<2xi64>, tensor<2xf32>) -> memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

func.func @scatter_elements_updates_unranked(%data: tensor<4xf32>, %indices: tensor<2xi64>,
                                             %updates: tensor<*xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{operand #2 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<*xf32>'}}
  %0 = "nd.scatter_elements"(%data, %indices, %updates)
      : (tensor<4xf32>, tensor<2xi64>, tensor<*xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_elements_updates_element_type_mismatch(%data: tensor<4xi32>, %indices: tensor<2xi64>,
                                                          %updates: tensor<2xi64>) -> tensor<4xi32> {
  // expected-error @+1 {{failed to verify that all of {data, updates} have same element type}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4xi32>, tensor<2xi64>, tensor<2xi64>
  return %0 : tensor<4xi32>
}

// -----

func.func @scatter_elements_result_type_mismatch(%data: tensor<4xf32>, %indices: tensor<2xi64>,
                                                 %updates: tensor<2xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{expected type of operand #0 ('tensor<4xf32>') to match type of corresponding result ('tensor<4xf64>')}}
  %0 = "nd.scatter_elements"(%data, %indices, %updates)
      : (tensor<4xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

func.func @scatter_elements_indices_rank_mismatch(%data: tensor<4x4xf32>, %indices: tensor<2x2x2xi64>,
                                                  %updates: tensor<2x2x2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'indices' must have the rank of operand 'data': expected 2, got 3}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2x2x2xi64>, tensor<2x2x2xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_elements_updates_rank_mismatch(%data: tensor<4x4xf32>, %indices: tensor<2x2xi64>,
                                                  %updates: tensor<4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'updates' must have the rank of operand 'indices': expected 2, got 1}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2x2xi64>, tensor<4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_elements_axis_too_large(%data: tensor<4x4xf32>, %indices: tensor<2x2xi64>,
                                           %updates: tensor<2x2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{axis must be in [-2, 1], got 2}}
  %0 = nd.scatter_elements %data[%indices], %updates axis(2)
      : tensor<4x4xf32>, tensor<2x2xi64>, tensor<2x2xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_elements_axis_too_small(%data: tensor<4x4xf32>, %indices: tensor<2x2xi64>,
                                           %updates: tensor<2x2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{axis must be in [-2, 1], got -3}}
  %0 = nd.scatter_elements %data[%indices], %updates axis(-3)
      : tensor<4x4xf32>, tensor<2x2xi64>, tensor<2x2xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_elements_indices_exceed_data_off_axis(%data: tensor<4x4xf32>, %indices: tensor<2x5xi64>,
                                                         %updates: tensor<2x5xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'indices' dim 1 must not exceed operand 'data' dim 1 (off the axis): expected at most 4, got 5}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2x5xi64>, tensor<2x5xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// The axis counts from the back: -1 is dim 1, so dim 0 is off the axis.
func.func @scatter_elements_indices_exceed_data_off_negative_axis(%data: tensor<4x4xf32>, %indices: tensor<5x2xi64>,
                                                                  %updates: tensor<5x2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'indices' dim 0 must not exceed operand 'data' dim 0 (off the axis): expected at most 4, got 5}}
  %0 = nd.scatter_elements %data[%indices], %updates axis(-1)
      : tensor<4x4xf32>, tensor<5x2xi64>, tensor<5x2xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_elements_updates_dim_mismatch(%data: tensor<4x4xf32>, %indices: tensor<2x3xi64>,
                                                 %updates: tensor<2x2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'updates' dim 1 must match operand 'indices' dim 1: expected 3, got 2}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2x3xi64>, tensor<2x2xf32>
  return %0 : tensor<4x4xf32>
}

// -----

// updates has the shape of indices: where indices leaves a dim dynamic, a
// static updates dim is bounded by data off the axis all the same.
func.func @scatter_elements_updates_exceed_data_off_axis(%data: tensor<4x4xf32>, %indices: tensor<2x?xi64>,
                                                         %updates: tensor<2x7xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{operand 'updates' dim 1 must not exceed operand 'data' dim 1 (off the axis): expected at most 4, got 7}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<4x4xf32>, tensor<2x?xi64>, tensor<2x7xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_elements_reduction_max_complex(%data: tensor<4x4xcomplex<f32>>, %indices: tensor<2x4xi64>,
                                                  %updates: tensor<2x4xcomplex<f32>>) -> tensor<4x4xcomplex<f32>> {
  // expected-error @+1 {{reduction 'max' is not defined for element type 'complex<f32>'}}
  %0 = nd.scatter_elements %data[%indices], %updates reduction<max>
      : tensor<4x4xcomplex<f32>>, tensor<2x4xi64>, tensor<2x4xcomplex<f32>>
  return %0 : tensor<4x4xcomplex<f32>>
}

// -----

func.func @scatter_elements_reduction_min_complex(%data: tensor<4x4xcomplex<f64>>, %indices: tensor<2x4xi64>,
                                                  %updates: tensor<2x4xcomplex<f64>>) -> tensor<4x4xcomplex<f64>> {
  // expected-error @+1 {{reduction 'min' is not defined for element type 'complex<f64>'}}
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<min>
      : tensor<4x4xcomplex<f64>>, tensor<2x4xi64>, tensor<2x4xcomplex<f64>>
  return %0 : tensor<4x4xcomplex<f64>>
}

// -----

//===----------------------------------------------------------------------===//
// nd.gather_elements
//===----------------------------------------------------------------------===//

func.func @gather_elements_data_rank_0(%data: tensor<f32>, %indices: tensor<i64>) -> tensor<f32> {
  // expected-error @+1 {{'nd.gather_elements' op operand 'data' must have rank >= 1, got rank 0}}
  %0 = nd.gather_elements %data[%indices] : tensor<f32>, tensor<i64> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @gather_elements_indices_rank_0(%data: tensor<4xf32>, %indices: tensor<i64>) -> tensor<f32> {
  // expected-error @+1 {{operand 'indices' must have the rank of operand 'data': expected 1, got 0}}
  %0 = nd.gather_elements %data[%indices] : tensor<4xf32>, tensor<i64> -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @gather_elements_indices_element_type_f32(%data: tensor<4xf32>, %indices: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<2xf32>'}}
  %0 = nd.gather_elements %data[%indices] : tensor<4xf32>, tensor<2xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_elements_indices_element_type_i16(%data: tensor<4xf32>, %indices: tensor<2xi16>) -> tensor<2xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<2xi16>'}}
  %0 = nd.gather_elements %data[%indices] : tensor<4xf32>, tensor<2xi16> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_elements_data_element_type_signed(%data: tensor<4xsi32>, %indices: tensor<2xi64>) -> tensor<2xsi32> {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<4xsi32>'}}
  %0 = nd.gather_elements %data[%indices] : tensor<4xsi32>, tensor<2xi64> -> tensor<2xsi32>
  return %0 : tensor<2xsi32>
}

// -----

func.func @gather_elements_data_element_type_f8(%data: tensor<4xf8E4M3FN>, %indices: tensor<2xi64>) -> tensor<2xf8E4M3FN> {
  // expected-error @+1 {{operand #0 must be ranked tensor or memref of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<4xf8E4M3FN>'}}
  %0 = nd.gather_elements %data[%indices] : tensor<4xf8E4M3FN>, tensor<2xi64> -> tensor<2xf8E4M3FN>
  return %0 : tensor<2xf8E4M3FN>
}

// -----


func.func @gather_elements_result_unranked(%data: tensor<4xf32>, %indices: tensor<2xi64>) -> tensor<*xf32> {
  // expected-error @+1 {{result #0 must be ranked tensor of signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or complex<f64> values, but got 'tensor<*xf32>'}}
  %0 = "nd.gather_elements"(%data, %indices) : (tensor<4xf32>, tensor<2xi64>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gather_elements_indices_rank_mismatch(%data: tensor<4x4xf32>, %indices: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{operand 'indices' must have the rank of operand 'data': expected 2, got 1}}
  %0 = nd.gather_elements %data[%indices] : tensor<4x4xf32>, tensor<2xi64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_elements_axis_too_large(%data: tensor<4x4xf32>, %indices: tensor<2x4xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{axis must be in [-2, 1], got 2}}
  %0 = nd.gather_elements %data[%indices] axis(2) : tensor<4x4xf32>, tensor<2x4xi64> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gather_elements_axis_too_small(%data: tensor<4x4xf32>, %indices: tensor<2x4xi64>) -> tensor<2x4xf32> {
  // expected-error @+1 {{axis must be in [-2, 1], got -3}}
  %0 = nd.gather_elements %data[%indices] axis(-3) : tensor<4x4xf32>, tensor<2x4xi64> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gather_elements_indices_exceed_data_off_axis(%data: tensor<4x4xf32>, %indices: tensor<2x5xi64>) -> tensor<2x5xf32> {
  // expected-error @+1 {{operand 'indices' dim 1 must not exceed operand 'data' dim 1 (off the axis): expected at most 4, got 5}}
  %0 = nd.gather_elements %data[%indices] : tensor<4x4xf32>, tensor<2x5xi64> -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @gather_elements_result_dim_mismatch(%data: tensor<4x4xf32>, %indices: tensor<2x3xi64>) -> tensor<2x2xf32> {
  // expected-error @+1 {{result dim 1 must match operand 'indices' dim 1: expected 3, got 2}}
  %0 = nd.gather_elements %data[%indices] : tensor<4x4xf32>, tensor<2x3xi64> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @gather_elements_result_rank_mismatch(%data: tensor<4x4xf32>, %indices: tensor<2x3xi64>) -> tensor<6xf32> {
  // expected-error @+1 {{result must have rank 2 (rank(indices)), got 1}}
  %0 = nd.gather_elements %data[%indices] : tensor<4x4xf32>, tensor<2x3xi64> -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

func.func @gather_elements_result_element_type_mismatch(%data: tensor<4x4xi32>, %indices: tensor<2x3xi64>) -> tensor<2x3xi64> {
  // expected-error @+1 {{result element type must match operand 'data' element type: expected 'i32', got 'i64'}}
  %0 = nd.gather_elements %data[%indices] : tensor<4x4xi32>, tensor<2x3xi64> -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// The result has the shape of indices: where indices leaves a dim dynamic, a
// static result dim is bounded by data off the axis all the same.
func.func @gather_elements_result_exceeds_data_off_axis(%data: tensor<4x4xf32>, %indices: tensor<2x?xi64>) -> tensor<2x7xf32> {
  // expected-error @+1 {{result dim 1 must not exceed operand 'data' dim 1 (off the axis): expected at most 4, got 7}}
  %0 = nd.gather_elements %data[%indices] : tensor<4x4xf32>, tensor<2x?xi64> -> tensor<2x7xf32>
  return %0 : tensor<2x7xf32>
}

//===----------------------------------------------------------------------===//
// Constant indices out of range: compile-time errors naming the position of
// the value in operand 'indices'
//===----------------------------------------------------------------------===//

// -----

func.func @scatter_nd_constant_index_too_large(%data: tensor<4x3xf32>, %updates: tensor<2xf32>) -> tensor<4x3xf32> {
  %indices = arith.constant dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>
  // expected-error @+1 {{'nd.scatter_nd' op index 3 at position [1, 1] of operand 'indices' is out of range for dim 1 of operand 'data' (size 3)}}
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<4x3xf32>, tensor<2x2xi64>, tensor<2xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Negative values count from the end: -4 is the first row, -5 is out of range.
func.func @scatter_nd_constant_index_too_negative(%data: tensor<4x3xf32>, %updates: tensor<3x3xf32>) -> tensor<4x3xf32> {
  %indices = arith.constant dense<[[-4], [3], [-5]]> : tensor<3x1xi32>
  // expected-error @+1 {{'nd.scatter_nd' op index -5 at position [2, 0] of operand 'indices' is out of range for dim 0 of operand 'data' (size 4)}}
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<4x3xf32>, tensor<3x1xi32>, tensor<3x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// An empty slice does not excuse an index out of range.
func.func @scatter_nd_constant_index_empty_slice(%data: tensor<3x0xf32>, %updates: tensor<2x0xf32>) -> tensor<3x0xf32> {
  %indices = arith.constant dense<[[2], [3]]> : tensor<2x1xi64>
  // expected-error @+1 {{'nd.scatter_nd' op index 3 at position [1, 0] of operand 'indices' is out of range for dim 0 of operand 'data' (size 3)}}
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<3x0xf32>, tensor<2x1xi64>, tensor<2x0xf32>
  return %0 : tensor<3x0xf32>
}

// -----

// With batch_dims = 1 the index component addresses data dim 1.
func.func @gather_nd_constant_index_batch_dims(%data: tensor<2x3x2xf32>) -> tensor<2x2xf32> {
  %indices = arith.constant dense<[[2], [3]]> : tensor<2x1xindex>
  // expected-error @+1 {{'nd.gather_nd' op index 3 at position [1, 0] of operand 'indices' is out of range for dim 1 of operand 'data' (size 3)}}
  %0 = nd.gather_nd %data[%indices] batch_dims(1) : tensor<2x3x2xf32>, tensor<2x1xindex> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// A splat out of range: the first position is named.
func.func @gather_nd_constant_index_splat(%data: tensor<4xf32>) -> tensor<3xf32> {
  %indices = arith.constant dense<-9223372036854775808> : tensor<3x1xi64>
  // expected-error @+1 {{'nd.gather_nd' op index -9223372036854775808 at position [0, 0] of operand 'indices' is out of range for dim 0 of operand 'data' (size 4)}}
  %0 = nd.gather_nd %data[%indices] : tensor<4xf32>, tensor<3x1xi64> -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @scatter_elements_constant_index_out_of_range(%data: tensor<2x3xf32>, %updates: tensor<2x2xf32>) -> tensor<2x3xf32> {
  %indices = arith.constant dense<[[-3, 2], [0, 3]]> : tensor<2x2xi32>
  // expected-error @+1 {{'nd.scatter_elements' op index 3 at position [1, 1] of operand 'indices' is out of range for dim 1 of operand 'data' (size 3)}}
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) : tensor<2x3xf32>, tensor<2x2xi32>, tensor<2x2xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @gather_elements_constant_index_out_of_range(%data: tensor<2x5xf32>) -> tensor<2x1xf32> {
  %indices = arith.constant dense<[[-5], [-6]]> : tensor<2x1xi64>
  // expected-error @+1 {{'nd.gather_elements' op index -6 at position [1, 0] of operand 'indices' is out of range for dim 1 of operand 'data' (size 5)}}
  %0 = nd.gather_elements %data[%indices] axis(-1) : tensor<2x5xf32>, tensor<2x1xi64> -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

//===----------------------------------------------------------------------===//
// Reductions sub and mean, use_init_val, oob
//===----------------------------------------------------------------------===//

// -----

func.func @scatter_elements_reduction_sub(%data: tensor<4xf32>, %indices: tensor<2xi64>, %updates: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'nd.scatter_elements' op reduction 'sub' is only defined for 'nd.scatter_nd' (OpenVINO ScatterNDUpdate-15)}}
  %0 = nd.scatter_elements %data[%indices], %updates reduction<sub> : tensor<4xf32>, tensor<2xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_nd_reduction_mean(%data: tensor<4xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'nd.scatter_nd' op reduction 'mean' is only defined for 'nd.scatter_elements' (OpenVINO ScatterElementsUpdate-12)}}
  %0 = nd.scatter_nd %data[%indices], %updates reduction<mean> : tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_elements_mean_bool(%data: tensor<4xi1>, %indices: tensor<2xi64>, %updates: tensor<2xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'nd.scatter_elements' op reduction 'mean' is not defined for element type 'i1' (ONNX bool)}}
  %0 = nd.scatter_elements %data[%indices], %updates reduction<mean> : tensor<4xi1>, tensor<2xi64>, tensor<2xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @scatter_elements_mean_complex(%data: tensor<4xcomplex<f32>>, %indices: tensor<2xi64>,
                                         %updates: tensor<2xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'nd.scatter_elements' op reduction 'mean' is not defined for element type 'complex<f32>'}}
  %0 = nd.scatter_elements %data[%indices], %updates reduction<mean>
      : tensor<4xcomplex<f32>>, tensor<2xi64>, tensor<2xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @gather_oob_unknown_mode(%data: tensor<4xf32>, %indices: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+2 {{expected one of [error, skip, clamp] for what an index value outside [-d, d-1] does, got: wrap}}
  // expected-error @+1 {{failed to parse Nd_OobAttr parameter 'value'}}
  %0 = nd.gather %data[%indices] oob<wrap> : tensor<4xf32>, tensor<2xi64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_nd_oob_not_a_mode(%data: tensor<4xf32>, %indices: tensor<2x1xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{invalid properties {oob = 1 : i32} for op nd.gather_nd: Invalid attribute `oob` in property conversion: 1 : i32}}
  %0 = "nd.gather_nd"(%data, %indices) <{oob = 1 : i32}> : (tensor<4xf32>, tensor<2x1xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// nd.gather
//===----------------------------------------------------------------------===//

// -----

func.func @gather_data_rank_0(%data: tensor<f32>, %indices: tensor<2xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'nd.gather' op operand 'data' must have rank >= 1, got rank 0}}
  %0 = nd.gather %data[%indices] : tensor<f32>, tensor<2xi64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gather_axis_out_of_range(%data: tensor<3x4xf32>, %indices: tensor<2xi64>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'nd.gather' op axis must be in [-2, 1], got 2}}
  %0 = nd.gather %data[%indices] axis(2) : tensor<3x4xf32>, tensor<2xi64> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @gather_batch_dims_negative(%data: tensor<2x5xi32>, %indices: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'nd.gather' op batch_dims must be in [0, 1] (min(rank(indices), axis)), got -1}}
  %0 = nd.gather %data[%indices] axis(1) batch_dims(-1) : tensor<2x5xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// batch_dims may not exceed the axis.
func.func @gather_batch_dims_above_axis(%data: tensor<2x5xi32>, %indices: tensor<2x3xi32>) -> tensor<2x3x5xi32> {
  // expected-error @+1 {{'nd.gather' op batch_dims must be in [0, 0] (min(rank(indices), axis)), got 1}}
  %0 = nd.gather %data[%indices] batch_dims(1) : tensor<2x5xi32>, tensor<2x3xi32> -> tensor<2x3x5xi32>
  return %0 : tensor<2x3x5xi32>
}

// -----

// ... nor the rank of indices.
func.func @gather_batch_dims_above_indices_rank(%data: tensor<2x3x5xi32>, %indices: tensor<2xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'nd.gather' op batch_dims must be in [0, 1] (min(rank(indices), axis)), got 2}}
  %0 = nd.gather %data[%indices] axis(2) batch_dims(2) : tensor<2x3x5xi32>, tensor<2xi32> -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @gather_batch_dim_mismatch(%data: tensor<2x5xi32>, %indices: tensor<3x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'nd.gather' op operand 'indices' batch dim 0 must match operand 'data' dim 0: expected 2, got 3}}
  %0 = nd.gather %data[%indices] axis(1) batch_dims(1) : tensor<2x5xi32>, tensor<3x3xi32> -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @gather_result_rank(%data: tensor<3x4xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'nd.gather' op result must have rank 3 (rank(data) - 1 + rank(indices) - batch_dims), got 2}}
  %0 = nd.gather %data[%indices] : tensor<3x4xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @gather_result_dim_from_indices(%data: tensor<3x4xf32>, %indices: tensor<2x2xi64>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'nd.gather' op result dim 1 must match operand 'indices' dim 1: expected 2, got 3}}
  %0 = nd.gather %data[%indices] : tensor<3x4xf32>, tensor<2x2xi64> -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @gather_result_dim_from_data(%data: tensor<3x4xf32>, %indices: tensor<2xi64>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'nd.gather' op result dim 0 must match operand 'data' dim 0: expected 3, got 2}}
  %0 = nd.gather %data[%indices] axis(1) : tensor<3x4xf32>, tensor<2xi64> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @gather_result_element_type(%data: tensor<3x4xf32>, %indices: tensor<2xi64>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'nd.gather' op result element type must match operand 'data' element type: expected 'f32', got 'f16'}}
  %0 = nd.gather %data[%indices] : tensor<3x4xf32>, tensor<2xi64> -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

func.func @gather_indices_element_type(%data: tensor<3x4xf32>, %indices: tensor<2xui32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{operand #1 must be ranked tensor or memref of 32/64-bit signless integer or index values, but got 'tensor<2xui32>'}}
  %0 = nd.gather %data[%indices] : tensor<3x4xf32>, tensor<2xui32> -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @gather_constant_index_out_of_range(%data: tensor<5xi32>) -> tensor<3xi32> {
  %indices = arith.constant dense<[3, 10, -20]> : tensor<3xi64>
  // expected-error @+1 {{'nd.gather' op index 10 at position [1] of operand 'indices' is out of range for dim 0 of operand 'data' (size 5)}}
  %0 = nd.gather %data[%indices] : tensor<5xi32>, tensor<3xi64> -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

//===----------------------------------------------------------------------===//
// nd.tensor_scatter
//===----------------------------------------------------------------------===//

// -----

func.func @tensor_scatter_rank_1(%past: tensor<4xf32>, %update: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op operand 'past_cache' must have rank >= 2 (a batch dim and a sequence dim), got rank 1}}
  %0 = nd.tensor_scatter %past, %update axis(0) : tensor<4xf32>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @tensor_scatter_axis_out_of_range(%past: tensor<2x4x3xf32>, %update: tensor<2x1x3xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op axis must be in [-3, 2], got 3}}
  %0 = nd.tensor_scatter %past, %update axis(3) : tensor<2x4x3xf32>, tensor<2x1x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// The default axis -2 is the batch axis of a rank-2 cache.
func.func @tensor_scatter_batch_axis(%past: tensor<2x4xf32>, %update: tensor<1x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op axis must not be the batch axis 0, got -2}}
  %0 = nd.tensor_scatter %past, %update : tensor<2x4xf32>, tensor<1x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @tensor_scatter_update_rank(%past: tensor<2x4x3xf32>, %update: tensor<2x1xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op operand 'update' must have the rank of operand 'past_cache': expected 3, got 2}}
  %0 = nd.tensor_scatter %past, %update : tensor<2x4x3xf32>, tensor<2x1xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @tensor_scatter_update_dim(%past: tensor<2x4x3xf32>, %update: tensor<2x1x5xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op operand 'update' dim 2 must match operand 'past_cache' dim 2: expected 3, got 5}}
  %0 = nd.tensor_scatter %past, %update : tensor<2x4x3xf32>, tensor<2x1x5xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @tensor_scatter_sequence_too_long(%past: tensor<2x4x3xf32>, %update: tensor<2x5x3xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op operand 'update' dim 1 (sequence_length) must not exceed operand 'past_cache' dim 1 (max_sequence_length): expected at most 4, got 5}}
  %0 = nd.tensor_scatter %past, %update : tensor<2x4x3xf32>, tensor<2x5x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @tensor_scatter_write_indices_rank(%past: tensor<2x4x3xf32>, %w: tensor<2x1xi64>,
                                             %update: tensor<2x1x3xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op operand 'write_indices' must have rank 1, got rank 2}}
  %0 = nd.tensor_scatter %past[%w], %update : tensor<2x4x3xf32>[tensor<2x1xi64>], tensor<2x1x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @tensor_scatter_write_indices_batch(%past: tensor<2x4x3xf32>, %w: tensor<3xi64>,
                                              %update: tensor<2x1x3xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op operand 'write_indices' dim 0 must match operand 'past_cache' dim 0 (the batch size): expected 2, got 3}}
  %0 = nd.tensor_scatter %past[%w], %update : tensor<2x4x3xf32>[tensor<3xi64>], tensor<2x1x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @tensor_scatter_element_types(%past: tensor<2x4x3xf32>, %update: tensor<2x1x3xf16>) -> tensor<2x4x3xf32> {
  // expected-error @+1 {{'nd.tensor_scatter' op failed to verify that all of {past_cache, update} have same element type}}
  %0 = nd.tensor_scatter %past, %update : tensor<2x4x3xf32>, tensor<2x1x3xf16>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @tensor_scatter_result_type(%past: tensor<2x4x3xf32>, %update: tensor<2x1x3xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{expected type of operand #0 ('tensor<2x4x3xf32>') to match type of corresponding result ('tensor<2x5x3xf32>')}}
  %0 = "nd.tensor_scatter"(%past, %update) : (tensor<2x4x3xf32>, tensor<2x1x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

// Linear mode: 3 + 2 > 4, the update would run past the end of the cache.
func.func @tensor_scatter_constant_write_index_linear(%past: tensor<2x4x3xf32>, %update: tensor<2x2x3xf32>) -> tensor<2x4x3xf32> {
  %w = arith.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error @+1 {{'nd.tensor_scatter' op write index 3 at position [1] of operand 'write_indices' is out of range: linear mode needs 0 <= w <= max_sequence_length - sequence_length = 2 (operand 'past_cache' dim 1 is 4, operand 'update' dim 1 is 2)}}
  %0 = nd.tensor_scatter %past[%w], %update axis(1) : tensor<2x4x3xf32>[tensor<2xi64>], tensor<2x2x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

// Circular mode wraps positions past the end, but a write index must not be
// negative (as in ONNX Runtime).
func.func @tensor_scatter_constant_write_index_negative(%past: tensor<2x4x3xf32>, %update: tensor<2x2x3xf32>) -> tensor<2x4x3xf32> {
  %w = arith.constant dense<[7, -1]> : tensor<2xi32>
  // expected-error @+1 {{'nd.tensor_scatter' op write index -1 at position [1] of operand 'write_indices' is out of range: circular mode needs w >= 0}}
  %0 = nd.tensor_scatter %past[%w], %update axis(1) mode<circular> : tensor<2x4x3xf32>[tensor<2xi32>], tensor<2x2x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

func.func @tensor_scatter_unknown_mode(%past: tensor<2x4x3xf32>, %update: tensor<2x2x3xf32>) -> tensor<2x4x3xf32> {
  // expected-error @+2 {{expected one of [linear, circular] for how nd.tensor_scatter places the update along the sequence axis, got: ring}}
  // expected-error @+1 {{failed to parse Nd_TensorScatterModeAttr parameter 'value'}}
  %0 = nd.tensor_scatter %past, %update axis(1) mode<ring> : tensor<2x4x3xf32>, tensor<2x2x3xf32>
  return %0 : tensor<2x4x3xf32>
}
