// RUN: nd-opt %s -split-input-file --nd-record-signature=function=g -verify-diagnostics

// An exported entry exchanges ranked tensors of the element types that
// nd-c/Runtime.h numbers.

// expected-error @below {{argument #0 of @g has type 'tensor<*xf32>': an exported entry takes and returns ranked tensors of nd's element types}}
func.func @g(%u: tensor<*xf32>) -> tensor<2xindex> {
  %c = arith.constant dense<7> : tensor<2xindex>
  return %c : tensor<2xindex>
}

// -----

// expected-error @below {{result #1 of @g has type 'i64': an exported entry takes and returns ranked tensors of nd's element types}}
func.func @g() -> (tensor<f32>, i64) {
  %c = arith.constant dense<7.0> : tensor<f32>
  %i = arith.constant 1 : i64
  return %c, %i : tensor<f32>, i64
}

// -----

// expected-error @below {{argument #0 of @g has type 'tensor<2xf8E4M3FN>': an exported entry takes and returns ranked tensors of nd's element types}}
// expected-error @below {{result #0 of @g has type 'tensor<2xf8E4M3FN>': an exported entry takes and returns ranked tensors of nd's element types}}
func.func @g(%a: tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN> {
  return %a : tensor<2xf8E4M3FN>
}

// -----

// expected-error @below {{the module has no function @g with a body}}
module {
  func.func private @g(tensor<2xf32>)
}
