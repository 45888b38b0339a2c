// RUN: nd-opt %s --canonicalize --split-input-file -verify-diagnostics | FileCheck %s
// Run twice: the warning comes with the rewrite that removes the duplicates,
// so a second canonicalization has nothing left to warn about.
// RUN: nd-opt %s --canonicalize --canonicalize --split-input-file -verify-diagnostics | FileCheck %s

// Constant duplicate indices under reduction none: the specifications leave
// the result undefined, nd keeps the update that comes last in row-major
// order. The earlier updates are dead; the canonicalization drops them and
// warns once.

// Tuples [1] and [-3] (= [1]) at positions [0, 0] and [1, 0]: the first is
// overwritten. The surviving update slices are gathered from updates.
// CHECK-LABEL: func.func @scatter_nd_duplicate_tuples(
// CHECK-SAME:    %[[D:.*]]: tensor<4x3xf32>,
// CHECK-SAME:    %[[U:.*]]: tensor<2x2x3xf32>)
// CHECK-DAG:     %[[I:.*]] = arith.constant dense<{{\[\[}}2], [-3], [0]]> : tensor<3x1xi64>
// CHECK-DAG:     %[[P:.*]] = arith.constant dense<{{\[\[}}0, 1], [1, 0], [1, 1]]> : tensor<3x2xi64>
// CHECK:         %[[G:.*]] = nd.gather_nd %[[U]][%[[P]]] : tensor<2x2x3xf32>, tensor<3x2xi64> -> tensor<3x3xf32>
// CHECK:         %[[R:.*]] = nd.scatter_nd %[[D]][%[[I]]], %[[G]] : tensor<4x3xf32>, tensor<3x1xi64>, tensor<3x3xf32>
// CHECK:         return %[[R]]
func.func @scatter_nd_duplicate_tuples(%data: tensor<4x3xf32>, %updates: tensor<2x2x3xf32>)
    -> tensor<4x3xf32> {
  %indices = arith.constant dense<[[[1], [2]], [[-3], [0]]]> : tensor<2x2x1xi64>
  // expected-warning @+1 {{'nd.scatter_nd' op operand 'indices' has duplicate index tuples under reduction 'none' (the one at position [0, 0] is overwritten by the one at position [1, 0]; 1 overwritten in all): the ONNX and OpenVINO specifications leave the result undefined, nd keeps the update that comes last in row-major order}}
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x3xf32>, tensor<2x2x1xi64>, tensor<2x2x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// All constant (OpenVINO ScatterNDUpdate-15 example 1): indices
// [0, 2, -3, -3, 0] on 4 elements address 0, 2, 1, 1, 0; the last update of
// each wins: [50, 40, 20, 4]. (The spec prints [50, 20, 20, 4], which no
// order of the updates gives: element 1 is written 30, then 40.)
// CHECK-LABEL: func.func @scatter_nd_duplicates_constant(
// CHECK:         %[[R:.*]] = arith.constant dense<[5.000000e+01, 4.000000e+01, 2.000000e+01, 4.000000e+00]> : tensor<4xf32>
// CHECK-NOT:     nd.scatter_nd
// CHECK:         return %[[R]]
func.func @scatter_nd_duplicates_constant() -> tensor<4xf32> {
  %data = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %indices = arith.constant dense<[[0], [2], [-3], [-3], [0]]> : tensor<5x1xi32>
  %updates = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0]> : tensor<5xf32>
  // expected-warning @+1 {{'nd.scatter_nd' op operand 'indices' has duplicate index tuples under reduction 'none' (the one at position [0] is overwritten by the one at position [4]; 2 overwritten in all)}}
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<4xf32>, tensor<5x1xi32>, tensor<5xf32>
  return %0 : tensor<4xf32>
}

// -----

// Under a reduction every duplicate counts: no warning, no rewrite (data is
// unknown, so nothing folds either).
// CHECK-LABEL: func.func @scatter_nd_duplicates_add(
// CHECK:         nd.scatter_nd %{{.*}} reduction<add> : tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>
func.func @scatter_nd_duplicates_add(%data: tensor<4xf32>, %updates: tensor<2xf32>) -> tensor<4xf32> {
  %indices = arith.constant dense<[[1], [1]]> : tensor<2x1xi64>
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

// scatter_elements, axis 0: positions [0, 0] and [1, 0] both write data
// [1, 0], and so do [0, 2] and [1, 2] for [1, 2]; [0, 1] and [1, 1] both
// write [0, 1]. The three surviving writes become a scatter_nd of whole
// coordinates, their updates gathered from positions [1, 0], [1, 1], [1, 2].
// CHECK-LABEL: func.func @scatter_elements_duplicates(
// CHECK-SAME:    %[[D:.*]]: tensor<2x3xf32>,
// CHECK-SAME:    %[[U:.*]]: tensor<2x3xf32>)
// CHECK-DAG:     %[[I:.*]] = arith.constant dense<{{\[\[}}1, 0], [0, 1], [1, 2]]> : tensor<3x2xi64>
// CHECK-DAG:     %[[P:.*]] = arith.constant dense<{{\[\[}}1, 0], [1, 1], [1, 2]]> : tensor<3x2xi64>
// CHECK:         %[[G:.*]] = nd.gather_nd %[[U]][%[[P]]] : tensor<2x3xf32>, tensor<3x2xi64> -> tensor<3xf32>
// CHECK:         %[[R:.*]] = nd.scatter_nd %[[D]][%[[I]]], %[[G]] : tensor<2x3xf32>, tensor<3x2xi64>, tensor<3xf32>
// CHECK:         return %[[R]]
func.func @scatter_elements_duplicates(%data: tensor<2x3xf32>, %updates: tensor<2x3xf32>)
    -> tensor<2x3xf32> {
  %indices = arith.constant dense<[[1, 0, 1], [-1, 0, -1]]> : tensor<2x3xi64>
  // expected-warning @+1 {{'nd.scatter_elements' op operand 'indices' has duplicate index values under reduction 'none' (the one at position [0, 0] is overwritten by the one at position [1, 0]; 3 overwritten in all)}}
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<2x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Constant updates are selected at compile time: [[11, 12], [13, 14]] at
// indices [[1, 1], [0, 1]] along axis 1 of a 2x2 data: row 0 writes column 1
// twice (12 wins), row 1 writes columns 0 and 1.
// CHECK-LABEL: func.func @scatter_elements_duplicates_constant_updates(
// CHECK-SAME:    %[[D:.*]]: tensor<2x2xi32>)
// CHECK-DAG:     %[[I:.*]] = arith.constant dense<{{\[\[}}0, 1], [1, 0], [1, 1]]> : tensor<3x2xi64>
// CHECK-DAG:     %[[V:.*]] = arith.constant dense<[12, 13, 14]> : tensor<3xi32>
// CHECK:         %[[R:.*]] = nd.scatter_nd %[[D]][%[[I]]], %[[V]] : tensor<2x2xi32>, tensor<3x2xi64>, tensor<3xi32>
// CHECK:         return %[[R]]
func.func @scatter_elements_duplicates_constant_updates(%data: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %indices = arith.constant dense<[[1, 1], [0, 1]]> : tensor<2x2xi32>
  %updates = arith.constant dense<[[11, 12], [13, 14]]> : tensor<2x2xi32>
  // expected-warning @+1 {{'nd.scatter_elements' op operand 'indices' has duplicate index values under reduction 'none' (the one at position [0, 0] is overwritten by the one at position [0, 1]; 1 overwritten in all)}}
  %0 = nd.scatter_elements %data[%indices], %updates axis(1)
      : tensor<2x2xi32>, tensor<2x2xi32>, tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// Under oob<skip> the tuple out of range writes nothing and is dropped with
// the overwritten one; the survivors keep their raw values and the mode.
// CHECK-LABEL: func.func @scatter_nd_duplicates_skip(
// CHECK-SAME:    %[[D:.*]]: tensor<4xf32>,
// CHECK-DAG:     %[[I:.*]] = arith.constant dense<{{\[\[}}-1], [0]]> : tensor<2x1xi64>
// CHECK-DAG:     %[[P:.*]] = arith.constant dense<{{\[\[}}2], [3]]> : tensor<2x1xi64>
// CHECK:         %[[G:.*]] = nd.gather_nd %{{.*}}[%[[P]]] : tensor<4xf32>, tensor<2x1xi64> -> tensor<2xf32>
// CHECK:         nd.scatter_nd %[[D]][%[[I]]], %[[G]] oob<skip> : tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>
func.func @scatter_nd_duplicates_skip(%data: tensor<4xf32>, %updates: tensor<4xf32>) -> tensor<4xf32> {
  %indices = arith.constant dense<[[3], [9], [-1], [0]]> : tensor<4x1xi64>
  // expected-warning @+1 {{'nd.scatter_nd' op operand 'indices' has duplicate index tuples under reduction 'none' (the one at position [0] is overwritten by the one at position [2]; 1 overwritten in all)}}
  %0 = nd.scatter_nd %data[%indices], %updates oob<skip> : tensor<4xf32>, tensor<4x1xi64>, tensor<4xf32>
  return %0 : tensor<4xf32>
}
