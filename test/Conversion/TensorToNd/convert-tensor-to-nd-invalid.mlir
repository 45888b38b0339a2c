// RUN: nd-opt %s -split-input-file --convert-tensor-to-nd -verify-diagnostics
// RUN: not nd-opt %s -split-input-file --convert-tensor-to-nd --mlir-print-ir-after-failure 2>&1 | FileCheck %s

// What cannot be converted is reported with the reason, and the pass fails.

func.func @source_element_type_index(%source: tensor<4xindex>, %indices: tensor<3x1xi64>) -> tensor<3xindex> {
  // expected-error @+1 {{'tensor.gather' op cannot be converted to nd: element type 'index' of 'source' is not supported by nd}}
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xindex>, tensor<3x1xi64>) -> tensor<3xindex>
  return %0 : tensor<3xindex>
}

// -----

func.func @source_element_type_f8(%source: tensor<4xf8E4M3FN>, %indices: tensor<3x1xi64>) -> tensor<3xf8E4M3FN> {
  // expected-error @+1 {{'tensor.gather' op cannot be converted to nd: element type 'f8E4M3FN' of 'source' is not supported by nd}}
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf8E4M3FN>, tensor<3x1xi64>) -> tensor<3xf8E4M3FN>
  return %0 : tensor<3xf8E4M3FN>
}

// -----

func.func @gather_indices_i128(%source: tensor<4xf32>, %indices: tensor<3x1xi128>) -> tensor<3xf32> {
  // expected-error @+1 {{'tensor.gather' op cannot be converted to nd: index element type 'i128' of 'indices' is wider than 64 bits}}
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<3x1xi128>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @dest_element_type_vector(%source: tensor<3xvector<2xf32>>, %dest: tensor<4xvector<2xf32>>, %indices: tensor<3x1xi64>) -> tensor<4xvector<2xf32>> {
  // expected-error @+1 {{'tensor.scatter' op cannot be converted to nd: element type 'vector<2xf32>' of 'dest' is not supported by nd}}
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0]) unique : (tensor<3xvector<2xf32>>, tensor<4xvector<2xf32>>, tensor<3x1xi64>) -> tensor<4xvector<2xf32>>
  return %0 : tensor<4xvector<2xf32>>
}

// -----

func.func @scatter_indices_i65(%source: tensor<3xf32>, %dest: tensor<4xf32>, %indices: tensor<3x1xi65>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.scatter' op cannot be converted to nd: index element type 'i65' of 'indices' is wider than 64 bits}}
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0]) unique : (tensor<3xf32>, tensor<4xf32>, tensor<3x1xi65>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The upstream verifier leaves the result type of tensor.scatter unchecked.
func.func @scatter_result_shape(%source: tensor<3x5xf32>, %dest: tensor<4x5xf32>, %indices: tensor<3x1xi64>) -> tensor<4x6xf32> {
  // expected-error @+1 {{'tensor.scatter' op cannot be converted to nd: result type 'tensor<4x6xf32>' is neither the type of 'dest' ('tensor<4x5xf32>') nor a less static version of it}}
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0]) unique : (tensor<3x5xf32>, tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

func.func @scatter_result_element_type(%source: tensor<3x5xf32>, %dest: tensor<4x5xf32>, %indices: tensor<3x1xi64>) -> tensor<4x5xf16> {
  // expected-error @+1 {{'tensor.scatter' op cannot be converted to nd: result type 'tensor<4x5xf16>' is neither the type of 'dest' ('tensor<4x5xf32>') nor a less static version of it}}
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0]) unique : (tensor<3x5xf32>, tensor<4x5xf32>, tensor<3x1xi64>) -> tensor<4x5xf16>
  return %0 : tensor<4x5xf16>
}

// -----

// A more static result would assume a size nothing checks at run time.
func.func @scatter_result_more_static(%source: tensor<3x5xf32>, %dest: tensor<?x5xf32>, %indices: tensor<3x1xi64>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'tensor.scatter' op cannot be converted to nd: result type 'tensor<4x5xf32>' is neither the type of 'dest' ('tensor<?x5xf32>') nor a less static version of it}}
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0]) unique : (tensor<3x5xf32>, tensor<?x5xf32>, tensor<3x1xi64>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Every unconvertible op is reported; nothing is converted.
// CHECK-LABEL: func.func @two_errors
//   CHECK-NOT:   nd.
//       CHECK:   tensor.gather %arg2[%arg1] gather_dims([0]) : (tensor<4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
//   CHECK-NOT:   nd.
//       CHECK:   return
func.func @two_errors(%source: tensor<4xindex>, %indices: tensor<3x1xi64>, %f: tensor<4xf32>) -> (tensor<3xindex>, tensor<3xf32>, tensor<3xindex>) {
  // expected-error @+1 {{'tensor.gather' op cannot be converted to nd: element type 'index' of 'source' is not supported by nd}}
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xindex>, tensor<3x1xi64>) -> tensor<3xindex>
  %1 = tensor.gather %f[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
  // expected-error @+1 {{'tensor.gather' op cannot be converted to nd: element type 'index' of 'source' is not supported by nd}}
  %2 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xindex>, tensor<3x1xi64>) -> tensor<3xindex>
  return %0, %1, %2 : tensor<3xindex>, tensor<3xf32>, tensor<3xindex>
}
