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
