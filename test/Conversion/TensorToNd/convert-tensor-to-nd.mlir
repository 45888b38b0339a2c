// RUN: nd-opt %s --convert-tensor-to-nd | FileCheck %s
// RUN: nd-opt %s --convert-tensor-to-nd | FileCheck %s --check-prefix=NONE
// RUN: nd-opt %s --convert-tensor-to-nd --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// tensor.gather / tensor.scatter address the dims in gather_dims /
// scatter_dims; nd.gather_nd / nd.scatter_nd address the leading dims. Leading
// dims in order need no data movement; other dims are transposed to the
// front (a reshape when only unit dims move); the rank-preserving slice form
// is a reshape of nd's rank-reduced one.

// Every op is replaced.
// NONE-NOT: tensor.gather
// NONE-NOT: tensor.scatter

//===----------------------------------------------------------------------===//
// tensor.gather
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @gather_dims_0_rank_reduced
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<4x5x6xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<2x3x1xi64>
//   CHECK-NOT:   linalg
//       CHECK:   %[[G:.*]] = nd.gather_nd %[[SRC]][%[[IND]]] : tensor<4x5x6xf32>, tensor<2x3x1xi64> -> tensor<2x3x5x6xf32>
//  CHECK-NEXT:   return %[[G]]
func.func @gather_dims_0_rank_reduced(%source: tensor<4x5x6xf32>, %indices: tensor<2x3x1xi64>) -> tensor<2x3x5x6xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4x5x6xf32>, tensor<2x3x1xi64>) -> tensor<2x3x5x6xf32>
  return %0 : tensor<2x3x5x6xf32>
}

// CHECK-LABEL: func.func @gather_dims_0_rank_preserving
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<4x5x6xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<2x3x1xi64>
//   CHECK-NOT:   linalg
//       CHECK:   %[[G:.*]] = nd.gather_nd %[[SRC]][%[[IND]]] : tensor<4x5x6xf32>, tensor<2x3x1xi64> -> tensor<2x3x5x6xf32>
//  CHECK-NEXT:   %[[R:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0], [1], [2, 3], [4]] output_shape [2, 3, 1, 5, 6] : tensor<2x3x5x6xf32> into tensor<2x3x1x5x6xf32>
//  CHECK-NEXT:   return %[[R]]
func.func @gather_dims_0_rank_preserving(%source: tensor<4x5x6xf32>, %indices: tensor<2x3x1xi64>) -> tensor<2x3x1x5x6xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4x5x6xf32>, tensor<2x3x1xi64>) -> tensor<2x3x1x5x6xf32>
  return %0 : tensor<2x3x1x5x6xf32>
}

// CHECK-LABEL: func.func @gather_dims_0_1
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<4x5x6xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<7x2xi32>
//   CHECK-NOT:   linalg
//       CHECK:   %[[G:.*]] = nd.gather_nd %[[SRC]][%[[IND]]] : tensor<4x5x6xf32>, tensor<7x2xi32> -> tensor<7x6xf32>
//  CHECK-NEXT:   return %[[G]]
func.func @gather_dims_0_1(%source: tensor<4x5x6xf32>, %indices: tensor<7x2xi32>) -> tensor<7x6xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0, 1]) : (tensor<4x5x6xf32>, tensor<7x2xi32>) -> tensor<7x6xf32>
  return %0 : tensor<7x6xf32>
}

// The first example of the op's documentation: every dim gathered.
// CHECK-LABEL: func.func @gather_all_dims
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<4x4x4xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<1x2x3xindex>
//       CHECK:   %[[G:.*]] = nd.gather_nd %[[SRC]][%[[IND]]] : tensor<4x4x4xf32>, tensor<1x2x3xindex> -> tensor<1x2xf32>
//  CHECK-NEXT:   %[[R:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0], [1, 2, 3, 4]] output_shape [1, 2, 1, 1, 1] : tensor<1x2xf32> into tensor<1x2x1x1x1xf32>
//  CHECK-NEXT:   return %[[R]]
func.func @gather_all_dims(%source: tensor<4x4x4xf32>, %indices: tensor<1x2x3xindex>) -> tensor<1x2x1x1x1xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0, 1, 2]) : (tensor<4x4x4xf32>, tensor<1x2x3xindex>) -> tensor<1x2x1x1x1xf32>
  return %0 : tensor<1x2x1x1x1xf32>
}

// The second example of the op's documentation: dim 1 comes first.
// CHECK-LABEL: func.func @gather_dims_1
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<3x4x5xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<6x7x1xindex>
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<4x3x5xf32>
//       CHECK:   %[[T:.*]] = linalg.transpose ins(%[[SRC]] : tensor<3x4x5xf32>) outs(%[[E]] : tensor<4x3x5xf32>) permutation = [1, 0, 2]
//       CHECK:   %[[G:.*]] = nd.gather_nd %[[T]][%[[IND]]] : tensor<4x3x5xf32>, tensor<6x7x1xindex> -> tensor<6x7x3x5xf32>
//  CHECK-NEXT:   %[[R:.*]] = tensor.expand_shape %[[G]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [6, 7, 3, 1, 5] : tensor<6x7x3x5xf32> into tensor<6x7x3x1x5xf32>
//  CHECK-NEXT:   return %[[R]]
func.func @gather_dims_1(%source: tensor<3x4x5xf32>, %indices: tensor<6x7x1xindex>) -> tensor<6x7x3x1x5xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([1]) : (tensor<3x4x5xf32>, tensor<6x7x1xindex>) -> tensor<6x7x3x1x5xf32>
  return %0 : tensor<6x7x3x1x5xf32>
}

// CHECK-LABEL: func.func @gather_dims_2
//       CHECK:   linalg.transpose ins(%{{.*}} : tensor<4x5x6xf32>) outs(%{{.*}} : tensor<6x4x5xf32>) permutation = [2, 0, 1]
//       CHECK:   nd.gather_nd %{{.*}} : tensor<6x4x5xf32>, tensor<7x1xi64> -> tensor<7x4x5xf32>
//   CHECK-NOT:   tensor.expand_shape
func.func @gather_dims_2(%source: tensor<4x5x6xf32>, %indices: tensor<7x1xi64>) -> tensor<7x4x5xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([2]) : (tensor<4x5x6xf32>, tensor<7x1xi64>) -> tensor<7x4x5xf32>
  return %0 : tensor<7x4x5xf32>
}

// CHECK-LABEL: func.func @gather_dims_0_2
//       CHECK:   linalg.transpose ins(%{{.*}} : tensor<4x5x6xf32>) outs(%{{.*}} : tensor<4x6x5xf32>) permutation = [0, 2, 1]
//       CHECK:   nd.gather_nd %{{.*}} : tensor<4x6x5xf32>, tensor<7x2xi32> -> tensor<7x5xf32>
func.func @gather_dims_0_2(%source: tensor<4x5x6xf32>, %indices: tensor<7x2xi32>) -> tensor<7x5xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0, 2]) : (tensor<4x5x6xf32>, tensor<7x2xi32>) -> tensor<7x5xf32>
  return %0 : tensor<7x5xf32>
}

// CHECK-LABEL: func.func @gather_dims_1_2
//       CHECK:   linalg.transpose ins(%{{.*}} : tensor<4x5x6xf32>) outs(%{{.*}} : tensor<5x6x4xf32>) permutation = [1, 2, 0]
//       CHECK:   nd.gather_nd %{{.*}} : tensor<5x6x4xf32>, tensor<7x2xi32> -> tensor<7x4xf32>
//       CHECK:   tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] output_shape [7, 4, 1, 1] : tensor<7x4xf32> into tensor<7x4x1x1xf32>
func.func @gather_dims_1_2(%source: tensor<4x5x6xf32>, %indices: tensor<7x2xi32>) -> tensor<7x4x1x1xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([1, 2]) : (tensor<4x5x6xf32>, tensor<7x2xi32>) -> tensor<7x4x1x1xf32>
  return %0 : tensor<7x4x1x1xf32>
}

// Moving dim 1 in front of a unit dim moves no element: reshapes, no copy.
// CHECK-LABEL: func.func @gather_unit_dim_moved
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<1x5x6xf32>
//   CHECK-NOT:   linalg.transpose
//       CHECK:   %[[C:.*]] = tensor.collapse_shape %[[SRC]] {{\[\[}}0, 1], [2]] : tensor<1x5x6xf32> into tensor<5x6xf32>
//       CHECK:   %[[X:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0], [1, 2]] output_shape [5, 1, 6] : tensor<5x6xf32> into tensor<5x1x6xf32>
//       CHECK:   nd.gather_nd %[[X]][%{{.*}}] : tensor<5x1x6xf32>, tensor<7x1xi64> -> tensor<7x1x6xf32>
func.func @gather_unit_dim_moved(%source: tensor<1x5x6xf32>, %indices: tensor<7x1xi64>) -> tensor<7x1x6xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([1]) : (tensor<1x5x6xf32>, tensor<7x1xi64>) -> tensor<7x1x6xf32>
  return %0 : tensor<7x1x6xf32>
}

// Dynamic dims: the transposed tensor takes its sizes from the source, the
// expanded result from nd's result. `unique` does not change a gather.
// CHECK-LABEL: func.func @gather_dynamic
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<?x?x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<?x1xi64>
//   CHECK-DAG:   %[[D0:.*]] = tensor.dim %[[SRC]], %c0
//   CHECK-DAG:   %[[D1:.*]] = tensor.dim %[[SRC]], %c1
//   CHECK-DAG:   %[[D2:.*]] = tensor.dim %[[SRC]], %c2
//       CHECK:   %[[E:.*]] = tensor.empty(%[[D1]], %[[D0]], %[[D2]]) : tensor<?x?x?xf32>
//       CHECK:   %[[T:.*]] = linalg.transpose ins(%[[SRC]] : tensor<?x?x?xf32>) outs(%[[E]] : tensor<?x?x?xf32>) permutation = [1, 0, 2]
//       CHECK:   %[[G:.*]] = nd.gather_nd %[[T]][%[[IND]]] : tensor<?x?x?xf32>, tensor<?x1xi64> -> tensor<?x?x?xf32>
//   CHECK-DAG:   %[[R0:.*]] = tensor.dim %[[G]], %c0
//   CHECK-DAG:   %[[R1:.*]] = tensor.dim %[[G]], %c1
//   CHECK-DAG:   %[[R2:.*]] = tensor.dim %[[G]], %c2
//       CHECK:   tensor.expand_shape %[[G]] {{\[\[}}0], [1], [2, 3]] output_shape [%[[R0]], %[[R1]], 1, %[[R2]]] : tensor<?x?x?xf32> into tensor<?x?x1x?xf32>
func.func @gather_dynamic(%source: tensor<?x?x?xf32>, %indices: tensor<?x1xi64>) -> tensor<?x?x1x?xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([1]) unique : (tensor<?x?x?xf32>, tensor<?x1xi64>) -> tensor<?x?x1x?xf32>
  return %0 : tensor<?x?x1x?xf32>
}

// A single coordinate tuple: nd's result is 0-D; the rank-preserving form
// expands it with the empty reassociation.
// CHECK-LABEL: func.func @gather_one_tuple
//       CHECK:   %[[G:.*]] = nd.gather_nd %{{.*}} : tensor<4xf32>, tensor<1xi64> -> tensor<f32>
//       CHECK:   %[[G1:.*]] = nd.gather_nd %{{.*}} : tensor<4xf32>, tensor<1xi64> -> tensor<f32>
//       CHECK:   %[[R:.*]] = tensor.expand_shape %[[G1]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
//       CHECK:   return %[[G]], %[[R]]
func.func @gather_one_tuple(%source: tensor<4xf32>, %indices: tensor<1xi64>) -> (tensor<f32>, tensor<1xf32>) {
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<1xi64>) -> tensor<f32>
  %1 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<1xi64>) -> tensor<1xf32>
  return %0, %1 : tensor<f32>, tensor<1xf32>
}

//===----------------------------------------------------------------------===//
// Index element types: i32, i64 and index as they are, others sign-extended
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @indices_index
//   CHECK-NOT:   linalg.map
//       CHECK:   nd.gather_nd %{{.*}} : tensor<4xf32>, tensor<3x1xindex> -> tensor<3xf32>
func.func @indices_index(%source: tensor<4xf32>, %indices: tensor<3x1xindex>) -> tensor<3xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<3x1xindex>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @indices_i8
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<3x1xi8>
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<3x1xi32>
//       CHECK:   %[[X:.*]] = linalg.map { arith.extsi } ins(%[[IND]] : tensor<3x1xi8>) outs(%[[E]] : tensor<3x1xi32>)
//       CHECK:   nd.gather_nd %{{.*}}[%[[X]]] : tensor<4xf32>, tensor<3x1xi32> -> tensor<3xf32>
func.func @indices_i8(%source: tensor<4xf32>, %indices: tensor<3x1xi8>) -> tensor<3xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<3x1xi8>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @indices_i1
//       CHECK:   linalg.map { arith.extsi } ins(%{{.*}} : tensor<3x1xi1>) outs(%{{.*}} : tensor<3x1xi32>)
func.func @indices_i1(%source: tensor<4xf32>, %indices: tensor<3x1xi1>) -> tensor<3xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<3x1xi1>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// CHECK-LABEL: func.func @indices_i48
//       CHECK:   linalg.map { arith.extsi } ins(%{{.*}} : tensor<3x1xi48>) outs(%{{.*}} : tensor<3x1xi64>)
//       CHECK:   nd.gather_nd %{{.*}} : tensor<4xf32>, tensor<3x1xi64> -> tensor<3xf32>
func.func @indices_i48(%source: tensor<4xf32>, %indices: tensor<3x1xi48>) -> tensor<3xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<3x1xi48>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// Dynamic indices: the extended tensor takes its size from them.
// CHECK-LABEL: func.func @indices_i16_dynamic
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<?x1xi16>
//       CHECK:   %[[N:.*]] = tensor.dim %[[IND]], %c0
//       CHECK:   %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x1xi32>
//       CHECK:   linalg.map { arith.extsi } ins(%[[IND]] : tensor<?x1xi16>) outs(%[[E]] : tensor<?x1xi32>)
func.func @indices_i16_dynamic(%source: tensor<4xf32>, %indices: tensor<?x1xi16>) -> tensor<?xf32> {
  %0 = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<?x1xi16>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

//===----------------------------------------------------------------------===//
// tensor.scatter
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @scatter_dims_0
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<3x5x6xf32>
//  CHECK-SAME:   %[[DEST:[a-zA-Z0-9]+]]: tensor<4x5x6xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<3x1xi64>
//   CHECK-NOT:   linalg
//       CHECK:   %[[S:.*]] = nd.scatter_nd %[[DEST]][%[[IND]]], %[[SRC]] : tensor<4x5x6xf32>, tensor<3x1xi64>, tensor<3x5x6xf32>
//  CHECK-NEXT:   return %[[S]]
func.func @scatter_dims_0(%source: tensor<3x5x6xf32>, %dest: tensor<4x5x6xf32>, %indices: tensor<3x1xi64>) -> tensor<4x5x6xf32> {
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0]) unique : (tensor<3x5x6xf32>, tensor<4x5x6xf32>, tensor<3x1xi64>) -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>
}

// The first example of the op's documentation.
// CHECK-LABEL: func.func @scatter_all_dims
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<1x2x1x1x1xf32>
//  CHECK-SAME:   %[[DEST:[a-zA-Z0-9]+]]: tensor<4x4x4xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<1x2x3xindex>
//       CHECK:   %[[U:.*]] = tensor.collapse_shape %[[SRC]] {{\[\[}}0], [1, 2, 3, 4]] : tensor<1x2x1x1x1xf32> into tensor<1x2xf32>
//       CHECK:   %[[S:.*]] = nd.scatter_nd %[[DEST]][%[[IND]]], %[[U]] : tensor<4x4x4xf32>, tensor<1x2x3xindex>, tensor<1x2xf32>
//  CHECK-NEXT:   return %[[S]]
func.func @scatter_all_dims(%source: tensor<1x2x1x1x1xf32>, %dest: tensor<4x4x4xf32>, %indices: tensor<1x2x3xindex>) -> tensor<4x4x4xf32> {
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0, 1, 2]) unique : (tensor<1x2x1x1x1xf32>, tensor<4x4x4xf32>, tensor<1x2x3xindex>) -> tensor<4x4x4xf32>
  return %0 : tensor<4x4x4xf32>
}

// The second example of the op's documentation: dest is transposed so that
// dim 1 comes first, and the result transposed back.
// CHECK-LABEL: func.func @scatter_dims_1
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<3x4x1x6xf32>
//  CHECK-SAME:   %[[DEST:[a-zA-Z0-9]+]]: tensor<4x5x6xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<3x1xindex>
//       CHECK:   %[[E:.*]] = tensor.empty() : tensor<5x4x6xf32>
//       CHECK:   %[[T:.*]] = linalg.transpose ins(%[[DEST]] : tensor<4x5x6xf32>) outs(%[[E]] : tensor<5x4x6xf32>) permutation = [1, 0, 2]
//       CHECK:   %[[U:.*]] = tensor.collapse_shape %[[SRC]] {{\[\[}}0], [1], [2, 3]] : tensor<3x4x1x6xf32> into tensor<3x4x6xf32>
//       CHECK:   %[[S:.*]] = nd.scatter_nd %[[T]][%[[IND]]], %[[U]] : tensor<5x4x6xf32>, tensor<3x1xindex>, tensor<3x4x6xf32>
//       CHECK:   %[[E2:.*]] = tensor.empty() : tensor<4x5x6xf32>
//       CHECK:   %[[R:.*]] = linalg.transpose ins(%[[S]] : tensor<5x4x6xf32>) outs(%[[E2]] : tensor<4x5x6xf32>) permutation = [1, 0, 2]
//       CHECK:   return %[[R]]
func.func @scatter_dims_1(%source: tensor<3x4x1x6xf32>, %dest: tensor<4x5x6xf32>, %indices: tensor<3x1xindex>) -> tensor<4x5x6xf32> {
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([1]) unique : (tensor<3x4x1x6xf32>, tensor<4x5x6xf32>, tensor<3x1xindex>) -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>
}

// A single element: the rank-preserving source collapses to 0-D.
// CHECK-LABEL: func.func @scatter_one_element
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<1xf32>
//       CHECK:   %[[U:.*]] = tensor.collapse_shape %[[SRC]] [] : tensor<1xf32> into tensor<f32>
//       CHECK:   nd.scatter_nd %{{.*}}, %[[U]] : tensor<4xf32>, tensor<1xi64>, tensor<f32>
func.func @scatter_one_element(%source: tensor<1xf32>, %dest: tensor<4xf32>, %indices: tensor<1xi64>) -> tensor<4xf32> {
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0]) unique : (tensor<1xf32>, tensor<4xf32>, tensor<1xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// scatter_dims [2]: dest goes through [2, 0, 1], the result back through
// its inverse [1, 2, 0].
// CHECK-LABEL: func.func @scatter_dims_2
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<3x4x5xf32>
//  CHECK-SAME:   %[[DEST:[a-zA-Z0-9]+]]: tensor<4x5x6xf32>
//       CHECK:   %[[T:.*]] = linalg.transpose ins(%[[DEST]] : tensor<4x5x6xf32>) outs(%{{.*}} : tensor<6x4x5xf32>) permutation = [2, 0, 1]
//       CHECK:   %[[S:.*]] = nd.scatter_nd %[[T]][%{{.*}}], %[[SRC]] : tensor<6x4x5xf32>, tensor<3x1xi64>, tensor<3x4x5xf32>
//       CHECK:   %[[R:.*]] = linalg.transpose ins(%[[S]] : tensor<6x4x5xf32>) outs(%{{.*}} : tensor<4x5x6xf32>) permutation = [1, 2, 0]
//       CHECK:   return %[[R]]
func.func @scatter_dims_2(%source: tensor<3x4x5xf32>, %dest: tensor<4x5x6xf32>, %indices: tensor<3x1xi64>) -> tensor<4x5x6xf32> {
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([2]) unique : (tensor<3x4x5xf32>, tensor<4x5x6xf32>, tensor<3x1xi64>) -> tensor<4x5x6xf32>
  return %0 : tensor<4x5x6xf32>
}

// scatter_dims [0, 2]: the inverse of the permutation [0, 2, 1] is itself.
// CHECK-LABEL: func.func @scatter_dynamic
//  CHECK-SAME:   %[[SRC:[a-zA-Z0-9]+]]: tensor<?x?xf32>
//  CHECK-SAME:   %[[DEST:[a-zA-Z0-9]+]]: tensor<?x?x?xf32>
//  CHECK-SAME:   %[[IND:[a-zA-Z0-9]+]]: tensor<?x2xi16>
//       CHECK:   %[[T:.*]] = linalg.transpose ins(%[[DEST]] : tensor<?x?x?xf32>) outs(%{{.*}} : tensor<?x?x?xf32>) permutation = [0, 2, 1]
//       CHECK:   %[[X:.*]] = linalg.map { arith.extsi } ins(%[[IND]] : tensor<?x2xi16>) outs(%{{.*}} : tensor<?x2xi32>)
//       CHECK:   %[[S:.*]] = nd.scatter_nd %[[T]][%[[X]]], %[[SRC]] : tensor<?x?x?xf32>, tensor<?x2xi32>, tensor<?x?xf32>
//       CHECK:   %[[R:.*]] = linalg.transpose ins(%[[S]] : tensor<?x?x?xf32>) outs(%{{.*}} : tensor<?x?x?xf32>) permutation = [0, 2, 1]
//       CHECK:   return %[[R]]
func.func @scatter_dynamic(%source: tensor<?x?xf32>, %dest: tensor<?x?x?xf32>, %indices: tensor<?x2xi16>) -> tensor<?x?x?xf32> {
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0, 2]) unique : (tensor<?x?xf32>, tensor<?x?x?xf32>, tensor<?x2xi16>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

// A result type less static than dest's is a cast of nd's result.
// CHECK-LABEL: func.func @scatter_less_static_result
//       CHECK:   %[[S:.*]] = nd.scatter_nd %{{.*}} : tensor<4x5xf32>, tensor<3x1xi32>, tensor<3x5xf32>
//       CHECK:   %[[R:.*]] = tensor.cast %[[S]] : tensor<4x5xf32> to tensor<?x5xf32>
//       CHECK:   return %[[R]]
func.func @scatter_less_static_result(%source: tensor<3x5xf32>, %dest: tensor<4x5xf32>, %indices: tensor<3x1xi32>) -> tensor<?x5xf32> {
  %0 = tensor.scatter %source into %dest[%indices] scatter_dims([0]) unique : (tensor<3x5xf32>, tensor<4x5xf32>, tensor<3x1xi32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// Ops nested in regions are converted too, and run-time messages name the
// original op through the location.
// CHECK-LABEL: func.func @nested
//       CHECK:   scf.for
//       CHECK:     nd.gather_nd
// LOC-LABEL: func.func @nested
//       LOC:   scf.for
//       LOC:     nd.gather_nd {{.*}} loc(#[[LOC:loc[0-9]+]])
//       LOC: #[[LOC]] = loc("tensor.gather"(#[[INNER:loc[0-9]+]]))
func.func @nested(%source: tensor<4xf32>, %indices: tensor<3x1xi64>, %n: index) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = tensor.empty() : tensor<3xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> (tensor<3xf32>) {
    %g = tensor.gather %source[%indices] gather_dims([0]) : (tensor<4xf32>, tensor<3x1xi64>) -> tensor<3xf32>
    scf.yield %g : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
