// --nd-bufferize-constants makes the globals of the functions' tensor
// constants as one-shot bufferization does (a bridge: upstream finds a
// global of the same value by scanning the module, once per constant): one
// private constant global per distinct value and alignment, named after the
// type, a global of the module with the same initial value and alignment
// reused, each constant read through get_global and a to_tensor that is not
// writable.
// RUN: nd-opt %s --nd-bufferize-constants | FileCheck %s
// RUN: nd-opt %s --nd-bufferize-constants=alignment=16 | FileCheck %s --check-prefix=ALIGN16

// One-shot bufferization after the bridge gives what it gives alone (once
// --nd-stable-constant-names has named the globals by use, as in
// nd-to-llvm): the reference is upstream's own bufferization of the
// constants.
// RUN: nd-opt %s --nd-bufferize-constants --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --nd-stable-constant-names > %t.bridge
// RUN: nd-opt %s --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --nd-stable-constant-names > %t.upstream
// RUN: diff %t.bridge %t.upstream
// RUN: FileCheck %s --check-prefix=BUFFERIZED < %t.bridge

// CHECK-LABEL: func.func @constants(
//       CHECK:   %[[G0:.*]] = memref.get_global @__constant_2xf32 : memref<2xf32>
//       CHECK:   %[[T0:.*]] = bufferization.to_tensor %[[G0]] restrict : memref<2xf32> to tensor<2xf32>
//       CHECK:   %[[G1:.*]] = memref.get_global @[[C1:__constant_2xf32_[0-9]+]] : memref<2xf32>
//       CHECK:   bufferization.to_tensor %[[G1]] restrict : memref<2xf32> to tensor<2xf32>
//       CHECK:   memref.get_global @__constant_2xf32 : memref<2xf32>
//       CHECK:   memref.get_global @__constant_xi64 : memref<i64>
//       CHECK:   memref.get_global @table : memref<3xf32>
//       CHECK:   arith.constant 1.0
//   CHECK-NOT:   arith.constant dense
//       CHECK:   return %[[T0]]
// CHECK-LABEL: func.func @indices(
//       CHECK:   memref.get_global @__constant_2x1xi32 : memref<2x1xi32>
// The globals, one per value; the module's own global of the same value and
// alignment (@table) serves.
// CHECK-DAG: memref.global "private" constant @__constant_2xf32 : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @[[C1]] : memref<2xf32> = dense<[3.000000e+00, 4.000000e+00]> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @__constant_xi64 : memref<i64> = dense<7> {alignment = 64 : i64}
// CHECK-DAG: memref.global "private" constant @__constant_2x1xi32 : memref<2x1xi32> = dense<{{\[\[}}0], [1]]> {alignment = 64 : i64}
// CHECK-NOT: memref.global {{.*}}dense<[5.000000e+00, 6.000000e+00, 7.000000e+00]>

// ALIGN16: memref.global "private" constant @__constant_2xf32{{.*}} {alignment = 16 : i64}
// A global of another alignment does not serve.
// ALIGN16: memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense<[5.000000e+00, 6.000000e+00, 7.000000e+00]> {alignment = 16 : i64}

// BUFFERIZED-LABEL: func.func @constants(
//   BUFFERIZED-NOT:   bufferization.to_tensor
//       BUFFERIZED:   memref.get_global @__constant_2xf32 : memref<2xf32>

memref.global "private" constant @table : memref<3xf32> = dense<[5.0, 6.0, 7.0]> {alignment = 64 : i64}

func.func @constants() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<i64>, tensor<3xf32>, f32) {
  %a = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = arith.constant dense<[3.0, 4.0]> : tensor<2xf32>
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %d = arith.constant dense<7> : tensor<i64>
  %e = arith.constant dense<[5.0, 6.0, 7.0]> : tensor<3xf32>
  %f = arith.constant 1.0 : f32
  return %a, %b, %c, %d, %e, %f : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<i64>, tensor<3xf32>, f32
}

// A constant that an op writes: the write goes to a copy, as for a
// constant (the bufferized function still reads the global).
func.func @indices(%data: tensor<4xf32>, %u: tensor<2xf32>) -> (tensor<4xf32>, tensor<2x1xi32>) {
  %i = arith.constant dense<[[0], [1]]> : tensor<2x1xi32>
  %r = nd.scatter_nd %data[%i], %u : tensor<4xf32>, tensor<2x1xi32>, tensor<2xf32>
  %k = arith.constant dense<[[0], [1]]> : tensor<2x1xi32>
  %w = nd.scatter_nd %k[%i], %i : tensor<2x1xi32>, tensor<2x1xi32>, tensor<2x1xi32>
  return %r, %w : tensor<4xf32>, tensor<2x1xi32>
}
