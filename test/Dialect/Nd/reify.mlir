// RUN: nd-opt %s --resolve-ranked-shaped-type-result-dims --split-input-file | FileCheck %s

// Shape reification: `tensor.dim` of an nd result becomes `tensor.dim` of the
// operand dim it equals, or a constant where the dim is static.

// A scatter result has the dims of data.
// CHECK-LABEL: func.func @scatter_nd_dims(
// CHECK-SAME:    %[[D:.*]]: tensor<?x4x?xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x1xi64>,
// CHECK-SAME:    %[[U:.*]]: tensor<?x4x?xf32>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[D0:.*]] = tensor.dim %[[D]], %[[C0]] : tensor<?x4x?xf32>
// CHECK-DAG:     %[[D2:.*]] = tensor.dim %[[D]], %[[C2]] : tensor<?x4x?xf32>
// CHECK-NOT:     nd.scatter_nd
// CHECK:         return %[[D0]], %[[C4]], %[[D2]] : index, index, index
func.func @scatter_nd_dims(%data: tensor<?x4x?xf32>, %indices: tensor<?x1xi64>,
                           %updates: tensor<?x4x?xf32>) -> (index, index, index) {
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<?x4x?xf32>, tensor<?x1xi64>, tensor<?x4x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x4x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<?x4x?xf32>
  %d2 = tensor.dim %0, %c2 : tensor<?x4x?xf32>
  return %d0, %d1, %d2 : index, index, index
}

// -----

// result.shape = indices.shape[:-1] ++ data.shape[k:] = 3x?x?x6.
// CHECK-LABEL: func.func @gather_nd_dims(
// CHECK-SAME:    %[[D:.*]]: tensor<?x?x6xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<3x?x1xi32>)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG:     %[[R1:.*]] = tensor.dim %[[I]], %[[C1]] : tensor<3x?x1xi32>
// CHECK-DAG:     %[[R2:.*]] = tensor.dim %[[D]], %[[C1]] : tensor<?x?x6xf32>
// CHECK-NOT:     nd.gather_nd
// CHECK:         return %[[C3]], %[[R1]], %[[R2]], %[[C6]] : index, index, index, index
func.func @gather_nd_dims(%data: tensor<?x?x6xf32>, %indices: tensor<3x?x1xi32>)
    -> (index, index, index, index) {
  %0 = nd.gather_nd %data[%indices]
      : tensor<?x?x6xf32>, tensor<3x?x1xi32> -> tensor<3x?x?x6xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %0, %c0 : tensor<3x?x?x6xf32>
  %d1 = tensor.dim %0, %c1 : tensor<3x?x?x6xf32>
  %d2 = tensor.dim %0, %c2 : tensor<3x?x?x6xf32>
  %d3 = tensor.dim %0, %c3 : tensor<3x?x?x6xf32>
  return %d0, %d1, %d2, %d3 : index, index, index, index
}

// -----

// With batch dims, the slice dims come after the b + k indexed dims of data:
// result.shape = indices.shape[:-1] ++ data.shape[b+k:] = ?x?x?.
// CHECK-LABEL: func.func @gather_nd_batch_dims(
// CHECK-SAME:    %[[D:.*]]: tensor<?x5x?xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x?x1xindex>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[R0:.*]] = tensor.dim %[[I]], %[[C0]] : tensor<?x?x1xindex>
// CHECK-DAG:     %[[R1:.*]] = tensor.dim %[[I]], %[[C1]] : tensor<?x?x1xindex>
// CHECK-DAG:     %[[R2:.*]] = tensor.dim %[[D]], %[[C2]] : tensor<?x5x?xf32>
// CHECK:         return %[[R0]], %[[R1]], %[[R2]] : index, index, index
func.func @gather_nd_batch_dims(%data: tensor<?x5x?xf32>, %indices: tensor<?x?x1xindex>)
    -> (index, index, index) {
  %0 = nd.gather_nd %data[%indices] batch_dims(1)
      : tensor<?x5x?xf32>, tensor<?x?x1xindex> -> tensor<?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x?x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<?x?x?xf32>
  %d2 = tensor.dim %0, %c2 : tensor<?x?x?xf32>
  return %d0, %d1, %d2 : index, index, index
}

// -----

// A batch dim that only data knows statically reifies to that constant, even
// when the result type leaves it dynamic.
// CHECK-LABEL: func.func @gather_nd_batch_dim_from_data(
// CHECK-SAME:    %[[D:.*]]: tensor<4x?x5xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x1xi64>)
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[C5:.*]] = arith.constant 5 : index
// CHECK-NOT:     tensor.dim
// CHECK:         return %[[C4]], %[[C5]] : index, index
func.func @gather_nd_batch_dim_from_data(%data: tensor<4x?x5xf32>, %indices: tensor<?x1xi64>)
    -> (index, index) {
  %0 = nd.gather_nd %data[%indices] batch_dims(1)
      : tensor<4x?x5xf32>, tensor<?x1xi64> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<?x?xf32>
  return %d0, %d1 : index, index
}

// -----

// A result type more static than the operands gives its own constant.
// CHECK-LABEL: func.func @gather_nd_static_result(
// CHECK-SAME:    %[[D:.*]]: tensor<6x?xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x1xi64>)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[R1:.*]] = tensor.dim %[[D]], %[[C1]] : tensor<6x?xf32>
// CHECK:         return %[[C3]], %[[R1]] : index, index
func.func @gather_nd_static_result(%data: tensor<6x?xf32>, %indices: tensor<?x1xi64>)
    -> (index, index) {
  %0 = nd.gather_nd %data[%indices] : tensor<6x?xf32>, tensor<?x1xi64> -> tensor<3x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %0, %c0 : tensor<3x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<3x?xf32>
  return %d0, %d1 : index, index
}

// -----

// CHECK-LABEL: func.func @scatter_elements_dims(
// CHECK-SAME:    %[[D:.*]]: tensor<2x?xf64>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x?xi32>,
// CHECK-SAME:    %[[U:.*]]: tensor<?x?xf64>)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[R1:.*]] = tensor.dim %[[D]], %[[C1]] : tensor<2x?xf64>
// CHECK-NOT:     nd.scatter_elements
// CHECK:         return %[[C2]], %[[R1]] : index, index
func.func @scatter_elements_dims(%data: tensor<2x?xf64>, %indices: tensor<?x?xi32>,
                                 %updates: tensor<?x?xf64>) -> (index, index) {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<add>
      : tensor<2x?xf64>, tensor<?x?xi32>, tensor<?x?xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %0, %c0 : tensor<2x?xf64>
  %d1 = tensor.dim %0, %c1 : tensor<2x?xf64>
  return %d0, %d1 : index, index
}

// -----

// A gather_elements result has the dims of indices, not of data.
// CHECK-LABEL: func.func @gather_elements_dims(
// CHECK-SAME:    %[[D:.*]]: tensor<?x?x?xi8>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x3x?xi64>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[R0:.*]] = tensor.dim %[[I]], %[[C0]] : tensor<?x3x?xi64>
// CHECK-DAG:     %[[R2:.*]] = tensor.dim %[[I]], %[[C2]] : tensor<?x3x?xi64>
// CHECK-NOT:     nd.gather_elements
// CHECK:         return %[[R0]], %[[C3]], %[[R2]] : index, index, index
func.func @gather_elements_dims(%data: tensor<?x?x?xi8>, %indices: tensor<?x3x?xi64>)
    -> (index, index, index) {
  %0 = nd.gather_elements %data[%indices] axis(-1)
      : tensor<?x?x?xi8>, tensor<?x3x?xi64> -> tensor<?x3x?xi8>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x3x?xi8>
  %d1 = tensor.dim %0, %c1 : tensor<?x3x?xi8>
  %d2 = tensor.dim %0, %c2 : tensor<?x3x?xi8>
  return %d0, %d1, %d2 : index, index, index
}

// -----

// A dynamic index depth: the ranks give k = 2 - 1 + 3 - 2 = 2, so the
// result is indices.shape[:-1] ++ data.shape[2:] = ?x?.
// CHECK-LABEL: func.func @gather_nd_dynamic_index_depth(
// CHECK-SAME:    %[[D:.*]]: tensor<4x5x?xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x?xi64>)
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[R0:.*]] = tensor.dim %[[I]], %[[C0]] : tensor<?x?xi64>
// CHECK-DAG:     %[[R1:.*]] = tensor.dim %[[D]], %[[C2]] : tensor<4x5x?xf32>
// CHECK:         return %[[R0]], %[[R1]] : index, index
func.func @gather_nd_dynamic_index_depth(%data: tensor<4x5x?xf32>, %indices: tensor<?x?xi64>)
    -> (index, index) {
  %0 = nd.gather_nd %data[%indices] : tensor<4x5x?xf32>, tensor<?x?xi64> -> tensor<?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<?x?xf32>
  return %d0, %d1 : index, index
}

// -----

// result.shape = data.shape[:a] ++ indices.shape[b:] ++ data.shape[a+1:]
// with a = 2, b = 1: batch dim 0 from indices (data leaves it dynamic), dim
// 1 from data, dims 2 and 3 from indices dims 1 and 2, dim 4 from data dim 3.
// CHECK-LABEL: func.func @gather_dims(
// CHECK-SAME:    %[[D:.*]]: tensor<?x?x7x?xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<3x?x?xi32>)
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[R1:.*]] = tensor.dim %[[D]], %[[C1]] : tensor<?x?x7x?xf32>
// CHECK-DAG:     %[[R2:.*]] = tensor.dim %[[I]], %[[C1]] : tensor<3x?x?xi32>
// CHECK-DAG:     %[[R3:.*]] = tensor.dim %[[I]], %[[C2]] : tensor<3x?x?xi32>
// CHECK-DAG:     %[[R4:.*]] = tensor.dim %[[D]], %[[C3]] : tensor<?x?x7x?xf32>
// CHECK-NOT:     nd.gather
// CHECK:         return %[[C3]], %[[R1]], %[[R2]], %[[R3]], %[[R4]] : index, index, index, index, index
func.func @gather_dims(%data: tensor<?x?x7x?xf32>, %indices: tensor<3x?x?xi32>)
    -> (index, index, index, index, index) {
  %0 = nd.gather %data[%indices] axis(2) batch_dims(1)
      : tensor<?x?x7x?xf32>, tensor<3x?x?xi32> -> tensor<3x?x?x?x?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %d0 = tensor.dim %0, %c0 : tensor<3x?x?x?x?xf32>
  %d1 = tensor.dim %0, %c1 : tensor<3x?x?x?x?xf32>
  %d2 = tensor.dim %0, %c2 : tensor<3x?x?x?x?xf32>
  %d3 = tensor.dim %0, %c3 : tensor<3x?x?x?x?xf32>
  %d4 = tensor.dim %0, %c4 : tensor<3x?x?x?x?xf32>
  return %d0, %d1, %d2, %d3, %d4 : index, index, index, index, index
}

// -----

// A tensor_scatter result has the dims of past_cache.
// CHECK-LABEL: func.func @tensor_scatter_dims(
// CHECK-SAME:    %[[P:.*]]: tensor<?x8x?xf16>,
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[D0:.*]] = tensor.dim %[[P]], %[[C0]] : tensor<?x8x?xf16>
// CHECK-DAG:     %[[D2:.*]] = tensor.dim %[[P]], %[[C2]] : tensor<?x8x?xf16>
// CHECK-NOT:     nd.tensor_scatter
// CHECK:         return %[[D0]], %[[C8]], %[[D2]] : index, index, index
func.func @tensor_scatter_dims(%past: tensor<?x8x?xf16>, %w: tensor<?xi64>, %update: tensor<?x?x?xf16>)
    -> (index, index, index) {
  %0 = nd.tensor_scatter %past[%w], %update axis(1) mode<circular>
      : tensor<?x8x?xf16>[tensor<?xi64>], tensor<?x?x?xf16>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %d0 = tensor.dim %0, %c0 : tensor<?x8x?xf16>
  %d1 = tensor.dim %0, %c1 : tensor<?x8x?xf16>
  %d2 = tensor.dim %0, %c2 : tensor<?x8x?xf16>
  return %d0, %d1, %d2 : index, index, index
}
