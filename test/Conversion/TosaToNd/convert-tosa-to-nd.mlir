// RUN: nd-opt %s --convert-tosa-to-nd | FileCheck %s
// RUN: nd-opt %s --convert-tosa-to-nd | FileCheck %s --check-prefix=NONE

// tosa.gather is nd.gather_nd with batch_dims(1) on indices [N,W,1];
// tosa.scatter is nd.scatter_nd with (n, index) tuples, or with the batch dim
// reshaped away when N is 1.

// NONE-NOT: tosa.gather
// NONE-NOT: tosa.scatter
// CHECK-DAG: #[[BYPOS:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[ID:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>

//===----------------------------------------------------------------------===//
// tosa.gather
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @gather_static
//  CHECK-SAME:   %[[VALUES:[a-zA-Z0-9]+]]: tensor<2x5x3xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<2x4xi32>
//       CHECK:   %[[I:.*]] = tensor.expand_shape %[[IND]] {{\[\[}}0], [1, 2]] output_shape [2, 4, 1] : tensor<2x4xi32> into tensor<2x4x1xi32>
//  CHECK-NEXT:   %[[G:.*]] = nd.gather_nd %[[VALUES]][%[[I]]] batch_dims(1) : tensor<2x5x3xf32>, tensor<2x4x1xi32> -> tensor<2x4x3xf32>
//  CHECK-NEXT:   return %[[G]]
func.func @gather_static(%values: tensor<2x5x3xf32>, %indices: tensor<2x4xi32>) -> tensor<2x4x3xf32> {
  %0 = tosa.gather %values, %indices : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// CHECK-LABEL: func.func @gather_dynamic_i64
//  CHECK-SAME:   %[[VALUES:[a-zA-Z0-9]+]]: tensor<?x?x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<?x?xi64>
//   CHECK-DAG:   %[[N:.*]] = tensor.dim %[[IND]], %c0
//   CHECK-DAG:   %[[W:.*]] = tensor.dim %[[IND]], %c1
//       CHECK:   %[[I:.*]] = tensor.expand_shape %[[IND]] {{\[\[}}0], [1, 2]] output_shape [%[[N]], %[[W]], 1] : tensor<?x?xi64> into tensor<?x?x1xi64>
//  CHECK-NEXT:   %[[G:.*]] = nd.gather_nd %[[VALUES]][%[[I]]] batch_dims(1) : tensor<?x?x?xf32>, tensor<?x?x1xi64> -> tensor<?x?x?xf32>
//  CHECK-NEXT:   return %[[G]]
func.func @gather_dynamic_i64(%values: tensor<?x?x?xf32>, %indices: tensor<?x?xi64>) -> tensor<?x?x?xf32> {
  %0 = tosa.gather %values, %indices : (tensor<?x?x?xf32>, tensor<?x?xi64>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// A declared result more static than the operands: nd.gather_nd takes that
// type and checks the sizes at run time.
// CHECK-LABEL: func.func @gather_more_static_result
//       CHECK:   %[[G:.*]] = nd.gather_nd %{{.*}} batch_dims(1) : tensor<?x?x?xf32>, tensor<?x?x1xi32> -> tensor<2x4x3xf32>
//  CHECK-NEXT:   return %[[G]]
func.func @gather_more_static_result(%values: tensor<?x?x?xf32>, %indices: tensor<?x?xi32>) -> tensor<2x4x3xf32> {
  %0 = tosa.gather %values, %indices : (tensor<?x?x?xf32>, tensor<?x?xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// CHECK-LABEL: func.func @gather_less_static_result
//       CHECK:   %[[G:.*]] = nd.gather_nd %{{.*}} batch_dims(1) : tensor<2x5x3xi8>, tensor<2x4x1xi32> -> tensor<2x4x3xi8>
//  CHECK-NEXT:   %[[R:.*]] = tensor.cast %[[G]] : tensor<2x4x3xi8> to tensor<?x?x?xi8>
//  CHECK-NEXT:   return %[[R]]
func.func @gather_less_static_result(%values: tensor<2x5x3xi8>, %indices: tensor<2x4xi32>) -> tensor<?x?x?xi8> {
  %0 = tosa.gather %values, %indices : (tensor<2x5x3xi8>, tensor<2x4xi32>) -> tensor<?x?x?xi8>
  return %0 : tensor<?x?x?xi8>
}

// Unsigned data, as TOSA allows and nd supports.
// CHECK-LABEL: func.func @gather_unsigned
//       CHECK:   nd.gather_nd %{{.*}} batch_dims(1) : tensor<1x5x3xui8>, tensor<1x4x1xi32> -> tensor<1x4x3xui8>
func.func @gather_unsigned(%values: tensor<1x5x3xui8>, %indices: tensor<1x4xi32>) -> tensor<1x4x3xui8> {
  %0 = tosa.gather %values, %indices : (tensor<1x5x3xui8>, tensor<1x4xi32>) -> tensor<1x4x3xui8>
  return %0 : tensor<1x4x3xui8>
}

//===----------------------------------------------------------------------===//
// tosa.scatter
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @scatter_static
//  CHECK-SAME:   %[[VALUES:[a-zA-Z0-9]+]]: tensor<2x5x3xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<2x4xi32>
//  CHECK-SAME:   %[[INPUT:[a-zA-Z0-9]+]]: tensor<2x4x3xf32>
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<2x4x2xi32>
//       CHECK:   %[[T:.*]] = linalg.generic
//  CHECK-SAME:       indexing_maps = [#[[BYPOS]], #[[ID]]]
//  CHECK-SAME:       iterator_types = ["parallel", "parallel", "parallel"]
//  CHECK-SAME:       ins(%[[IND]] : tensor<2x4xi32>) outs(%[[E]] : tensor<2x4x2xi32>)
//       CHECK:   ^bb0(%[[I:.*]]: i32, %{{.*}}: i32):
//   CHECK-DAG:     %[[N:.*]] = linalg.index 0 : index
//   CHECK-DAG:     %[[J:.*]] = linalg.index 2 : index
//   CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
//   CHECK-DAG:     %[[FIRST:.*]] = arith.cmpi eq, %[[J]], %[[C0]] : index
//   CHECK-DAG:     %[[NI:.*]] = arith.index_cast %[[N]] : index to i32
//       CHECK:     %[[V:.*]] = arith.select %[[FIRST]], %[[NI]], %[[I]] : i32
//       CHECK:     linalg.yield %[[V]] : i32
//       CHECK:   %[[S:.*]] = nd.scatter_nd %[[VALUES]][%[[T]]], %[[INPUT]] : tensor<2x5x3xf32>, tensor<2x4x2xi32>, tensor<2x4x3xf32>
//  CHECK-NEXT:   return %[[S]]
func.func @scatter_static(%values: tensor<2x5x3xf32>, %indices: tensor<2x4xi32>, %input: tensor<2x4x3xf32>) -> tensor<2x5x3xf32> {
  %0 = tosa.scatter %values, %indices, %input : (tensor<2x5x3xf32>, tensor<2x4xi32>, tensor<2x4x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// N == 1: no tuples, only reshapes.
// CHECK-LABEL: func.func @scatter_one_batch
//  CHECK-SAME:   %[[VALUES:[a-zA-Z0-9]+]]: tensor<1x5x3xbf16>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<1x4xi64>
//  CHECK-SAME:   %[[INPUT:[a-zA-Z0-9]+]]: tensor<1x4x3xbf16>
//   CHECK-NOT:   linalg
//   CHECK-DAG:   %[[D:.*]] = tensor.collapse_shape %[[VALUES]] {{\[\[}}0, 1], [2]] : tensor<1x5x3xbf16> into tensor<5x3xbf16>
//   CHECK-DAG:   %[[I1:.*]] = tensor.collapse_shape %[[IND]] {{\[\[}}0, 1]] : tensor<1x4xi64> into tensor<4xi64>
//   CHECK-DAG:   %[[I:.*]] = tensor.expand_shape %[[I1]] {{\[\[}}0, 1]] output_shape [4, 1] : tensor<4xi64> into tensor<4x1xi64>
//   CHECK-DAG:   %[[U:.*]] = tensor.collapse_shape %[[INPUT]] {{\[\[}}0, 1], [2]] : tensor<1x4x3xbf16> into tensor<4x3xbf16>
//       CHECK:   %[[S:.*]] = nd.scatter_nd %[[D]][%[[I]]], %[[U]] : tensor<5x3xbf16>, tensor<4x1xi64>, tensor<4x3xbf16>
//  CHECK-NEXT:   %[[R:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1], [2]] output_shape [1, 5, 3] : tensor<5x3xbf16> into tensor<1x5x3xbf16>
//  CHECK-NEXT:   return %[[R]]
func.func @scatter_one_batch(%values: tensor<1x5x3xbf16>, %indices: tensor<1x4xi64>, %input: tensor<1x4x3xbf16>) -> tensor<1x5x3xbf16> {
  %0 = tosa.scatter %values, %indices, %input : (tensor<1x5x3xbf16>, tensor<1x4xi64>, tensor<1x4x3xbf16>) -> tensor<1x5x3xbf16>
  return %0 : tensor<1x5x3xbf16>
}

// A dynamic N might not fit i32: the tuples are i64, the indices extended.
// CHECK-LABEL: func.func @scatter_dynamic
//  CHECK-SAME:   %[[VALUES:[a-zA-Z0-9]+]]: tensor<?x?x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<?x?xi32>
//  CHECK-SAME:   %[[INPUT:[a-zA-Z0-9]+]]: tensor<?x?x?xf32>
//   CHECK-DAG:   %[[N:.*]] = tensor.dim %[[IND]], %c0
//   CHECK-DAG:   %[[W:.*]] = tensor.dim %[[IND]], %c1
//       CHECK:   %[[E:.*]] = tensor.empty(%[[N]], %[[W]]) : tensor<?x?x2xi64>
//       CHECK:   %[[T:.*]] = linalg.generic
//  CHECK-SAME:       ins(%[[IND]] : tensor<?x?xi32>) outs(%[[E]] : tensor<?x?x2xi64>)
//       CHECK:   ^bb0(%[[I:.*]]: i32, %{{.*}}: i64):
//   CHECK-DAG:     %[[NI:.*]] = arith.index_cast %{{.*}} : index to i64
//   CHECK-DAG:     %[[X:.*]] = arith.extsi %[[I]] : i32 to i64
//       CHECK:     arith.select %{{.*}}, %[[NI]], %[[X]] : i64
//       CHECK:   nd.scatter_nd %[[VALUES]][%[[T]]], %[[INPUT]] : tensor<?x?x?xf32>, tensor<?x?x2xi64>, tensor<?x?x?xf32>
func.func @scatter_dynamic(%values: tensor<?x?x?xf32>, %indices: tensor<?x?xi32>, %input: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %0 = tosa.scatter %values, %indices, %input : (tensor<?x?x?xf32>, tensor<?x?xi32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// CHECK-LABEL: func.func @scatter_i64_less_static_result
//       CHECK:   %[[T:.*]] = linalg.generic
//  CHECK-SAME:       outs(%{{.*}} : tensor<2x4x2xi64>)
//       CHECK:   %[[S:.*]] = nd.scatter_nd %{{.*}}[%[[T]]], %{{.*}} : tensor<2x5x3xf32>, tensor<2x4x2xi64>, tensor<2x4x3xf32>
//  CHECK-NEXT:   %[[R:.*]] = tensor.cast %[[S]] : tensor<2x5x3xf32> to tensor<?x5x?xf32>
//  CHECK-NEXT:   return %[[R]]
func.func @scatter_i64_less_static_result(%values: tensor<2x5x3xf32>, %indices: tensor<2x4xi64>, %input: tensor<2x4x3xf32>) -> tensor<?x5x?xf32> {
  %0 = tosa.scatter %values, %indices, %input : (tensor<2x5x3xf32>, tensor<2x4xi64>, tensor<2x4x3xf32>) -> tensor<?x5x?xf32>
  return %0 : tensor<?x5x?xf32>
}
