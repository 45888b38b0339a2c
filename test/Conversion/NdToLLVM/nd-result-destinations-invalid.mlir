// RUN: nd-opt %s -split-input-file --nd-result-destinations -verify-diagnostics

// expected-error @below {{nd-result-destinations: the module defines no function @main with a body}}
module {
  func.func private @main(memref<2xf32>) -> memref<2xf32>
}

// -----

// expected-error @below {{nd-result-destinations: result #0 is 'memref<2xf32, strided<[2]>>', not a buffer of identity layout}}
func.func @main(%a: memref<4xf32>) -> memref<2xf32, strided<[2]>> {
  %v = memref.subview %a[0] [2] [2] : memref<4xf32> to memref<2xf32, strided<[2]>>
  return %v : memref<2xf32, strided<[2]>>
}

// -----

// expected-error @below {{nd-result-destinations: result #0 is 'tensor<2xf32>', not a buffer of identity layout}}
func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}
