// RUN: nd-opt %s | nd-opt | FileCheck %s
// RUN: nd-opt %s --mlir-print-op-generic | nd-opt | FileCheck %s

// Round trip of the four nd ops, in the custom and the generic form. Default
// attributes (reduction<none>, axis(0), batch_dims(0)) are elided on printing.

//===----------------------------------------------------------------------===//
// nd.scatter_nd
//===----------------------------------------------------------------------===//

// ONNX ScatterND, example 1: k == rank(data), one element per tuple.
// CHECK-LABEL: func.func @scatter_nd_elements(
// CHECK-SAME:    %[[D:.*]]: tensor<8xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<4x1xi64>,
// CHECK-SAME:    %[[U:.*]]: tensor<4xf32>)
// CHECK:         %[[R:.*]] = nd.scatter_nd %[[D]][%[[I]]], %[[U]] : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
// CHECK:         return %[[R]] : tensor<8xf32>
func.func @scatter_nd_elements(%data: tensor<8xf32>, %indices: tensor<4x1xi64>,
                               %updates: tensor<4xf32>) -> tensor<8xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  return %0 : tensor<8xf32>
}

// ONNX ScatterND, example 2: k < rank(data), slices of rank r - k.
// CHECK-LABEL: func.func @scatter_nd_slices(
// CHECK-SAME:    %[[D:.*]]: tensor<4x4x4xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<2x1xi64>,
// CHECK-SAME:    %[[U:.*]]: tensor<2x4x4xf32>)
// CHECK:         nd.scatter_nd %[[D]][%[[I]]], %[[U]] : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
func.func @scatter_nd_slices(%data: tensor<4x4x4xf32>, %indices: tensor<2x1xi64>,
                             %updates: tensor<2x4x4xf32>) -> tensor<4x4x4xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
  return %0 : tensor<4x4x4xf32>
}

// Every reduction; an explicit reduction<none> is the default and elided.
// CHECK-LABEL: func.func @scatter_nd_reductions(
// CHECK-SAME:    %[[D:.*]]: tensor<4x3xi32>,
// CHECK-SAME:    %[[I:.*]]: tensor<5x2xi32>,
// CHECK-SAME:    %[[U:.*]]: tensor<5xi32>)
// CHECK:         %[[NONE:.*]] = nd.scatter_nd %[[D]][%[[I]]], %[[U]] : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
// CHECK:         %[[ADD:.*]] = nd.scatter_nd %[[NONE]][%[[I]]], %[[U]] reduction<add> : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
// CHECK:         %[[MUL:.*]] = nd.scatter_nd %[[ADD]][%[[I]]], %[[U]] reduction<mul> : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
// CHECK:         %[[MAX:.*]] = nd.scatter_nd %[[MUL]][%[[I]]], %[[U]] reduction<max> : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
// CHECK:         %[[MIN:.*]] = nd.scatter_nd %[[MAX]][%[[I]]], %[[U]] reduction<min> : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
// CHECK:         %[[DEF:.*]] = nd.scatter_nd %[[MIN]][%[[I]]], %[[U]] : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
// CHECK:         return %[[DEF]]
func.func @scatter_nd_reductions(%data: tensor<4x3xi32>, %indices: tensor<5x2xi32>,
                                 %updates: tensor<5xi32>) -> tensor<4x3xi32> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<none>
      : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
  %1 = nd.scatter_nd %0[%indices], %updates reduction<add>
      : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
  %2 = nd.scatter_nd %1[%indices], %updates reduction<mul>
      : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
  %3 = nd.scatter_nd %2[%indices], %updates reduction<max>
      : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
  %4 = nd.scatter_nd %3[%indices], %updates reduction<min>
      : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
  %5 = nd.scatter_nd %4[%indices], %updates
      : tensor<4x3xi32>, tensor<5x2xi32>, tensor<5xi32>
  return %5 : tensor<4x3xi32>
}

// Dynamic dims in data, in the tuple dims of indices and in updates; only the
// index depth k must be static.
// CHECK-LABEL: func.func @scatter_nd_dynamic(
// CHECK-SAME:    %[[D:.*]]: tensor<?x4x?x6xf16>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x3x2xindex>,
// CHECK-SAME:    %[[U:.*]]: tensor<?x?x?x6xf16>)
// CHECK:         %[[R:.*]] = nd.scatter_nd %[[D]][%[[I]]], %[[U]] reduction<add> : tensor<?x4x?x6xf16>, tensor<?x3x2xindex>, tensor<?x?x?x6xf16>
// CHECK:         return %[[R]] : tensor<?x4x?x6xf16>
func.func @scatter_nd_dynamic(%data: tensor<?x4x?x6xf16>, %indices: tensor<?x3x2xindex>,
                              %updates: tensor<?x?x?x6xf16>) -> tensor<?x4x?x6xf16> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add>
      : tensor<?x4x?x6xf16>, tensor<?x3x2xindex>, tensor<?x?x?x6xf16>
  return %0 : tensor<?x4x?x6xf16>
}

// All dims dynamic but k.
// CHECK-LABEL: func.func @scatter_nd_all_dynamic(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<max> : tensor<?x?xbf16>, tensor<?x1xi32>, tensor<?x?xbf16>
func.func @scatter_nd_all_dynamic(%data: tensor<?x?xbf16>, %indices: tensor<?x1xi32>,
                                  %updates: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<max>
      : tensor<?x?xbf16>, tensor<?x1xi32>, tensor<?x?xbf16>
  return %0 : tensor<?x?xbf16>
}

// OpenVINO ScatterNDUpdate-3: rank(indices) == 1 and k == rank(data) make the
// expected updates shape 0-D; a 0-D updates tensor and single-element tensors
// of any rank are accepted.
// CHECK-LABEL: func.func @scatter_nd_single_element(
// CHECK-SAME:    %[[D:.*]]: tensor<4x5xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<2xi64>,
// CHECK-SAME:    %[[U0:.*]]: tensor<f32>,
// CHECK-SAME:    %[[U1:.*]]: tensor<1xf32>,
// CHECK-SAME:    %[[U2:.*]]: tensor<1x1xf32>)
// CHECK:         %[[R0:.*]] = nd.scatter_nd %[[D]][%[[I]]], %[[U0]] : tensor<4x5xf32>, tensor<2xi64>, tensor<f32>
// CHECK:         %[[R1:.*]] = nd.scatter_nd %[[R0]][%[[I]]], %[[U1]] : tensor<4x5xf32>, tensor<2xi64>, tensor<1xf32>
// CHECK:         %[[R2:.*]] = nd.scatter_nd %[[R1]][%[[I]]], %[[U2]] reduction<mul> : tensor<4x5xf32>, tensor<2xi64>, tensor<1x1xf32>
// CHECK:         return %[[R2]]
func.func @scatter_nd_single_element(%data: tensor<4x5xf32>, %indices: tensor<2xi64>,
                                     %u0: tensor<f32>, %u1: tensor<1xf32>,
                                     %u2: tensor<1x1xf32>) -> tensor<4x5xf32> {
  %0 = nd.scatter_nd %data[%indices], %u0
      : tensor<4x5xf32>, tensor<2xi64>, tensor<f32>
  %1 = nd.scatter_nd %0[%indices], %u1
      : tensor<4x5xf32>, tensor<2xi64>, tensor<1xf32>
  %2 = nd.scatter_nd %1[%indices], %u2 reduction<mul>
      : tensor<4x5xf32>, tensor<2xi64>, tensor<1x1xf32>
  return %2 : tensor<4x5xf32>
}

// The OpenVINO example layer: data 1000x256x10x15, indices 25x125x3.
// CHECK-LABEL: func.func @scatter_nd_openvino_example(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<1000x256x10x15xf32>, tensor<25x125x3xi32>, tensor<25x125x15xf32>
func.func @scatter_nd_openvino_example(%data: tensor<1000x256x10x15xf32>,
                                       %indices: tensor<25x125x3xi32>,
                                       %updates: tensor<25x125x15xf32>)
    -> tensor<1000x256x10x15xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<1000x256x10x15xf32>, tensor<25x125x3xi32>, tensor<25x125x15xf32>
  return %0 : tensor<1000x256x10x15xf32>
}

//===----------------------------------------------------------------------===//
// nd.gather_nd
//===----------------------------------------------------------------------===//

// ONNX GatherND, example 1: k == r, one element per tuple.
// CHECK-LABEL: func.func @gather_nd_elements(
// CHECK-SAME:    %[[D:.*]]: tensor<2x2xi32>,
// CHECK-SAME:    %[[I:.*]]: tensor<2x2xi64>)
// CHECK:         %[[R:.*]] = nd.gather_nd %[[D]][%[[I]]] : tensor<2x2xi32>, tensor<2x2xi64> -> tensor<2xi32>
// CHECK:         return %[[R]] : tensor<2xi32>
func.func @gather_nd_elements(%data: tensor<2x2xi32>, %indices: tensor<2x2xi64>)
    -> tensor<2xi32> {
  %0 = nd.gather_nd %data[%indices] : tensor<2x2xi32>, tensor<2x2xi64> -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// ONNX GatherND, example 4: slices; an explicit batch_dims(0) is elided.
// CHECK-LABEL: func.func @gather_nd_slices(
// CHECK-SAME:    %[[D:.*]]: tensor<2x2x2xi32>,
// CHECK-SAME:    %[[I:.*]]: tensor<2x1x2xi64>)
// CHECK:         nd.gather_nd %[[D]][%[[I]]] : tensor<2x2x2xi32>, tensor<2x1x2xi64> -> tensor<2x1x2xi32>
func.func @gather_nd_slices(%data: tensor<2x2x2xi32>, %indices: tensor<2x1x2xi64>)
    -> tensor<2x1x2xi32> {
  %0 = nd.gather_nd %data[%indices] batch_dims(0)
      : tensor<2x2x2xi32>, tensor<2x1x2xi64> -> tensor<2x1x2xi32>
  return %0 : tensor<2x1x2xi32>
}

// ONNX GatherND, example 5: batch_dims = 1.
// CHECK-LABEL: func.func @gather_nd_batch_dims(
// CHECK-SAME:    %[[D:.*]]: tensor<2x2x2xi32>,
// CHECK-SAME:    %[[I:.*]]: tensor<2x1xi64>)
// CHECK:         nd.gather_nd %[[D]][%[[I]]] batch_dims(1) : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
func.func @gather_nd_batch_dims(%data: tensor<2x2x2xi32>, %indices: tensor<2x1xi64>)
    -> tensor<2x2xi32> {
  %0 = nd.gather_nd %data[%indices] batch_dims(1)
      : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// Two batch dims, k == r - b.
// CHECK-LABEL: func.func @gather_nd_two_batch_dims(
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] batch_dims(2) : tensor<2x3x4x5xf32>, tensor<2x3x7x2xi32> -> tensor<2x3x7xf32>
func.func @gather_nd_two_batch_dims(%data: tensor<2x3x4x5xf32>, %indices: tensor<2x3x7x2xi32>)
    -> tensor<2x3x7xf32> {
  %0 = nd.gather_nd %data[%indices] batch_dims(2)
      : tensor<2x3x4x5xf32>, tensor<2x3x7x2xi32> -> tensor<2x3x7xf32>
  return %0 : tensor<2x3x7xf32>
}

// Dynamic dims in the batch dim, in the tuple dims and in the slice dims.
// CHECK-LABEL: func.func @gather_nd_dynamic(
// CHECK-SAME:    %[[D:.*]]: tensor<?x?x4x?xf64>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x?x1xindex>)
// CHECK:         %[[R:.*]] = nd.gather_nd %[[D]][%[[I]]] batch_dims(1) : tensor<?x?x4x?xf64>, tensor<?x?x1xindex> -> tensor<?x?x4x?xf64>
// CHECK:         return %[[R]] : tensor<?x?x4x?xf64>
func.func @gather_nd_dynamic(%data: tensor<?x?x4x?xf64>, %indices: tensor<?x?x1xindex>)
    -> tensor<?x?x4x?xf64> {
  %0 = nd.gather_nd %data[%indices] batch_dims(1)
      : tensor<?x?x4x?xf64>, tensor<?x?x1xindex> -> tensor<?x?x4x?xf64>
  return %0 : tensor<?x?x4x?xf64>
}

// A result type more static than the inferred tensor<?x4xf32> is accepted, and
// so is a less static one; a batch dim that indices leaves dynamic takes its
// size from data (inferred tensor<3x5xf32>).
// CHECK-LABEL: func.func @gather_nd_refined_result(
// CHECK-SAME:    %[[D:.*]]: tensor<6x4xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x1xi64>,
// CHECK-SAME:    %[[B:.*]]: tensor<3x2x5xf32>,
// CHECK-SAME:    %[[J:.*]]: tensor<?x1xi32>)
// CHECK:         nd.gather_nd %[[D]][%[[I]]] : tensor<6x4xf32>, tensor<?x1xi64> -> tensor<3x4xf32>
// CHECK:         nd.gather_nd %[[D]][%[[I]]] : tensor<6x4xf32>, tensor<?x1xi64> -> tensor<?x?xf32>
// CHECK:         nd.gather_nd %[[B]][%[[J]]] batch_dims(1) : tensor<3x2x5xf32>, tensor<?x1xi32> -> tensor<3x5xf32>
func.func @gather_nd_refined_result(%data: tensor<6x4xf32>, %indices: tensor<?x1xi64>,
                                    %batched: tensor<3x2x5xf32>, %bindices: tensor<?x1xi32>)
    -> (tensor<3x4xf32>, tensor<?x?xf32>, tensor<3x5xf32>) {
  %0 = nd.gather_nd %data[%indices] : tensor<6x4xf32>, tensor<?x1xi64> -> tensor<3x4xf32>
  %1 = nd.gather_nd %data[%indices] : tensor<6x4xf32>, tensor<?x1xi64> -> tensor<?x?xf32>
  %2 = nd.gather_nd %batched[%bindices] batch_dims(1)
      : tensor<3x2x5xf32>, tensor<?x1xi32> -> tensor<3x5xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<?x?xf32>, tensor<3x5xf32>
}

//===----------------------------------------------------------------------===//
// nd.scatter_elements
//===----------------------------------------------------------------------===//

// ONNX Scatter, example 1: axis 0 is the default, an explicit axis(0) is
// elided.
// CHECK-LABEL: func.func @scatter_elements_axis_0(
// CHECK-SAME:    %[[D:.*]]: tensor<3x3xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<2x3xi64>,
// CHECK-SAME:    %[[U:.*]]: tensor<2x3xf32>)
// CHECK:         %[[R0:.*]] = nd.scatter_elements %[[D]][%[[I]]], %[[U]] : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
// CHECK:         %[[R1:.*]] = nd.scatter_elements %[[R0]][%[[I]]], %[[U]] : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
// CHECK:         return %[[R1]]
func.func @scatter_elements_axis_0(%data: tensor<3x3xf32>, %indices: tensor<2x3xi64>,
                                   %updates: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates
      : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
  %1 = nd.scatter_elements %0[%indices], %updates axis(0) reduction<none>
      : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
  return %1 : tensor<3x3xf32>
}

// ONNX Scatter, example 2: axis 1, and the same axis counted from the back.
// CHECK-LABEL: func.func @scatter_elements_axis_1(
// CHECK-SAME:    %[[D:.*]]: tensor<1x5xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<1x2xi64>,
// CHECK-SAME:    %[[U:.*]]: tensor<1x2xf32>)
// CHECK:         %[[R0:.*]] = nd.scatter_elements %[[D]][%[[I]]], %[[U]] axis(1) : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
// CHECK:         %[[R1:.*]] = nd.scatter_elements %[[R0]][%[[I]]], %[[U]] axis(-1) : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
// CHECK:         %[[R2:.*]] = nd.scatter_elements %[[R1]][%[[I]]], %[[U]] axis(-2) : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
// CHECK:         return %[[R2]]
func.func @scatter_elements_axis_1(%data: tensor<1x5xf32>, %indices: tensor<1x2xi64>,
                                   %updates: tensor<1x2xf32>) -> tensor<1x5xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1)
      : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %1 = nd.scatter_elements %0[%indices], %updates axis(-1)
      : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  %2 = nd.scatter_elements %1[%indices], %updates axis(-2)
      : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
  return %2 : tensor<1x5xf32>
}

// Every reduction, with and without an axis.
// CHECK-LABEL: func.func @scatter_elements_reductions(
// CHECK-SAME:    %[[D:.*]]: tensor<4x3xui32>,
// CHECK-SAME:    %[[I:.*]]: tensor<2x3xi32>,
// CHECK-SAME:    %[[U:.*]]: tensor<2x3xui32>)
// CHECK:         %[[ADD:.*]] = nd.scatter_elements %[[D]][%[[I]]], %[[U]] reduction<add> : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
// CHECK:         %[[MUL:.*]] = nd.scatter_elements %[[ADD]][%[[I]]], %[[U]] axis(1) reduction<mul> : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
// CHECK:         %[[MAX:.*]] = nd.scatter_elements %[[MUL]][%[[I]]], %[[U]] axis(-2) reduction<max> : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
// CHECK:         %[[MIN:.*]] = nd.scatter_elements %[[MAX]][%[[I]]], %[[U]] reduction<min> : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
// CHECK:         %[[NONE:.*]] = nd.scatter_elements %[[MIN]][%[[I]]], %[[U]] axis(1) : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
// CHECK:         return %[[NONE]]
func.func @scatter_elements_reductions(%data: tensor<4x3xui32>, %indices: tensor<2x3xi32>,
                                       %updates: tensor<2x3xui32>) -> tensor<4x3xui32> {
  %0 = nd.scatter_elements %data[%indices], %updates reduction<add>
      : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
  %1 = nd.scatter_elements %0[%indices], %updates axis(1) reduction<mul>
      : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
  %2 = nd.scatter_elements %1[%indices], %updates axis(-2) reduction<max>
      : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
  %3 = nd.scatter_elements %2[%indices], %updates reduction<min>
      : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
  %4 = nd.scatter_elements %3[%indices], %updates axis(1) reduction<none>
      : tensor<4x3xui32>, tensor<2x3xi32>, tensor<2x3xui32>
  return %4 : tensor<4x3xui32>
}

// Dynamic dims in every operand, at different positions.
// CHECK-LABEL: func.func @scatter_elements_dynamic(
// CHECK-SAME:    %[[D:.*]]: tensor<?x8x?xf64>,
// CHECK-SAME:    %[[I:.*]]: tensor<2x?x?xindex>,
// CHECK-SAME:    %[[U:.*]]: tensor<?x3x?xf64>)
// CHECK:         %[[R:.*]] = nd.scatter_elements %[[D]][%[[I]]], %[[U]] axis(2) reduction<add> : tensor<?x8x?xf64>, tensor<2x?x?xindex>, tensor<?x3x?xf64>
// CHECK:         return %[[R]] : tensor<?x8x?xf64>
func.func @scatter_elements_dynamic(%data: tensor<?x8x?xf64>, %indices: tensor<2x?x?xindex>,
                                    %updates: tensor<?x3x?xf64>) -> tensor<?x8x?xf64> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(2) reduction<add>
      : tensor<?x8x?xf64>, tensor<2x?x?xindex>, tensor<?x3x?xf64>
  return %0 : tensor<?x8x?xf64>
}

// Along the axis, indices may be longer than data (duplicate targets); off
// the axis they must not be.
// CHECK-LABEL: func.func @scatter_elements_longer_on_axis(
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<4x4xf32>, tensor<9x4xi64>, tensor<9x4xf32>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} axis(-1) : tensor<4x4xf32>, tensor<2x7xi64>, tensor<2x7xf32>
func.func @scatter_elements_longer_on_axis(%data: tensor<4x4xf32>,
                                           %i0: tensor<9x4xi64>, %u0: tensor<9x4xf32>,
                                           %i1: tensor<2x7xi64>, %u1: tensor<2x7xf32>)
    -> tensor<4x4xf32> {
  %0 = nd.scatter_elements %data[%i0], %u0 reduction<add>
      : tensor<4x4xf32>, tensor<9x4xi64>, tensor<9x4xf32>
  %1 = nd.scatter_elements %0[%i1], %u1 axis(-1)
      : tensor<4x4xf32>, tensor<2x7xi64>, tensor<2x7xf32>
  return %1 : tensor<4x4xf32>
}

//===----------------------------------------------------------------------===//
// nd.gather_elements
//===----------------------------------------------------------------------===//

// ONNX GatherElements, test_gather_elements_0 (axis 1), then axis 0 written
// out (elided) and a negative axis.
// CHECK-LABEL: func.func @gather_elements_axes(
// CHECK-SAME:    %[[D:.*]]: tensor<2x2xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<2x2xi64>)
// CHECK:         %[[R0:.*]] = nd.gather_elements %[[D]][%[[I]]] axis(1) : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
// CHECK:         %[[R1:.*]] = nd.gather_elements %[[D]][%[[I]]] : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
// CHECK:         %[[R2:.*]] = nd.gather_elements %[[D]][%[[I]]] axis(-2) : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
// CHECK:         return %[[R0]], %[[R1]], %[[R2]]
func.func @gather_elements_axes(%data: tensor<2x2xf32>, %indices: tensor<2x2xi64>)
    -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  %0 = nd.gather_elements %data[%indices] axis(1)
      : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  %1 = nd.gather_elements %data[%indices] axis(0)
      : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  %2 = nd.gather_elements %data[%indices] axis(-2)
      : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// Dynamic dims; the result has the shape of indices.
// CHECK-LABEL: func.func @gather_elements_dynamic(
// CHECK-SAME:    %[[D:.*]]: tensor<?x5x?xi8>,
// CHECK-SAME:    %[[I:.*]]: tensor<?x?x7xi32>)
// CHECK:         %[[R:.*]] = nd.gather_elements %[[D]][%[[I]]] axis(-1) : tensor<?x5x?xi8>, tensor<?x?x7xi32> -> tensor<?x?x7xi8>
// CHECK:         return %[[R]] : tensor<?x?x7xi8>
func.func @gather_elements_dynamic(%data: tensor<?x5x?xi8>, %indices: tensor<?x?x7xi32>)
    -> tensor<?x?x7xi8> {
  %0 = nd.gather_elements %data[%indices] axis(-1)
      : tensor<?x5x?xi8>, tensor<?x?x7xi32> -> tensor<?x?x7xi8>
  return %0 : tensor<?x?x7xi8>
}

// Along the axis, indices may be longer than data; a result type more or less
// static than the inferred one (the shape of indices) is accepted.
// CHECK-LABEL: func.func @gather_elements_refined_result(
// CHECK-SAME:    %[[D:.*]]: tensor<3x4xf32>,
// CHECK-SAME:    %[[I:.*]]: tensor<8x4xi64>,
// CHECK-SAME:    %[[J:.*]]: tensor<?x?xi64>)
// CHECK:         nd.gather_elements %[[D]][%[[I]]] : tensor<3x4xf32>, tensor<8x4xi64> -> tensor<8x4xf32>
// CHECK:         nd.gather_elements %[[D]][%[[J]]] : tensor<3x4xf32>, tensor<?x?xi64> -> tensor<8x3xf32>
// CHECK:         nd.gather_elements %[[D]][%[[I]]] axis(-2) : tensor<3x4xf32>, tensor<8x4xi64> -> tensor<?x4xf32>
func.func @gather_elements_refined_result(%data: tensor<3x4xf32>, %indices: tensor<8x4xi64>,
                                          %dyn: tensor<?x?xi64>)
    -> (tensor<8x4xf32>, tensor<8x3xf32>, tensor<?x4xf32>) {
  %0 = nd.gather_elements %data[%indices]
      : tensor<3x4xf32>, tensor<8x4xi64> -> tensor<8x4xf32>
  %1 = nd.gather_elements %data[%dyn]
      : tensor<3x4xf32>, tensor<?x?xi64> -> tensor<8x3xf32>
  %2 = nd.gather_elements %data[%indices] axis(-2)
      : tensor<3x4xf32>, tensor<8x4xi64> -> tensor<?x4xf32>
  return %0, %1, %2 : tensor<8x4xf32>, tensor<8x3xf32>, tensor<?x4xf32>
}

//===----------------------------------------------------------------------===//
// Index element types
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @index_element_types(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xf32>, tensor<2x1xindex>, tensor<2x3xf32>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xf32>, tensor<2x1xi32> -> tensor<2x3xf32>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf32>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xf32>, tensor<2x1xindex> -> tensor<2x3xf32>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xf32>, tensor<2x3xindex>, tensor<2x3xf32>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xf32>, tensor<2x3xi32> -> tensor<2x3xf32>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xf32>, tensor<2x3xindex> -> tensor<2x3xf32>
func.func @index_element_types(%data: tensor<4x3xf32>, %slices: tensor<2x3xf32>,
                               %nd32: tensor<2x1xi32>, %nd64: tensor<2x1xi64>,
                               %ndix: tensor<2x1xindex>, %el32: tensor<2x3xi32>,
                               %el64: tensor<2x3xi64>, %elix: tensor<2x3xindex>) {
  %0 = nd.scatter_nd %data[%nd32], %slices : tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>
  %1 = nd.scatter_nd %data[%nd64], %slices : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
  %2 = nd.scatter_nd %data[%ndix], %slices : tensor<4x3xf32>, tensor<2x1xindex>, tensor<2x3xf32>
  %3 = nd.gather_nd %data[%nd32] : tensor<4x3xf32>, tensor<2x1xi32> -> tensor<2x3xf32>
  %4 = nd.gather_nd %data[%nd64] : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf32>
  %5 = nd.gather_nd %data[%ndix] : tensor<4x3xf32>, tensor<2x1xindex> -> tensor<2x3xf32>
  %6 = nd.scatter_elements %data[%el32], %slices : tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>
  %7 = nd.scatter_elements %data[%el64], %slices : tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
  %8 = nd.scatter_elements %data[%elix], %slices : tensor<4x3xf32>, tensor<2x3xindex>, tensor<2x3xf32>
  %9 = nd.gather_elements %data[%el32] : tensor<4x3xf32>, tensor<2x3xi32> -> tensor<2x3xf32>
  %10 = nd.gather_elements %data[%el64] : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  %11 = nd.gather_elements %data[%elix] : tensor<4x3xf32>, tensor<2x3xindex> -> tensor<2x3xf32>
  return
}

//===----------------------------------------------------------------------===//
// Data element types: each op over every element type class
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @element_type_i1(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<4x3xi1>, tensor<2x1xi64>, tensor<2x3xi1>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xi1>, tensor<2x1xi64> -> tensor<2x3xi1>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<mul> : tensor<4x3xi1>, tensor<2x3xi64>, tensor<2x3xi1>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xi1>, tensor<2x3xi64> -> tensor<2x3xi1>
func.func @element_type_i1(%data: tensor<4x3xi1>, %slices: tensor<2x3xi1>,
                           %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<add> : tensor<4x3xi1>, tensor<2x1xi64>, tensor<2x3xi1>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xi1>, tensor<2x1xi64> -> tensor<2x3xi1>
  %2 = nd.scatter_elements %data[%el], %slices reduction<mul> : tensor<4x3xi1>, tensor<2x3xi64>, tensor<2x3xi1>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xi1>, tensor<2x3xi64> -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @element_type_i3(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<max> : tensor<4x3xi3>, tensor<2x1xi64>, tensor<2x3xi3>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xi3>, tensor<2x1xi64> -> tensor<2x3xi3>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<min> : tensor<4x3xi3>, tensor<2x3xi64>, tensor<2x3xi3>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xi3>, tensor<2x3xi64> -> tensor<2x3xi3>
func.func @element_type_i3(%data: tensor<4x3xi3>, %slices: tensor<2x3xi3>,
                           %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<max> : tensor<4x3xi3>, tensor<2x1xi64>, tensor<2x3xi3>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xi3>, tensor<2x1xi64> -> tensor<2x3xi3>
  %2 = nd.scatter_elements %data[%el], %slices reduction<min> : tensor<4x3xi3>, tensor<2x3xi64>, tensor<2x3xi3>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xi3>, tensor<2x3xi64> -> tensor<2x3xi3>
  return
}

// CHECK-LABEL: func.func @element_type_i8(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xi8>, tensor<2x1xi64>, tensor<2x3xi8>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xi8>, tensor<2x1xi64> -> tensor<2x3xi8>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xi8>, tensor<2x3xi64>, tensor<2x3xi8>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xi8>, tensor<2x3xi64> -> tensor<2x3xi8>
func.func @element_type_i8(%data: tensor<4x3xi8>, %slices: tensor<2x3xi8>,
                           %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices : tensor<4x3xi8>, tensor<2x1xi64>, tensor<2x3xi8>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xi8>, tensor<2x1xi64> -> tensor<2x3xi8>
  %2 = nd.scatter_elements %data[%el], %slices : tensor<4x3xi8>, tensor<2x3xi64>, tensor<2x3xi8>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xi8>, tensor<2x3xi64> -> tensor<2x3xi8>
  return
}

// CHECK-LABEL: func.func @element_type_i16(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<mul> : tensor<4x3xi16>, tensor<2x1xi64>, tensor<2x3xi16>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xi16>, tensor<2x1xi64> -> tensor<2x3xi16>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<4x3xi16>, tensor<2x3xi64>, tensor<2x3xi16>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xi16>, tensor<2x3xi64> -> tensor<2x3xi16>
func.func @element_type_i16(%data: tensor<4x3xi16>, %slices: tensor<2x3xi16>,
                            %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<mul> : tensor<4x3xi16>, tensor<2x1xi64>, tensor<2x3xi16>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xi16>, tensor<2x1xi64> -> tensor<2x3xi16>
  %2 = nd.scatter_elements %data[%el], %slices reduction<add> : tensor<4x3xi16>, tensor<2x3xi64>, tensor<2x3xi16>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xi16>, tensor<2x3xi64> -> tensor<2x3xi16>
  return
}

// CHECK-LABEL: func.func @element_type_i64(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<min> : tensor<4x3xi64>, tensor<2x1xi32>, tensor<2x3xi64>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xi64>, tensor<2x1xi32> -> tensor<2x3xi64>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<max> : tensor<4x3xi64>, tensor<2x3xi32>, tensor<2x3xi64>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xi64>, tensor<2x3xi32> -> tensor<2x3xi64>
func.func @element_type_i64(%data: tensor<4x3xi64>, %slices: tensor<2x3xi64>,
                            %nd: tensor<2x1xi32>, %el: tensor<2x3xi32>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<min> : tensor<4x3xi64>, tensor<2x1xi32>, tensor<2x3xi64>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xi64>, tensor<2x1xi32> -> tensor<2x3xi64>
  %2 = nd.scatter_elements %data[%el], %slices reduction<max> : tensor<4x3xi64>, tensor<2x3xi32>, tensor<2x3xi64>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xi64>, tensor<2x3xi32> -> tensor<2x3xi64>
  return
}

// CHECK-LABEL: func.func @element_type_ui8(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<max> : tensor<4x3xui8>, tensor<2x1xi64>, tensor<2x3xui8>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xui8>, tensor<2x1xi64> -> tensor<2x3xui8>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<min> : tensor<4x3xui8>, tensor<2x3xi64>, tensor<2x3xui8>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xui8>, tensor<2x3xi64> -> tensor<2x3xui8>
func.func @element_type_ui8(%data: tensor<4x3xui8>, %slices: tensor<2x3xui8>,
                            %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<max> : tensor<4x3xui8>, tensor<2x1xi64>, tensor<2x3xui8>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xui8>, tensor<2x1xi64> -> tensor<2x3xui8>
  %2 = nd.scatter_elements %data[%el], %slices reduction<min> : tensor<4x3xui8>, tensor<2x3xi64>, tensor<2x3xui8>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xui8>, tensor<2x3xi64> -> tensor<2x3xui8>
  return
}

// CHECK-LABEL: func.func @element_type_ui16(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xui16>, tensor<2x1xi64>, tensor<2x3xui16>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xui16>, tensor<2x1xi64> -> tensor<2x3xui16>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xui16>, tensor<2x3xi64>, tensor<2x3xui16>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xui16>, tensor<2x3xi64> -> tensor<2x3xui16>
func.func @element_type_ui16(%data: tensor<4x3xui16>, %slices: tensor<2x3xui16>,
                             %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices : tensor<4x3xui16>, tensor<2x1xi64>, tensor<2x3xui16>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xui16>, tensor<2x1xi64> -> tensor<2x3xui16>
  %2 = nd.scatter_elements %data[%el], %slices : tensor<4x3xui16>, tensor<2x3xi64>, tensor<2x3xui16>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xui16>, tensor<2x3xi64> -> tensor<2x3xui16>
  return
}

// CHECK-LABEL: func.func @element_type_ui32(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<4x3xui32>, tensor<2x1xi64>, tensor<2x3xui32>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xui32>, tensor<2x1xi64> -> tensor<2x3xui32>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<mul> : tensor<4x3xui32>, tensor<2x3xi64>, tensor<2x3xui32>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xui32>, tensor<2x3xi64> -> tensor<2x3xui32>
func.func @element_type_ui32(%data: tensor<4x3xui32>, %slices: tensor<2x3xui32>,
                             %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<add> : tensor<4x3xui32>, tensor<2x1xi64>, tensor<2x3xui32>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xui32>, tensor<2x1xi64> -> tensor<2x3xui32>
  %2 = nd.scatter_elements %data[%el], %slices reduction<mul> : tensor<4x3xui32>, tensor<2x3xi64>, tensor<2x3xui32>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xui32>, tensor<2x3xi64> -> tensor<2x3xui32>
  return
}

// CHECK-LABEL: func.func @element_type_ui64(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<min> : tensor<4x3xui64>, tensor<2x1xi64>, tensor<2x3xui64>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xui64>, tensor<2x1xi64> -> tensor<2x3xui64>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<max> : tensor<4x3xui64>, tensor<2x3xi64>, tensor<2x3xui64>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xui64>, tensor<2x3xi64> -> tensor<2x3xui64>
func.func @element_type_ui64(%data: tensor<4x3xui64>, %slices: tensor<2x3xui64>,
                             %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<min> : tensor<4x3xui64>, tensor<2x1xi64>, tensor<2x3xui64>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xui64>, tensor<2x1xi64> -> tensor<2x3xui64>
  %2 = nd.scatter_elements %data[%el], %slices reduction<max> : tensor<4x3xui64>, tensor<2x3xi64>, tensor<2x3xui64>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xui64>, tensor<2x3xi64> -> tensor<2x3xui64>
  return
}

// CHECK-LABEL: func.func @element_type_f16(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<max> : tensor<4x3xf16>, tensor<2x1xi64>, tensor<2x3xf16>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xf16>, tensor<2x1xi64> -> tensor<2x3xf16>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<min> : tensor<4x3xf16>, tensor<2x3xi64>, tensor<2x3xf16>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xf16>, tensor<2x3xi64> -> tensor<2x3xf16>
func.func @element_type_f16(%data: tensor<4x3xf16>, %slices: tensor<2x3xf16>,
                            %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<max> : tensor<4x3xf16>, tensor<2x1xi64>, tensor<2x3xf16>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xf16>, tensor<2x1xi64> -> tensor<2x3xf16>
  %2 = nd.scatter_elements %data[%el], %slices reduction<min> : tensor<4x3xf16>, tensor<2x3xi64>, tensor<2x3xf16>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xf16>, tensor<2x3xi64> -> tensor<2x3xf16>
  return
}

// CHECK-LABEL: func.func @element_type_bf16(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<4x3xbf16>, tensor<2x1xi64>, tensor<2x3xbf16>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xbf16>, tensor<2x1xi64> -> tensor<2x3xbf16>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<mul> : tensor<4x3xbf16>, tensor<2x3xi64>, tensor<2x3xbf16>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xbf16>, tensor<2x3xi64> -> tensor<2x3xbf16>
func.func @element_type_bf16(%data: tensor<4x3xbf16>, %slices: tensor<2x3xbf16>,
                             %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<add> : tensor<4x3xbf16>, tensor<2x1xi64>, tensor<2x3xbf16>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xbf16>, tensor<2x1xi64> -> tensor<2x3xbf16>
  %2 = nd.scatter_elements %data[%el], %slices reduction<mul> : tensor<4x3xbf16>, tensor<2x3xi64>, tensor<2x3xbf16>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xbf16>, tensor<2x3xi64> -> tensor<2x3xbf16>
  return
}

// CHECK-LABEL: func.func @element_type_f32(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<min> : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf32>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<max> : tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
func.func @element_type_f32(%data: tensor<4x3xf32>, %slices: tensor<2x3xf32>,
                            %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<min> : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf32>
  %2 = nd.scatter_elements %data[%el], %slices reduction<max> : tensor<4x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xf32>, tensor<2x3xi64> -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @element_type_f64(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<mul> : tensor<4x3xf64>, tensor<2x1xi64>, tensor<2x3xf64>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xf64>, tensor<2x1xi64> -> tensor<2x3xf64>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<4x3xf64>, tensor<2x3xi64>, tensor<2x3xf64>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xf64>, tensor<2x3xi64> -> tensor<2x3xf64>
func.func @element_type_f64(%data: tensor<4x3xf64>, %slices: tensor<2x3xf64>,
                            %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<mul> : tensor<4x3xf64>, tensor<2x1xi64>, tensor<2x3xf64>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xf64>, tensor<2x1xi64> -> tensor<2x3xf64>
  %2 = nd.scatter_elements %data[%el], %slices reduction<add> : tensor<4x3xf64>, tensor<2x3xi64>, tensor<2x3xf64>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xf64>, tensor<2x3xi64> -> tensor<2x3xf64>
  return
}

// Complex numbers have no order, but none, add and mul are defined.
// CHECK-LABEL: func.func @element_type_complex_f32(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<4x3xcomplex<f32>>, tensor<2x1xi64>, tensor<2x3xcomplex<f32>>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xcomplex<f32>>, tensor<2x1xi64> -> tensor<2x3xcomplex<f32>>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<mul> : tensor<4x3xcomplex<f32>>, tensor<2x3xi64>, tensor<2x3xcomplex<f32>>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xcomplex<f32>>, tensor<2x3xi64> -> tensor<2x3xcomplex<f32>>
func.func @element_type_complex_f32(%data: tensor<4x3xcomplex<f32>>, %slices: tensor<2x3xcomplex<f32>>,
                                    %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<add> : tensor<4x3xcomplex<f32>>, tensor<2x1xi64>, tensor<2x3xcomplex<f32>>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xcomplex<f32>>, tensor<2x1xi64> -> tensor<2x3xcomplex<f32>>
  %2 = nd.scatter_elements %data[%el], %slices reduction<mul> : tensor<4x3xcomplex<f32>>, tensor<2x3xi64>, tensor<2x3xcomplex<f32>>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xcomplex<f32>>, tensor<2x3xi64> -> tensor<2x3xcomplex<f32>>
  return
}

// CHECK-LABEL: func.func @element_type_complex_f64(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<mul> : tensor<4x3xcomplex<f64>>, tensor<2x1xi64>, tensor<2x3xcomplex<f64>>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x3xcomplex<f64>>, tensor<2x1xi64> -> tensor<2x3xcomplex<f64>>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xcomplex<f64>>, tensor<2x3xi64>, tensor<2x3xcomplex<f64>>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<4x3xcomplex<f64>>, tensor<2x3xi64> -> tensor<2x3xcomplex<f64>>
func.func @element_type_complex_f64(%data: tensor<4x3xcomplex<f64>>, %slices: tensor<2x3xcomplex<f64>>,
                                    %nd: tensor<2x1xi64>, %el: tensor<2x3xi64>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<mul> : tensor<4x3xcomplex<f64>>, tensor<2x1xi64>, tensor<2x3xcomplex<f64>>
  %1 = nd.gather_nd %data[%nd] : tensor<4x3xcomplex<f64>>, tensor<2x1xi64> -> tensor<2x3xcomplex<f64>>
  %2 = nd.scatter_elements %data[%el], %slices : tensor<4x3xcomplex<f64>>, tensor<2x3xi64>, tensor<2x3xcomplex<f64>>
  %3 = nd.gather_elements %data[%el] : tensor<4x3xcomplex<f64>>, tensor<2x3xi64> -> tensor<2x3xcomplex<f64>>
  return
}

//===----------------------------------------------------------------------===//
// Generic form input
//===----------------------------------------------------------------------===//

// Attributes written as properties in the generic form parse, verify and
// print in the custom form; absent ones take their defaults.
// CHECK-LABEL: func.func @generic_form(
// CHECK-SAME:    %[[D:.*]]: tensor<2x3x2xi32>,
// CHECK-SAME:    %[[I:.*]]: tensor<2x1xi64>,
// CHECK-SAME:    %[[S:.*]]: tensor<3x1xi64>,
// CHECK-SAME:    %[[U:.*]]: tensor<3x3x2xi32>,
// CHECK-SAME:    %[[E:.*]]: tensor<2x3x1xi64>,
// CHECK-SAME:    %[[F:.*]]: tensor<2x3x1xi32>)
// CHECK:         nd.gather_nd %[[D]][%[[I]]] batch_dims(1) : tensor<2x3x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
// CHECK:         nd.gather_nd %[[D]][%[[I]]] : tensor<2x3x2xi32>, tensor<2x1xi64> -> tensor<2x3x2xi32>
// CHECK:         nd.scatter_nd %[[D]][%[[S]]], %[[U]] reduction<mul> : tensor<2x3x2xi32>, tensor<3x1xi64>, tensor<3x3x2xi32>
// CHECK:         nd.scatter_nd %[[D]][%[[S]]], %[[U]] : tensor<2x3x2xi32>, tensor<3x1xi64>, tensor<3x3x2xi32>
// CHECK:         nd.scatter_elements %[[D]][%[[E]]], %[[F]] axis(-1) reduction<min> : tensor<2x3x2xi32>, tensor<2x3x1xi64>, tensor<2x3x1xi32>
// CHECK:         nd.scatter_elements %[[D]][%[[E]]], %[[F]] : tensor<2x3x2xi32>, tensor<2x3x1xi64>, tensor<2x3x1xi32>
// CHECK:         nd.gather_elements %[[D]][%[[E]]] axis(2) : tensor<2x3x2xi32>, tensor<2x3x1xi64> -> tensor<2x3x1xi32>
// CHECK:         nd.gather_elements %[[D]][%[[E]]] : tensor<2x3x2xi32>, tensor<2x3x1xi64> -> tensor<2x3x1xi32>
func.func @generic_form(%data: tensor<2x3x2xi32>, %indices: tensor<2x1xi64>,
                        %sindices: tensor<3x1xi64>, %updates: tensor<3x3x2xi32>,
                        %el: tensor<2x3x1xi64>,
                        %elupdates: tensor<2x3x1xi32>) {
  %0 = "nd.gather_nd"(%data, %indices) <{batch_dims = 1 : i64}>
      : (tensor<2x3x2xi32>, tensor<2x1xi64>) -> tensor<2x2xi32>
  %1 = "nd.gather_nd"(%data, %indices)
      : (tensor<2x3x2xi32>, tensor<2x1xi64>) -> tensor<2x3x2xi32>
  %2 = "nd.scatter_nd"(%data, %sindices, %updates) <{reduction = #nd.reduction<mul>}>
      : (tensor<2x3x2xi32>, tensor<3x1xi64>, tensor<3x3x2xi32>) -> tensor<2x3x2xi32>
  %3 = "nd.scatter_nd"(%data, %sindices, %updates)
      : (tensor<2x3x2xi32>, tensor<3x1xi64>, tensor<3x3x2xi32>) -> tensor<2x3x2xi32>
  %4 = "nd.scatter_elements"(%data, %el, %elupdates)
      <{axis = -1 : i64, reduction = #nd.reduction<min>}>
      : (tensor<2x3x2xi32>, tensor<2x3x1xi64>, tensor<2x3x1xi32>) -> tensor<2x3x2xi32>
  %5 = "nd.scatter_elements"(%data, %el, %elupdates)
      : (tensor<2x3x2xi32>, tensor<2x3x1xi64>, tensor<2x3x1xi32>) -> tensor<2x3x2xi32>
  %6 = "nd.gather_elements"(%data, %el) <{axis = 2 : i64}>
      : (tensor<2x3x2xi32>, tensor<2x3x1xi64>) -> tensor<2x3x1xi32>
  %7 = "nd.gather_elements"(%data, %el)
      : (tensor<2x3x2xi32>, tensor<2x3x1xi64>) -> tensor<2x3x1xi32>
  return
}

//===----------------------------------------------------------------------===//
// Constant indices
//===----------------------------------------------------------------------===//

// Constant index values are checked at compile time against static dims
// only: 7 addresses a dynamic dim and is left to the run-time check; -4 is
// the first row of 4.
// CHECK-LABEL: func.func @constant_indices(
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] : tensor<?xf32>, tensor<2xi64> -> tensor<2xf32>
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xf32>, tensor<1x1xi64>, tensor<1x3xf32>
func.func @constant_indices(%dynamic: tensor<?xf32>, %data: tensor<4x3xf32>,
                            %updates: tensor<1x3xf32>) -> (tensor<2xf32>, tensor<4x3xf32>) {
  %i0 = arith.constant dense<[0, 7]> : tensor<2xi64>
  %0 = nd.gather_elements %dynamic[%i0] : tensor<?xf32>, tensor<2xi64> -> tensor<2xf32>
  %i1 = arith.constant dense<[[-4]]> : tensor<1x1xi64>
  %1 = nd.scatter_nd %data[%i1], %updates : tensor<4x3xf32>, tensor<1x1xi64>, tensor<1x3xf32>
  return %0, %1 : tensor<2xf32>, tensor<4x3xf32>
}

//===----------------------------------------------------------------------===//
// OpenVINO's reductions and use_init_val, out-of-bounds modes
//===----------------------------------------------------------------------===//

// reduction<sub> (ScatterNDUpdate-15) on scatter_nd; reduction<mean> and
// use_init_val (ScatterElementsUpdate-12) on scatter_elements; the defaults
// axis(0), use_init_val(true) and oob<error> are elided; use_init_val(false)
// under reduction none is kept (it has no effect there).
// CHECK-LABEL: func.func @openvino_reductions(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<sub> : tensor<4xi32>, tensor<5x1xi32>, tensor<5xi32>
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<sub> : tensor<4xi1>, tensor<5x1xi32>, tensor<5xi1>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<mean> : tensor<4xf32>, tensor<6xi64>, tensor<6xf32>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<add> use_init_val(false) : tensor<4xf32>, tensor<6xi64>, tensor<6xf32>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} reduction<mean> use_init_val(false) : tensor<4xui8>, tensor<6xi64>, tensor<6xui8>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} use_init_val(false) : tensor<4xf32>, tensor<6xi64>, tensor<6xf32>
func.func @openvino_reductions(%d: tensor<4xi32>, %i: tensor<5x1xi32>, %u: tensor<5xi32>,
                               %b: tensor<4xi1>, %bu: tensor<5xi1>,
                               %f: tensor<4xf32>, %e: tensor<6xi64>, %fu: tensor<6xf32>,
                               %ui: tensor<4xui8>, %uu: tensor<6xui8>) {
  %0 = nd.scatter_nd %d[%i], %u reduction<sub> : tensor<4xi32>, tensor<5x1xi32>, tensor<5xi32>
  %1 = nd.scatter_nd %b[%i], %bu reduction<sub> : tensor<4xi1>, tensor<5x1xi32>, tensor<5xi1>
  %2 = nd.scatter_elements %f[%e], %fu reduction<mean> use_init_val(true)
      : tensor<4xf32>, tensor<6xi64>, tensor<6xf32>
  %3 = nd.scatter_elements %f[%e], %fu reduction<add> use_init_val(false)
      : tensor<4xf32>, tensor<6xi64>, tensor<6xf32>
  %4 = "nd.scatter_elements"(%ui, %e, %uu) <{axis = 0 : i64, reduction = #nd.reduction<mean>, use_init_val = false, oob = #nd.oob<error>}>
      : (tensor<4xui8>, tensor<6xi64>, tensor<6xui8>) -> tensor<4xui8>
  %5 = nd.scatter_elements %f[%e], %fu use_init_val(false) : tensor<4xf32>, tensor<6xi64>, tensor<6xf32>
  return
}

// Every op takes oob<error|skip|clamp>; oob<error> is the default.
// CHECK-LABEL: func.func @oob_modes(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<add> oob<skip> : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} oob<clamp> : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] oob<skip> : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf32>
// CHECK:         nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} axis(1) oob<clamp> : tensor<4x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
// CHECK:         nd.gather_elements %{{.*}}[%{{.*}}] axis(1) oob<skip> : tensor<4x3xf32>, tensor<4x3xi64> -> tensor<4x3xf32>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] oob<clamp> : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x1x3xf32>
// CHECK:         nd.tensor_scatter %{{.*}}[%{{.*}}], %{{.*}} axis(1) oob<skip> : tensor<4x3xf32>[tensor<4xi64>], tensor<4x1xf32>
func.func @oob_modes(%data: tensor<4x3xf32>, %nd: tensor<2x1xi64>, %slices: tensor<2x3xf32>,
                     %el: tensor<4x3xi64>, %w: tensor<4xi64>, %u: tensor<4x1xf32>) {
  %0 = nd.scatter_nd %data[%nd], %slices reduction<add> oob<skip>
      : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
  %1 = nd.scatter_nd %data[%nd], %slices oob<clamp> : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
  %2 = nd.scatter_nd %data[%nd], %slices oob<error> : tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>
  %3 = nd.gather_nd %data[%nd] oob<skip> : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x3xf32>
  %4 = nd.scatter_elements %data[%el], %data axis(1) oob<clamp>
      : tensor<4x3xf32>, tensor<4x3xi64>, tensor<4x3xf32>
  %5 = nd.gather_elements %data[%el] axis(1) oob<skip> : tensor<4x3xf32>, tensor<4x3xi64> -> tensor<4x3xf32>
  %6 = nd.gather %data[%nd] oob<clamp> : tensor<4x3xf32>, tensor<2x1xi64> -> tensor<2x1x3xf32>
  %7 = nd.tensor_scatter %data[%w], %u axis(1) oob<skip> : tensor<4x3xf32>[tensor<4xi64>], tensor<4x1xf32>
  return
}

// Under skip and clamp a constant index out of range has a meaning: no
// compile-time error.
// CHECK-LABEL: func.func @oob_constant_indices(
// CHECK:         nd.gather %{{.*}}[%{{.*}}] oob<skip> : tensor<5xi32>, tensor<3xi64> -> tensor<3xi32>
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} oob<clamp> : tensor<5xi32>, tensor<3x1xi64>, tensor<3xi32>
func.func @oob_constant_indices(%data: tensor<5xi32>, %u: tensor<3xi32>) -> (tensor<3xi32>, tensor<5xi32>) {
  %i = arith.constant dense<[3, 10, -20]> : tensor<3xi64>
  %0 = nd.gather %data[%i] oob<skip> : tensor<5xi32>, tensor<3xi64> -> tensor<3xi32>
  %j = arith.constant dense<[[3], [10], [-20]]> : tensor<3x1xi64>
  %1 = nd.scatter_nd %data[%j], %u oob<clamp> : tensor<5xi32>, tensor<3x1xi64>, tensor<3xi32>
  return %0, %1 : tensor<3xi32>, tensor<5xi32>
}

//===----------------------------------------------------------------------===//
// Dynamic index depth
//===----------------------------------------------------------------------===//

// indices.shape[-1] dynamic: the ranks give k (scatter_nd: 2 - 1 + 2 - 1 =
// 2; 2 - 1 + 2 - 2 = 1; gather_nd: 3 - 1 + 3 - 0 - 3 = 2, and with
// batch_dims(1): 2 - 1 + 3 - 1 - 2 = 1).
// CHECK-LABEL: func.func @dynamic_index_depth(
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<4x3xf32>, tensor<2x?xi64>, tensor<2xf32>
// CHECK:         nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : tensor<4x3xf32>, tensor<?x?xi32>, tensor<?x3xf32>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] : tensor<4x5x6xf32>, tensor<3x2x?xi64> -> tensor<3x2x6xf32>
// CHECK:         nd.gather_nd %{{.*}}[%{{.*}}] batch_dims(1) : tensor<4x5x6xf32>, tensor<4x?xindex> -> tensor<4x6xf32>
func.func @dynamic_index_depth(%data: tensor<4x3xf32>, %i: tensor<2x?xi64>, %u: tensor<2xf32>,
                               %j: tensor<?x?xi32>, %v: tensor<?x3xf32>,
                               %d3: tensor<4x5x6xf32>, %k: tensor<3x2x?xi64>, %b: tensor<4x?xindex>) {
  %0 = nd.scatter_nd %data[%i], %u : tensor<4x3xf32>, tensor<2x?xi64>, tensor<2xf32>
  %1 = nd.scatter_nd %data[%j], %v reduction<add> : tensor<4x3xf32>, tensor<?x?xi32>, tensor<?x3xf32>
  %2 = nd.gather_nd %d3[%k] : tensor<4x5x6xf32>, tensor<3x2x?xi64> -> tensor<3x2x6xf32>
  %3 = nd.gather_nd %d3[%b] batch_dims(1) : tensor<4x5x6xf32>, tensor<4x?xindex> -> tensor<4x6xf32>
  return
}

//===----------------------------------------------------------------------===//
// nd.gather
//===----------------------------------------------------------------------===//

// ONNX Gather examples (axis 0, axis 1), 0-D indices, negative axis.
// CHECK-LABEL: func.func @gather_onnx(
// CHECK:         nd.gather %{{.*}}[%{{.*}}] : tensor<3x2xf32>, tensor<2x2xi64> -> tensor<2x2x2xf32>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(1) : tensor<3x3xf32>, tensor<1x2xi32> -> tensor<3x1x2xf32>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(-1) : tensor<3x3xf32>, tensor<i64> -> tensor<3xf32>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] : tensor<3x2xf32>, tensor<2x2xi64> -> tensor<2x2x2xf32>
func.func @gather_onnx(%d0: tensor<3x2xf32>, %i0: tensor<2x2xi64>, %d1: tensor<3x3xf32>,
                       %i1: tensor<1x2xi32>, %s: tensor<i64>) {
  %0 = nd.gather %d0[%i0] : tensor<3x2xf32>, tensor<2x2xi64> -> tensor<2x2x2xf32>
  %1 = nd.gather %d1[%i1] axis(1) : tensor<3x3xf32>, tensor<1x2xi32> -> tensor<3x1x2xf32>
  %2 = nd.gather %d1[%s] axis(-1) : tensor<3x3xf32>, tensor<i64> -> tensor<3xf32>
  %3 = "nd.gather"(%d0, %i0) <{axis = 0 : i64, batch_dims = 0 : i64, oob = #nd.oob<error>}>
      : (tensor<3x2xf32>, tensor<2x2xi64>) -> tensor<2x2x2xf32>
  return
}

// OpenVINO Gather-8: batch_dims (examples 2, 3, 4), and the example layer
// (data 2x64x128, indices 2x32x21, axis 1, batch_dims 1).
// CHECK-LABEL: func.func @gather_batch_dims(
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(1) batch_dims(1) : tensor<2x5xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(2) batch_dims(2) : tensor<2x2x5xi32>, tensor<2x2x3xi32> -> tensor<2x2x3xi32>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(2) batch_dims(1) : tensor<2x1x5x4xi32>, tensor<2x3xi32> -> tensor<2x1x3x4xi32>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(1) batch_dims(1) oob<skip> : tensor<2x64x128xf32>, tensor<2x32x21xi64> -> tensor<2x32x21x128xf32>
func.func @gather_batch_dims(%d2: tensor<2x5xi32>, %i2: tensor<2x3xi32>, %d3: tensor<2x2x5xi32>,
                             %i3: tensor<2x2x3xi32>, %d4: tensor<2x1x5x4xi32>,
                             %d: tensor<2x64x128xf32>, %i: tensor<2x32x21xi64>) {
  %0 = nd.gather %d2[%i2] axis(1) batch_dims(1) : tensor<2x5xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  %1 = nd.gather %d3[%i3] axis(2) batch_dims(2) : tensor<2x2x5xi32>, tensor<2x2x3xi32> -> tensor<2x2x3xi32>
  %2 = nd.gather %d4[%i2] axis(2) batch_dims(1) : tensor<2x1x5x4xi32>, tensor<2x3xi32> -> tensor<2x1x3x4xi32>
  %3 = nd.gather %d[%i] axis(1) batch_dims(1) oob<skip>
      : tensor<2x64x128xf32>, tensor<2x32x21xi64> -> tensor<2x32x21x128xf32>
  return
}

// Dynamic dims; a batch dim that data leaves dynamic takes its size from
// indices (inferred tensor<3x?x4xf32>), and a result more or less static
// than the inferred one; batch_dims == rank(indices) (one index per batch).
// CHECK-LABEL: func.func @gather_dynamic(
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(1) batch_dims(1) : tensor<?x5x4xf16>, tensor<3x?xindex> -> tensor<3x?x4xf16>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(1) batch_dims(1) : tensor<?x5x4xf16>, tensor<3x?xindex> -> tensor<3x7x4xf16>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(1) batch_dims(1) : tensor<?x5x4xf16>, tensor<3x?xindex> -> tensor<?x?x?xf16>
// CHECK:         nd.gather %{{.*}}[%{{.*}}] axis(1) batch_dims(1) : tensor<?x5x4xf16>, tensor<?xi64> -> tensor<?x4xf16>
func.func @gather_dynamic(%d: tensor<?x5x4xf16>, %i: tensor<3x?xindex>, %one: tensor<?xi64>) {
  %0 = nd.gather %d[%i] axis(1) batch_dims(1) : tensor<?x5x4xf16>, tensor<3x?xindex> -> tensor<3x?x4xf16>
  %1 = nd.gather %d[%i] axis(1) batch_dims(1) : tensor<?x5x4xf16>, tensor<3x?xindex> -> tensor<3x7x4xf16>
  %2 = nd.gather %d[%i] axis(1) batch_dims(1) : tensor<?x5x4xf16>, tensor<3x?xindex> -> tensor<?x?x?xf16>
  %3 = nd.gather %d[%one] axis(1) batch_dims(1) : tensor<?x5x4xf16>, tensor<?xi64> -> tensor<?x4xf16>
  return
}

//===----------------------------------------------------------------------===//
// nd.tensor_scatter
//===----------------------------------------------------------------------===//

// ONNX TensorScatter: linear with write indices, circular, default axis -2
// elided, an explicit axis, no write indices (the prefill), dynamic dims.
// CHECK-LABEL: func.func @tensor_scatter(
// CHECK:         nd.tensor_scatter %{{.*}}[%{{.*}}], %{{.*}} : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x1x5xf32>
// CHECK:         nd.tensor_scatter %{{.*}}[%{{.*}}], %{{.*}} mode<circular> : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x2x5xf32>
// CHECK:         nd.tensor_scatter %{{.*}}, %{{.*}} axis(1) : tensor<1x8x16xf16>, tensor<1x3x16xf16>
// CHECK:         nd.tensor_scatter %{{.*}}, %{{.*}} : tensor<2x1x4x5xf32>, tensor<2x1x1x5xf32>
// CHECK:         nd.tensor_scatter %{{.*}}[%{{.*}}], %{{.*}} axis(1) mode<circular> oob<clamp> : tensor<?x?x8xbf16>[tensor<?xi32>], tensor<?x?x8xbf16>
func.func @tensor_scatter(%past: tensor<2x1x4x5xf32>, %w: tensor<2xi64>, %u1: tensor<2x1x1x5xf32>,
                          %u2: tensor<2x1x2x5xf32>, %cache: tensor<1x8x16xf16>,
                          %prompt: tensor<1x3x16xf16>, %dc: tensor<?x?x8xbf16>, %dw: tensor<?xi32>,
                          %du: tensor<?x?x8xbf16>) {
  %0 = nd.tensor_scatter %past[%w], %u1 : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x1x5xf32>
  %1 = nd.tensor_scatter %past[%w], %u2 axis(-2) mode<circular>
      : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x2x5xf32>
  %2 = nd.tensor_scatter %cache, %prompt axis(1) mode<linear> : tensor<1x8x16xf16>, tensor<1x3x16xf16>
  %3 = "nd.tensor_scatter"(%past, %u1) <{axis = -2 : i64, mode = #nd.tensor_scatter_mode<linear>, oob = #nd.oob<error>}>
      : (tensor<2x1x4x5xf32>, tensor<2x1x1x5xf32>) -> tensor<2x1x4x5xf32>
  %4 = nd.tensor_scatter %dc[%dw], %du axis(1) mode<circular> oob<clamp>
      : tensor<?x?x8xbf16>[tensor<?xi32>], tensor<?x?x8xbf16>
  return
}
