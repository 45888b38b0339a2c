// RUN: nd-opt %s --nd-donation | FileCheck %s

// Public functions' tensor arguments become read-only for bufferization,
// except donated ones; private functions and non-tensor arguments are left
// alone.

// CHECK-LABEL: func.func @public
//  CHECK-SAME:   %{{.*}}: tensor<4xf32> {bufferization.writable = true, nd.donated}
//  CHECK-SAME:   %{{.*}}: tensor<4xf32> {bufferization.writable = false}
//  CHECK-SAME:   %{{.*}}: index)
func.func @public(%a: tensor<4xf32> {nd.donated}, %b: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// CHECK-LABEL: func.func private @helper
//  CHECK-SAME:   (%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// CHECK-LABEL: func.func private @external
//  CHECK-SAME:   (tensor<4xf32>)
func.func private @external(tensor<4xf32>)
