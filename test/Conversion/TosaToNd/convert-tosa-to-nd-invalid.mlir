// RUN: nd-opt %s -split-input-file --convert-tosa-to-nd -verify-diagnostics

// What cannot be converted is reported with the reason, and the pass fails.

func.func @gather_unranked_values(%values: tensor<*xf32>, %indices: tensor<2x4xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tosa.gather' op cannot be converted to nd: 'values' is unranked ('tensor<*xf32>')}}
  %0 = tosa.gather %values, %indices : (tensor<*xf32>, tensor<2x4xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gather_unranked_output(%values: tensor<2x5x3xf32>, %indices: tensor<2x4xi32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tosa.gather' op cannot be converted to nd: 'output' is unranked ('tensor<*xf32>')}}
  %0 = tosa.gather %values, %indices : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gather_f8(%values: tensor<2x5x3xf8E4M3FN>, %indices: tensor<2x4xi32>) -> tensor<2x4x3xf8E4M3FN> {
  // expected-error @+1 {{'tosa.gather' op cannot be converted to nd: element type 'f8E4M3FN' of 'values' is not supported by nd}}
  %0 = tosa.gather %values, %indices : (tensor<2x5x3xf8E4M3FN>, tensor<2x4xi32>) -> tensor<2x4x3xf8E4M3FN>
  return %0 : tensor<2x4x3xf8E4M3FN>
}

// -----

func.func @gather_quantized(%values: tensor<2x5x3x!quant.uniform<i8:f32, 0.5>>, %indices: tensor<2x4xi32>) -> tensor<2x4x3x!quant.uniform<i8:f32, 0.5>> {
  // expected-error @+1 {{'tosa.gather' op cannot be converted to nd: element type '!quant.uniform<i8:f32, 5.000000e-01>' of 'values' is not supported by nd}}
  %0 = tosa.gather %values, %indices : (tensor<2x5x3x!quant.uniform<i8:f32, 0.5>>, tensor<2x4xi32>) -> tensor<2x4x3x!quant.uniform<i8:f32, 0.5>>
  return %0 : tensor<2x4x3x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @scatter_unranked_indices(%values: tensor<2x5x3xf32>, %indices: tensor<*xi32>, %input: tensor<2x4x3xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'tosa.scatter' op cannot be converted to nd: 'indices' is unranked ('tensor<*xi32>')}}
  %0 = tosa.scatter %values, %indices, %input : (tensor<2x5x3xf32>, tensor<*xi32>, tensor<2x4x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @scatter_unranked_input(%values: tensor<2x5x3xf32>, %indices: tensor<2x4xi32>, %input: tensor<*xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'tosa.scatter' op cannot be converted to nd: 'input' is unranked ('tensor<*xf32>')}}
  %0 = tosa.scatter %values, %indices, %input : (tensor<2x5x3xf32>, tensor<2x4xi32>, tensor<*xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

func.func @scatter_f8(%values: tensor<2x5x3xf8E5M2>, %indices: tensor<2x4xi32>, %input: tensor<2x4x3xf8E5M2>) -> tensor<2x5x3xf8E5M2> {
  // expected-error @+1 {{'tosa.scatter' op cannot be converted to nd: element type 'f8E5M2' of 'values_in' is not supported by nd}}
  %0 = tosa.scatter %values, %indices, %input : (tensor<2x5x3xf8E5M2>, tensor<2x4xi32>, tensor<2x4x3xf8E5M2>) -> tensor<2x5x3xf8E5M2>
  return %0 : tensor<2x5x3xf8E5M2>
}

// -----

// nd's scatter result has the type of values_in; the declared K (5) could
// not be checked at run time.
func.func @scatter_more_static_result(%values: tensor<?x?x?xf32>, %indices: tensor<2x4xi32>, %input: tensor<2x4x3xf32>) -> tensor<2x5x3xf32> {
  // expected-error @+1 {{'tosa.scatter' op cannot be converted to nd: result type 'tensor<2x5x3xf32>' is neither the type of 'values_in' ('tensor<?x?x?xf32>') nor a less static version of it}}
  %0 = tosa.scatter %values, %indices, %input : (tensor<?x?x?xf32>, tensor<2x4xi32>, tensor<2x4x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}
