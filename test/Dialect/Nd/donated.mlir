// RUN: nd-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// `nd.donated` marks a function's tensor argument as donated.
// CHECK-LABEL: func.func @donated
//  CHECK-SAME:   %{{.*}}: tensor<4xf32> {nd.donated}
func.func @donated(%a: tensor<4xf32> {nd.donated}, %b: tensor<2xi64>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// -----

// expected-error @+1 {{'nd.donated' argument #0 must be a ranked tensor, got 'index'}}
func.func @donated_not_a_tensor(%a: index {nd.donated}) {
  return
}

// -----

// expected-error @+1 {{'nd.donated' must be a unit attribute}}
func.func @donated_not_unit(%a: tensor<4xf32> {nd.donated = 1 : i64}) {
  return
}

// -----

// expected-error @+1 {{unknown nd argument attribute 'nd.given'}}
func.func @unknown_argument_attribute(%a: tensor<4xf32> {nd.given}) {
  return
}

// -----

// `nd.dim_names` names the dims of a function's tensor arguments and results
// ("" for a dim without a name), as the ONNX importer gives a model's
// symbolic dims.
// CHECK-LABEL: func.func @dim_names
//  CHECK-SAME:   %{{.*}}: tensor<?x5xf32> {nd.dim_names = ["N", ""]}
//  CHECK-SAME:   -> (tensor<?xf32> {nd.dim_names = ["N"]})
func.func @dim_names(%a: tensor<?x5xf32> {nd.dim_names = ["N", ""]})
    -> (tensor<?xf32> {nd.dim_names = ["N"]}) {
  %c0 = arith.constant 0 : index
  %d = tensor.dim %a, %c0 : tensor<?x5xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  return %e : tensor<?xf32>
}

// -----

// expected-error @+1 {{'nd.dim_names' of argument #0 has 1 name(s) for rank 2}}
func.func @dim_names_rank(%a: tensor<?x5xf32> {nd.dim_names = ["N"]}) {
  return
}

// -----

// expected-error @+1 {{'nd.dim_names' must be an array of strings}}
func.func @dim_names_not_strings(%a: tensor<?xf32> {nd.dim_names = [1]}) {
  return
}

// -----

// expected-error @+1 {{'nd.dim_names' argument #0 must be a ranked tensor, got 'index'}}
func.func @dim_names_not_a_tensor(%a: index {nd.dim_names = []}) {
  return
}

// -----

// expected-error @+1 {{'nd.dim_names' result #0 must be a ranked tensor, got 'index'}}
func.func @dim_names_result_not_a_tensor() -> (index {nd.dim_names = []}) {
  %c0 = arith.constant 0 : index
  return %c0 : index
}

// -----

// expected-error @+1 {{unknown nd result attribute 'nd.donated'}}
func.func @donated_result() -> (tensor<4xf32> {nd.donated}) {
  %e = tensor.empty() : tensor<4xf32>
  return %e : tensor<4xf32>
}
