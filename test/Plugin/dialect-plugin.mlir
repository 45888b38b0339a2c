// Stock mlir-opt parses, verifies and prints nd ops once NdPlugin.so is loaded
// as a dialect plugin, and does not know them without it.

// RUN: %mlir_opt %s --load-dialect-plugin=%nd_plugin \
// RUN:   | %mlir_opt --load-dialect-plugin=%nd_plugin | FileCheck %s
// RUN: not %mlir_opt %s 2>&1 | FileCheck %s --check-prefix=NO-PLUGIN

// NO-PLUGIN: Dialect `nd' not found for custom op 'nd.scatter_nd'

// CHECK-LABEL: func.func @ops(
// CHECK: nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>
// CHECK: nd.gather_nd %{{.*}}[%{{.*}}] batch_dims(1) : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
// CHECK: nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} axis(1) reduction<max> : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
// CHECK: nd.gather_elements %{{.*}}[%{{.*}}] axis(1) : tensor<2x2xf32>, tensor<2x2xi32> -> tensor<2x2xf32>
func.func @ops(%d: tensor<4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>,
               %gd: tensor<2x2x2xi32>, %gi: tensor<2x1xi64>,
               %ed: tensor<1x5xf32>, %ei: tensor<1x2xi64>, %eu: tensor<1x2xf32>,
               %fd: tensor<2x2xf32>, %fi: tensor<2x2xi32>)
    -> (tensor<4x4xf32>, tensor<2x2xi32>, tensor<1x5xf32>, tensor<2x2xf32>) {
  %0 = nd.scatter_nd %d[%i], %u reduction<add>
      : tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x4xf32>
  %1 = nd.gather_nd %gd[%gi] batch_dims(1)
      : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
  %2 = nd.scatter_elements %ed[%ei], %eu axis(1) reduction<max>
      : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %3 = nd.gather_elements %fd[%fi] axis(1)
      : tensor<2x2xf32>, tensor<2x2xi32> -> tensor<2x2xf32>
  return %0, %1, %2, %3
      : tensor<4x4xf32>, tensor<2x2xi32>, tensor<1x5xf32>, tensor<2x2xf32>
}
