// RUN: nd-opt %s --canonicalize --split-input-file | FileCheck %s

// Folding and canonicalization of the nd ops. Expected constants are worked
// by hand from the ONNX and OpenVINO specification examples. An op is never
// folded away while a run-time check of its indices or of a dynamic shape
// could still fail.

//===----------------------------------------------------------------------===//
// Nothing written, nothing read
//===----------------------------------------------------------------------===//

// No index tuple: the scatter is its data, whatever the indices operand.
// CHECK-LABEL: func.func @scatter_nd_no_tuples(
// CHECK-SAME:    %[[D:.*]]: tensor<4x3xf32>,
// CHECK-NOT:     nd.scatter_nd
// CHECK:         return %[[D]]
func.func @scatter_nd_no_tuples(%data: tensor<4x3xf32>, %indices: tensor<0x1xi64>,
                                %updates: tensor<0x3xf32>) -> tensor<4x3xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x3xf32>, tensor<0x1xi64>, tensor<0x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// Empty slices but two tuples whose values are unknown: the run-time index
// check is still needed, the op stays.
// CHECK-LABEL: func.func @scatter_nd_empty_slices_unknown_indices(
// CHECK:         %[[R:.*]] = nd.scatter_nd
// CHECK:         return %[[R]]
func.func @scatter_nd_empty_slices_unknown_indices(
    %data: tensor<3x0xf32>, %indices: tensor<2x1xi64>,
    %updates: tensor<2x0xf32>) -> tensor<3x0xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<3x0xf32>, tensor<2x1xi64>, tensor<2x0xf32>
  return %0 : tensor<3x0xf32>
}

// -----

// Empty slices at constant indices in range: nothing to check, nothing
// written.
// CHECK-LABEL: func.func @scatter_nd_empty_slices_constant_indices(
// CHECK-SAME:    %[[D:.*]]: tensor<3x0xf32>,
// CHECK-NOT:     nd.scatter_nd
// CHECK:         return %[[D]]
func.func @scatter_nd_empty_slices_constant_indices(
    %data: tensor<3x0xf32>, %updates: tensor<2x0xf32>) -> tensor<3x0xf32> {
  %indices = arith.constant dense<[[2], [-3]]> : tensor<2x1xi64>
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<3x0xf32>, tensor<2x1xi64>, tensor<2x0xf32>
  return %0 : tensor<3x0xf32>
}

// -----

// No tuple, but updates dim 0 is dynamic: its run-time check against the
// indices dim (0) is still needed, the op stays.
// CHECK-LABEL: func.func @scatter_nd_no_tuples_dynamic_updates(
// CHECK:         nd.scatter_nd
func.func @scatter_nd_no_tuples_dynamic_updates(
    %data: tensor<4x3xf32>, %indices: tensor<0x1xi64>,
    %updates: tensor<?x3xf32>) -> tensor<4x3xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates
      : tensor<4x3xf32>, tensor<0x1xi64>, tensor<?x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// No index: the scatter is its data (its dim along the axis may be dynamic:
// no rule compares it).
// CHECK-LABEL: func.func @scatter_elements_no_indices(
// CHECK-SAME:    %[[D:.*]]: tensor<4x?xi8>,
// CHECK-NOT:     nd.scatter_elements
// CHECK:         return %[[D]]
func.func @scatter_elements_no_indices(%data: tensor<4x?xi8>, %indices: tensor<2x0xi32>,
                                       %updates: tensor<2x0xi8>) -> tensor<4x?xi8> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<add>
      : tensor<4x?xi8>, tensor<2x0xi32>, tensor<2x0xi8>
  return %0 : tensor<4x?xi8>
}

// -----

// The same with a dynamic data dim off the axis: indices dim 0 (2) must not
// exceed it, a run-time check that keeps the op.
// CHECK-LABEL: func.func @scatter_elements_no_indices_bound_check(
// CHECK:         nd.scatter_elements
func.func @scatter_elements_no_indices_bound_check(
    %data: tensor<?x3xi8>, %indices: tensor<2x0xi32>,
    %updates: tensor<2x0xi8>) -> tensor<?x3xi8> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1)
      : tensor<?x3xi8>, tensor<2x0xi32>, tensor<2x0xi8>
  return %0 : tensor<?x3xi8>
}

// -----

// No index tuple: an empty constant of the result type.
// CHECK-LABEL: func.func @gather_nd_no_tuples(
// CHECK:         %[[E:.*]] = arith.constant dense<> : tensor<0x3xf32>
// CHECK-NOT:     nd.gather_nd
// CHECK:         return %[[E]]
func.func @gather_nd_no_tuples(%data: tensor<?x3xf32>, %indices: tensor<0x1xi32>)
    -> tensor<0x3xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<?x3xf32>, tensor<0x1xi32> -> tensor<0x3xf32>
  return %0 : tensor<0x3xf32>
}

// -----

// No index tuple, a dynamic result dim: a tensor.empty of the reified shape.
// CHECK-LABEL: func.func @gather_nd_no_tuples_dynamic(
// CHECK-SAME:    %[[D:.*]]: tensor<4x?xf32>,
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK:         %[[DIM:.*]] = tensor.dim %[[D]], %[[C1]]
// CHECK:         %[[E:.*]] = tensor.empty(%[[DIM]]) : tensor<0x?xf32>
// CHECK-NOT:     nd.gather_nd
// CHECK:         return %[[E]]
func.func @gather_nd_no_tuples_dynamic(%data: tensor<4x?xf32>, %indices: tensor<0x1xi32>)
    -> tensor<0x?xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<4x?xf32>, tensor<0x1xi32> -> tensor<0x?xf32>
  return %0 : tensor<0x?xf32>
}

// -----

// An empty result, but the indices hold two unknown values: the op stays.
// CHECK-LABEL: func.func @gather_nd_empty_slices_unknown_indices(
// CHECK:         nd.gather_nd
func.func @gather_nd_empty_slices_unknown_indices(%data: tensor<4x0xf32>, %indices: tensor<2x1xi32>)
    -> tensor<2x0xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<4x0xf32>, tensor<2x1xi32> -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

// -----

// CHECK-LABEL: func.func @gather_elements_no_indices(
// CHECK:         %[[E:.*]] = arith.constant dense<> : tensor<3x0xi64>
// CHECK:         return %[[E]]
func.func @gather_elements_no_indices(%data: tensor<3x5xi64>, %indices: tensor<3x0xindex>)
    -> tensor<3x0xi64> {
  %0 = nd.gather_elements %data[%indices] axis(1)
      : tensor<3x5xi64>, tensor<3x0xindex> -> tensor<3x0xi64>
  return %0 : tensor<3x0xi64>
}

// -----

// The batch dim of indices is dynamic and must equal data's 2 at run time:
// the op stays although the result is empty.
// CHECK-LABEL: func.func @gather_nd_no_tuples_batch_check(
// CHECK:         nd.gather_nd
func.func @gather_nd_no_tuples_batch_check(%data: tensor<2x3xf32>, %indices: tensor<?x0x1xi32>)
    -> tensor<2x0xf32> {
  %0 = nd.gather_nd %data[%indices] batch_dims(1)
      : tensor<2x3xf32>, tensor<?x0x1xi32> -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

//===----------------------------------------------------------------------===//
// Splats
//===----------------------------------------------------------------------===//

// -----

// A gather from a splat reads the splat wherever its constant indices are
// in range, at any size (100 x 1000 elements here).
// CHECK-LABEL: func.func @gather_nd_splat(
// CHECK:         %[[S:.*]] = arith.constant dense<7.500000e+00> : tensor<100x1000xf32>
// CHECK-NOT:     nd.gather_nd
// CHECK:         return %[[S]]
func.func @gather_nd_splat() -> tensor<100x1000xf32> {
  %data = arith.constant dense<7.5> : tensor<1000x1000xf32>
  %indices = arith.constant dense<-1000> : tensor<100x1xi64>
  %0 = nd.gather_nd %data[%indices] : tensor<1000x1000xf32>, tensor<100x1xi64> -> tensor<100x1000xf32>
  return %0 : tensor<100x1000xf32>
}

// -----

// A splat, but indices unknown: the index check is still needed.
// CHECK-LABEL: func.func @gather_elements_splat_unknown_indices(
// CHECK:         nd.gather_elements
func.func @gather_elements_splat_unknown_indices(%indices: tensor<2x2xi64>) -> tensor<2x2xi32> {
  %data = arith.constant dense<3> : tensor<2x2xi32>
  %0 = nd.gather_elements %data[%indices] : tensor<2x2xi32>, tensor<2x2xi64> -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}

// -----

// Scattering the splat value onto the same splat under none, max and min
// leaves data; under add the values change (and 250000 elements are above
// the folding limit), so that op stays.
// CHECK-LABEL: func.func @scatter_nd_splat(
// CHECK:         %[[D:.*]] = arith.constant dense<2> : tensor<500x500xi16>
// CHECK:         %[[ADD:.*]] = nd.scatter_nd %[[D]]{{.*}} reduction<add>
// CHECK-NOT:     nd.scatter_nd
// CHECK:         return %[[D]], %[[D]], %[[D]], %[[ADD]]
func.func @scatter_nd_splat() -> (tensor<500x500xi16>, tensor<500x500xi16>,
                                  tensor<500x500xi16>, tensor<500x500xi16>) {
  %data = arith.constant dense<2> : tensor<500x500xi16>
  %indices = arith.constant dense<[[1, 2], [499, -500]]> : tensor<2x2xi32>
  %updates = arith.constant dense<2> : tensor<2xi16>
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<500x500xi16>, tensor<2x2xi32>, tensor<2xi16>
  %1 = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<500x500xi16>, tensor<2x2xi32>, tensor<2xi16>
  %2 = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<500x500xi16>, tensor<2x2xi32>, tensor<2xi16>
  %3 = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<500x500xi16>, tensor<2x2xi32>, tensor<2xi16>
  return %0, %1, %2, %3 : tensor<500x500xi16>, tensor<500x500xi16>, tensor<500x500xi16>, tensor<500x500xi16>
}

// -----

// The same splat value, but the index values are unknown: the op stays.
// CHECK-LABEL: func.func @scatter_elements_splat_unknown_indices(
// CHECK:         nd.scatter_elements
func.func @scatter_elements_splat_unknown_indices(%indices: tensor<2xi64>) -> tensor<4xf32> {
  %data = arith.constant dense<1.0> : tensor<4xf32>
  %updates = arith.constant dense<1.0> : tensor<2xf32>
  %0 = nd.scatter_elements %data[%indices], %updates : tensor<4xf32>, tensor<2xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

//===----------------------------------------------------------------------===//
// All operands constant: the ONNX examples
//===----------------------------------------------------------------------===//

// -----

// ONNX ScatterND example 1: output = [1, 11, 3, 10, 9, 6, 7, 12].
// CHECK-LABEL: func.func @scatter_nd_onnx_example_1(
// CHECK:         %[[R:.*]] = arith.constant dense<[1, 11, 3, 10, 9, 6, 7, 12]> : tensor<8xi32>
// CHECK-NOT:     nd.scatter_nd
// CHECK:         return %[[R]]
func.func @scatter_nd_onnx_example_1() -> tensor<8xi32> {
  %data = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
  %indices = arith.constant dense<[[4], [3], [1], [7]]> : tensor<4x1xi64>
  %updates = arith.constant dense<[9, 10, 11, 12]> : tensor<4xi32>
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<8xi32>, tensor<4x1xi64>, tensor<4xi32>
  return %0 : tensor<8xi32>
}

// -----

// ONNX ScatterND, reduction add, duplicate slice indices [[0], [0]]:
// output[0] = data[0] + updates[0] + updates[1], the other slices of data
// unchanged; e.g. row 0: [1, 2, 3, 4] + [5, 5, 5, 5] + [1, 1, 1, 1].
// CHECK-LABEL: func.func @scatter_nd_onnx_add(
// CHECK:         %[[R:.*]] = arith.constant dense<{{\[\[\[}}7, 8, 9, 10], [13, 14, 15, 16], [18, 17, 16, 15], [16, 15, 14, 13]], {{\[\[}}1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]], {{\[\[}}8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]], {{\[\[}}8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]]]> : tensor<4x4x4xi32>
// CHECK:         return %[[R]]
func.func @scatter_nd_onnx_add() -> tensor<4x4x4xi32> {
  %data = arith.constant dense<[[[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
                                [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
                                [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]],
                                [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]]]> : tensor<4x4x4xi32>
  %indices = arith.constant dense<[[0], [0]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[[[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]],
                                   [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]]]> : tensor<2x4x4xi32>
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add>
      : tensor<4x4x4xi32>, tensor<2x1xi64>, tensor<2x4x4xi32>
  return %0 : tensor<4x4x4xi32>
}

// -----

// ONNX GatherND examples 1 (elements), 2 (slices) and 5 (batch_dims = 1).
// CHECK-LABEL: func.func @gather_nd_onnx_examples(
// CHECK-DAG:     %[[E1:.*]] = arith.constant dense<[0, 3]> : tensor<2xi32>
// CHECK-DAG:     %[[E2:.*]] = arith.constant dense<{{\[\[}}2, 3], [0, 1]]> : tensor<2x2xi32>
// CHECK-DAG:     %[[E5:.*]] = arith.constant dense<{{\[\[}}2, 3], [4, 5]]> : tensor<2x2xi32>
// CHECK-NOT:     nd.gather_nd
// CHECK:         return %[[E1]], %[[E2]], %[[E5]]
func.func @gather_nd_onnx_examples() -> (tensor<2xi32>, tensor<2x2xi32>, tensor<2x2xi32>) {
  %d2 = arith.constant dense<[[0, 1], [2, 3]]> : tensor<2x2xi32>
  %i1 = arith.constant dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>
  %0 = nd.gather_nd %d2[%i1] : tensor<2x2xi32>, tensor<2x2xi64> -> tensor<2xi32>
  %i2 = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %1 = nd.gather_nd %d2[%i2] : tensor<2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
  %d3 = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>
  %2 = nd.gather_nd %d3[%i2] batch_dims(1) : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
  return %0, %1, %2 : tensor<2xi32>, tensor<2x2xi32>, tensor<2x2xi32>
}

// -----

// ONNX ScatterElements example 1 (axis 0), on f32:
// [[2.0, 1.1, 0.0], [1.0, 0.0, 2.2], [0.0, 2.1, 1.2]].
// CHECK-LABEL: func.func @scatter_elements_onnx_example_1(
// CHECK:         %[[R:.*]] = arith.constant dense<{{\[\[}}2.000000e+00, 1.100000e+00, 0.000000e+00], [1.000000e+00, 0.000000e+00, 2.200000e+00], [0.000000e+00, 2.100000e+00, 1.200000e+00]]> : tensor<3x3xf32>
// CHECK:         return %[[R]]
func.func @scatter_elements_onnx_example_1() -> tensor<3x3xf32> {
  %data = arith.constant dense<0.0> : tensor<3x3xf32>
  %indices = arith.constant dense<[[1, 0, 2], [0, 2, 1]]> : tensor<2x3xi64>
  %updates = arith.constant dense<[[1.0, 1.1, 1.2], [2.0, 2.1, 2.2]]> : tensor<2x3xf32>
  %0 = nd.scatter_elements %data[%indices], %updates : tensor<3x3xf32>, tensor<2x3xi64>, tensor<2x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

// ONNX ScatterElements with duplicate indices and reduction add (values of
// test_scatter_elements_with_duplicate_indices times 10, as integers):
// 2 + 11 + 21 = 34; and ScatterElements example 2 with a negative index:
// axis 1, indices [[1, -2]] (-2 is 3), updates [[1.1, 2.1]].
// CHECK-LABEL: func.func @scatter_elements_onnx_duplicates_negative(
// CHECK-DAG:     %[[ADD:.*]] = arith.constant dense<{{\[\[}}1, 34, 3, 4, 5]]> : tensor<1x5xi32>
// CHECK-DAG:     %[[NEG:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 1.100000e+00, 3.000000e+00, 2.100000e+00, 5.000000e+00]]> : tensor<1x5xf32>
// CHECK:         return %[[ADD]], %[[NEG]]
func.func @scatter_elements_onnx_duplicates_negative() -> (tensor<1x5xi32>, tensor<1x5xf32>) {
  %data = arith.constant dense<[[1, 2, 3, 4, 5]]> : tensor<1x5xi32>
  %indices = arith.constant dense<[[1, 1]]> : tensor<1x2xi64>
  %updates = arith.constant dense<[[11, 21]]> : tensor<1x2xi32>
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<add>
      : tensor<1x5xi32>, tensor<1x2xi64>, tensor<1x2xi32>
  %fdata = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]> : tensor<1x5xf32>
  %findices = arith.constant dense<[[1, -2]]> : tensor<1x2xi32>
  %fupdates = arith.constant dense<[[1.1, 2.1]]> : tensor<1x2xf32>
  %1 = nd.scatter_elements %fdata[%findices], %fupdates axis(-1)
      : tensor<1x5xf32>, tensor<1x2xi32>, tensor<1x2xf32>
  return %0, %1 : tensor<1x5xi32>, tensor<1x5xf32>
}

// -----

// ONNX GatherElements examples 1 (axis 1) and 2 (axis 0).
// CHECK-LABEL: func.func @gather_elements_onnx_examples(
// CHECK-DAG:     %[[E1:.*]] = arith.constant dense<{{\[\[}}1, 1], [4, 3]]> : tensor<2x2xi32>
// CHECK-DAG:     %[[E2:.*]] = arith.constant dense<{{\[\[}}4, 8, 3], [7, 2, 3]]> : tensor<2x3xi32>
// CHECK:         return %[[E1]], %[[E2]]
func.func @gather_elements_onnx_examples() -> (tensor<2x2xi32>, tensor<2x3xi32>) {
  %d1 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %i1 = arith.constant dense<[[0, 0], [1, 0]]> : tensor<2x2xi64>
  %0 = nd.gather_elements %d1[%i1] axis(1) : tensor<2x2xi32>, tensor<2x2xi64> -> tensor<2x2xi32>
  %d2 = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %i2 = arith.constant dense<[[1, 2, 0], [2, 0, 0]]> : tensor<2x3xi32>
  %1 = nd.gather_elements %d2[%i2] : tensor<3x3xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  return %0, %1 : tensor<2x2xi32>, tensor<2x3xi32>
}

//===----------------------------------------------------------------------===//
// All operands constant: reductions per element type (docs/Rationale.md)
//===----------------------------------------------------------------------===//

// -----

// ui8 compares unsigned (250 > 100), i8 signed (-6 < 100); both wrap on add
// (250 + 100 = 350 = 94 mod 256; 100 + 100 = 200 = -56 in i8).
// CHECK-LABEL: func.func @scatter_nd_integer_reductions(
// CHECK-DAG:     %[[UMAX:.*]] = arith.constant dense<250> : tensor<2xui8>
// CHECK-DAG:     %[[UMIN:.*]] = arith.constant dense<100> : tensor<2xui8>
// CHECK-DAG:     %[[SMAX:.*]] = arith.constant dense<100> : tensor<2xi8>
// CHECK-DAG:     %[[UADD:.*]] = arith.constant dense<94> : tensor<2xui8>
// CHECK-DAG:     %[[SADD:.*]] = arith.constant dense<[94, -56]> : tensor<2xi8>
// CHECK:         return %[[UMAX]], %[[UMIN]], %[[SMAX]], %[[UADD]], %[[SADD]]
func.func @scatter_nd_integer_reductions()
    -> (tensor<2xui8>, tensor<2xui8>, tensor<2xi8>, tensor<2xui8>, tensor<2xi8>) {
  %indices = arith.constant dense<[[0], [1]]> : tensor<2x1xi64>
  %udata = arith.constant dense<[250, 100]> : tensor<2xui8>
  %uupdates = arith.constant dense<[100, 250]> : tensor<2xui8>
  %0 = nd.scatter_nd %udata[%indices], %uupdates reduction<max> : tensor<2xui8>, tensor<2x1xi64>, tensor<2xui8>
  %1 = nd.scatter_nd %udata[%indices], %uupdates reduction<min> : tensor<2xui8>, tensor<2x1xi64>, tensor<2xui8>
  %sdata = arith.constant dense<[-6, 100]> : tensor<2xi8>
  %supdates = arith.constant dense<[100, 100]> : tensor<2xi8>
  %2 = nd.scatter_nd %sdata[%indices], %supdates reduction<max> : tensor<2xi8>, tensor<2x1xi64>, tensor<2xi8>
  %3 = nd.scatter_nd %udata[%indices], %uupdates reduction<add> : tensor<2xui8>, tensor<2x1xi64>, tensor<2xui8>
  %4 = nd.scatter_nd %sdata[%indices], %supdates reduction<add> : tensor<2xi8>, tensor<2x1xi64>, tensor<2xi8>
  return %0, %1, %2, %3, %4 : tensor<2xui8>, tensor<2xui8>, tensor<2xi8>, tensor<2xui8>, tensor<2xi8>
}

// -----

// i1: add and max are `or`, mul and min are `and`.
// CHECK-LABEL: func.func @scatter_elements_bool_reductions(
// CHECK-DAG:     %[[OR:.*]] = arith.constant dense<[true, true, false, true]> : tensor<4xi1>
// CHECK-DAG:     %[[AND:.*]] = arith.constant dense<[false, false, false, true]> : tensor<4xi1>
// CHECK:         return %[[OR]], %[[AND]], %[[OR]], %[[AND]]
func.func @scatter_elements_bool_reductions()
    -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %data = arith.constant dense<[true, false, false, true]> : tensor<4xi1>
  %indices = arith.constant dense<[1, 1, 0]> : tensor<3xi64>
  %updates = arith.constant dense<[true, false, false]> : tensor<3xi1>
  %0 = nd.scatter_elements %data[%indices], %updates reduction<add> : tensor<4xi1>, tensor<3xi64>, tensor<3xi1>
  %1 = nd.scatter_elements %data[%indices], %updates reduction<mul> : tensor<4xi1>, tensor<3xi64>, tensor<3xi1>
  %2 = nd.scatter_elements %data[%indices], %updates reduction<max> : tensor<4xi1>, tensor<3xi64>, tensor<3xi1>
  %3 = nd.scatter_elements %data[%indices], %updates reduction<min> : tensor<4xi1>, tensor<3xi64>, tensor<3xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// max and min propagate NaN and order -0.0 < +0.0 (IEEE 754-2019).
// CHECK-LABEL: func.func @scatter_nd_float_max_min(
// CHECK-DAG:     %[[MAX:.*]] = arith.constant dense<[0x7FC00000, 0x7FC00000, 0.000000e+00]> : tensor<3xf32>
// CHECK-DAG:     %[[MIN:.*]] = arith.constant dense<[0x7FC00000, 0x7FC00000, -0.000000e+00]> : tensor<3xf32>
// CHECK:         return %[[MAX]], %[[MIN]]
func.func @scatter_nd_float_max_min() -> (tensor<3xf32>, tensor<3xf32>) {
  %data = arith.constant dense<[1.0, 0x7FC00000, -0.0]> : tensor<3xf32>
  %indices = arith.constant dense<[[0], [1], [2]]> : tensor<3x1xi32>
  %updates = arith.constant dense<[0x7FC00000, 2.0, 0.0]> : tensor<3xf32>
  %0 = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<3xf32>, tensor<3x1xi32>, tensor<3xf32>
  %1 = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<3xf32>, tensor<3x1xi32>, tensor<3xf32>
  return %0, %1 : tensor<3xf32>, tensor<3xf32>
}

// -----

// Complex add and mul: (1+2i)(1+i) = -1+3i, then (-1+3i)(2) = -2+6i;
// i * i = -1. A product with an infinite part is not folded.
// CHECK-LABEL: func.func @scatter_elements_complex(
// CHECK-DAG:     %[[MUL:.*]] = arith.constant dense<[(-2.000000e+00,6.000000e+00), (3.000000e+00,4.000000e+00), (-1.000000e+00,0.000000e+00)]> : tensor<3xcomplex<f32>>
// CHECK-DAG:     %[[ADD:.*]] = arith.constant dense<[(4.000000e+00,3.000000e+00), (3.000000e+00,4.000000e+00), (0.000000e+00,2.000000e+00)]> : tensor<3xcomplex<f32>>
// CHECK:         %[[INF:.*]] = nd.scatter_elements
// CHECK:         return %[[MUL]], %[[ADD]], %[[INF]]
func.func @scatter_elements_complex()
    -> (tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>) {
  %data = arith.constant dense<[(1.0, 2.0), (3.0, 4.0), (0.0, 1.0)]> : tensor<3xcomplex<f32>>
  %indices = arith.constant dense<[0, 0, -1]> : tensor<3xi32>
  %updates = arith.constant dense<[(1.0, 1.0), (2.0, 0.0), (0.0, 1.0)]> : tensor<3xcomplex<f32>>
  %0 = nd.scatter_elements %data[%indices], %updates reduction<mul>
      : tensor<3xcomplex<f32>>, tensor<3xi32>, tensor<3xcomplex<f32>>
  %1 = nd.scatter_elements %data[%indices], %updates reduction<add>
      : tensor<3xcomplex<f32>>, tensor<3xi32>, tensor<3xcomplex<f32>>
  %inf = arith.constant dense<[(0x7F800000, 0.0), (1.0, 0.0), (1.0, 0.0)]> : tensor<3xcomplex<f32>>
  %2 = nd.scatter_elements %data[%indices], %inf reduction<mul>
      : tensor<3xcomplex<f32>>, tensor<3xi32>, tensor<3xcomplex<f32>>
  return %0, %1, %2 : tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>, tensor<3xcomplex<f32>>
}

//===----------------------------------------------------------------------===//
// Not folded
//===----------------------------------------------------------------------===//

// -----

// Unknown data, constant indices and updates: there is nothing to compute.
// CHECK-LABEL: func.func @scatter_nd_unknown_data(
// CHECK:         nd.scatter_nd
func.func @scatter_nd_unknown_data(%data: tensor<4xf32>) -> tensor<4xf32> {
  %indices = arith.constant dense<[[0], [3]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>
  return %0 : tensor<4xf32>
}

// -----

// 300 x 300 = 90000 elements: above the folding limit of 65536.
// CHECK-LABEL: func.func @scatter_elements_above_limit(
// CHECK:         nd.scatter_elements
func.func @scatter_elements_above_limit() -> tensor<300x300xi32> {
  %data = arith.constant dense<0> : tensor<300x300xi32>
  %indices = arith.constant dense<[[1, 2]]> : tensor<1x2xi64>
  %updates = arith.constant dense<[[5, 6]]> : tensor<1x2xi32>
  %0 = nd.scatter_elements %data[%indices], %updates : tensor<300x300xi32>, tensor<1x2xi64>, tensor<1x2xi32>
  return %0 : tensor<300x300xi32>
}

// -----

// A data dim that is dynamic: constant indices cannot be checked against it
// at compile time, so the op (and its run-time check) stays.
// CHECK-LABEL: func.func @gather_elements_dynamic_data(
// CHECK:         nd.gather_elements
func.func @gather_elements_dynamic_data(%data: tensor<?xf32>) -> tensor<2xf32> {
  %indices = arith.constant dense<[0, 7]> : tensor<2xi64>
  %0 = nd.gather_elements %data[%indices] : tensor<?xf32>, tensor<2xi64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A result dim static where the operand's is dynamic is checked at run
// time: no fold, even with an empty result.
// CHECK-LABEL: func.func @gather_elements_refined_result(
// CHECK:         nd.gather_elements
func.func @gather_elements_refined_result(%data: tensor<4x4xf32>, %indices: tensor<?x0xi64>)
    -> tensor<2x0xf32> {
  %0 = nd.gather_elements %data[%indices] : tensor<4x4xf32>, tensor<?x0xi64> -> tensor<2x0xf32>
  return %0 : tensor<2x0xf32>
}

//===----------------------------------------------------------------------===//
// OpenVINO ScatterNDUpdate-15 reductions (sub) and ScatterElementsUpdate-12
// (mean, use_init_val)
//===----------------------------------------------------------------------===//

// -----

// ScatterNDUpdate-15 examples on data [1, 2, 3, 4], indices
// [0, 2, -3, -3, 0] (as 5x1 tuples; -3 is 1), updates [10 .. 50]:
// sum [61, 72, 23, 4] (example 2, FP16), sub [-59, -68, -17, 4] (example 3).
// The spec prints [500, 3600, 40, 4] for prod (example 4), which its own
// definition does not give: 1*10*50 = 500, 2*30*40 = 2400, 3*20 = 60.
// max [50, 40, 20, 4]; min leaves data.
// CHECK-LABEL: func.func @scatter_nd_openvino_15(
// CHECK-DAG:     %[[SUM:.*]] = arith.constant dense<[6.100000e+01, 7.200000e+01, 2.300000e+01, 4.000000e+00]> : tensor<4xf16>
// CHECK-DAG:     %[[SUB:.*]] = arith.constant dense<[-59, -68, -17, 4]> : tensor<4xi32>
// CHECK-DAG:     %[[PROD:.*]] = arith.constant dense<[500, 2400, 60, 4]> : tensor<4xi32>
// CHECK-DAG:     %[[MAX:.*]] = arith.constant dense<[50, 40, 20, 4]> : tensor<4xi32>
// CHECK-DAG:     %[[MIN:.*]] = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK-NOT:     nd.scatter_nd
// CHECK:         return %[[SUM]], %[[SUB]], %[[PROD]], %[[MAX]], %[[MIN]]
func.func @scatter_nd_openvino_15()
    -> (tensor<4xf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) {
  %indices = arith.constant dense<[[0], [2], [-3], [-3], [0]]> : tensor<5x1xi32>
  %hdata = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf16>
  %hupdates = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 50.0]> : tensor<5xf16>
  %0 = nd.scatter_nd %hdata[%indices], %hupdates reduction<add> : tensor<4xf16>, tensor<5x1xi32>, tensor<5xf16>
  %data = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %updates = arith.constant dense<[10, 20, 30, 40, 50]> : tensor<5xi32>
  %1 = nd.scatter_nd %data[%indices], %updates reduction<sub> : tensor<4xi32>, tensor<5x1xi32>, tensor<5xi32>
  %2 = nd.scatter_nd %data[%indices], %updates reduction<mul> : tensor<4xi32>, tensor<5x1xi32>, tensor<5xi32>
  %3 = nd.scatter_nd %data[%indices], %updates reduction<max> : tensor<4xi32>, tensor<5x1xi32>, tensor<5xi32>
  %4 = nd.scatter_nd %data[%indices], %updates reduction<min> : tensor<4xi32>, tensor<5x1xi32>, tensor<5xi32>
  return %0, %1, %2, %3, %4 : tensor<4xf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>
}

// -----

// sub on i1 is xor (ScatterNDUpdate-15: "sum, sub, prod behaves like logical
// OR, XOR, AND"): element 0 gets true ^ true, element 1 false ^ true ^ true.
// Complex sub is componentwise: (1+2i) - (1+1i) - (0+1i) = 0.
// CHECK-LABEL: func.func @scatter_nd_sub_bool_complex(
// CHECK-DAG:     %[[B:.*]] = arith.constant dense<[false, false, true, false]> : tensor<4xi1>
// CHECK-DAG:     %[[C:.*]] = arith.constant dense<[(0.000000e+00,0.000000e+00), (3.000000e+00,4.000000e+00)]> : tensor<2xcomplex<f32>>
// CHECK:         return %[[B]], %[[C]]
func.func @scatter_nd_sub_bool_complex() -> (tensor<4xi1>, tensor<2xcomplex<f32>>) {
  %data = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
  %indices = arith.constant dense<[[0], [1], [1]]> : tensor<3x1xi64>
  %updates = arith.constant dense<true> : tensor<3xi1>
  %0 = nd.scatter_nd %data[%indices], %updates reduction<sub> : tensor<4xi1>, tensor<3x1xi64>, tensor<3xi1>
  %cdata = arith.constant dense<[(1.0, 2.0), (3.0, 4.0)]> : tensor<2xcomplex<f32>>
  %cindices = arith.constant dense<[[0], [0]]> : tensor<2x1xi64>
  %cupdates = arith.constant dense<[(1.0, 1.0), (0.0, 1.0)]> : tensor<2xcomplex<f32>>
  %1 = nd.scatter_nd %cdata[%cindices], %cupdates reduction<sub>
      : tensor<2xcomplex<f32>>, tensor<2x1xi64>, tensor<2xcomplex<f32>>
  return %0, %1 : tensor<4xi1>, tensor<2xcomplex<f32>>
}

// -----

// ScatterElementsUpdate-12 examples 1 (sum, negative indices: -2 is 2, -1
// is 3) and 2 (sum, use_init_val false): [52, 13, 104, 76] and
// [50, 10, 100, 70].
// CHECK-LABEL: func.func @scatter_elements_openvino_12_1d(
// CHECK-DAG:     %[[E1:.*]] = arith.constant dense<[5.200000e+01, 1.300000e+01, 1.040000e+02, 7.600000e+01]> : tensor<4xf32>
// CHECK-DAG:     %[[E2:.*]] = arith.constant dense<[5.000000e+01, 1.000000e+01, 1.000000e+02, 7.000000e+01]> : tensor<4xf32>
// CHECK:         return %[[E1]], %[[E2]]
func.func @scatter_elements_openvino_12_1d() -> (tensor<4xf32>, tensor<4xf32>) {
  %data = arith.constant dense<[2.0, 3.0, 4.0, 6.0]> : tensor<4xf32>
  %updates = arith.constant dense<[10.0, 20.0, 30.0, 40.0, 70.0, 60.0]> : tensor<6xf32>
  %i1 = arith.constant dense<[1, 0, 0, -2, -1, 2]> : tensor<6xi64>
  %0 = nd.scatter_elements %data[%i1], %updates reduction<add> : tensor<4xf32>, tensor<6xi64>, tensor<6xf32>
  %i2 = arith.constant dense<[1, 0, 0, 2, 3, 2]> : tensor<6xi64>
  %1 = nd.scatter_elements %data[%i2], %updates reduction<add> use_init_val(false)
      : tensor<4xf32>, tensor<6xi64>, tensor<6xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// ScatterElementsUpdate-12 examples 3 (none), 4 (sum) and 5 (prod), axis 1.
// CHECK-LABEL: func.func @scatter_elements_openvino_12_2d(
// CHECK-DAG:     %[[E3:.*]] = arith.constant dense<{{\[\[}}0, 11, 12, 0], [13, 0, 0, 14], [0, 0, 0, 0]]> : tensor<3x4xi32>
// CHECK-DAG:     %[[E4:.*]] = arith.constant dense<{{\[\[}}1, 24, 1, 1], [14, 1, 1, 15], [1, 1, 1, 1]]> : tensor<3x4xi32>
// CHECK-DAG:     %[[E5:.*]] = arith.constant dense<{{\[\[}}2, 264, 2, 2], [26, 2, 2, 28], [2, 2, 2, 2]]> : tensor<3x4xi32>
// CHECK:         return %[[E3]], %[[E4]], %[[E5]]
func.func @scatter_elements_openvino_12_2d() -> (tensor<3x4xi32>, tensor<3x4xi32>, tensor<3x4xi32>) {
  %zeros = arith.constant dense<0> : tensor<3x4xi32>
  %ones = arith.constant dense<1> : tensor<3x4xi32>
  %twos = arith.constant dense<2> : tensor<3x4xi32>
  %updates = arith.constant dense<[[11, 12], [13, 14]]> : tensor<2x2xi32>
  %i3 = arith.constant dense<[[1, 2], [0, 3]]> : tensor<2x2xi64>
  %0 = nd.scatter_elements %zeros[%i3], %updates axis(1) : tensor<3x4xi32>, tensor<2x2xi64>, tensor<2x2xi32>
  %i4 = arith.constant dense<[[1, 1], [0, 3]]> : tensor<2x2xi64>
  %1 = nd.scatter_elements %ones[%i4], %updates axis(1) reduction<add> : tensor<3x4xi32>, tensor<2x2xi64>, tensor<2x2xi32>
  %2 = nd.scatter_elements %twos[%i4], %updates axis(1) reduction<mul> : tensor<3x4xi32>, tensor<2x2xi64>, tensor<2x2xi32>
  return %0, %1, %2 : tensor<3x4xi32>, tensor<3x4xi32>, tensor<3x4xi32>
}

// -----

// mean on the data and indices of example 2, as integers: with data,
// (2+20+30)/3 = 17.33 -> 17, (3+10)/2 = 6.5 -> 6, (4+40+60)/3 = 34.67 -> 34,
// (6+70)/2 = 38; without, 25, 10, 50, 70. Integers round towards negative
// infinity: (-3-4)/2 = -3.5 -> -4, (5+6)/2 = 5.5 -> 5. They are summed
// exactly: i8 (100+100+100)/3 = 100 although 300 overflows i8, and
// (-128-128)/2 = -128. ui8: (255+255+0)/3 = 170.
// CHECK-LABEL: func.func @scatter_elements_mean_integers(
// CHECK-DAG:     %[[WITH:.*]] = arith.constant dense<[17, 6, 34, 38]> : tensor<4xi32>
// CHECK-DAG:     %[[WITHOUT:.*]] = arith.constant dense<[25, 10, 50, 70]> : tensor<4xi32>
// CHECK-DAG:     %[[NEG:.*]] = arith.constant dense<[-4, 5]> : tensor<2xi32>
// CHECK-DAG:     %[[I8:.*]] = arith.constant dense<[100, -128]> : tensor<2xi8>
// CHECK-DAG:     %[[U8:.*]] = arith.constant dense<[170, 1]> : tensor<2xui8>
// CHECK:         return %[[WITH]], %[[WITHOUT]], %[[NEG]], %[[I8]], %[[U8]]
func.func @scatter_elements_mean_integers()
    -> (tensor<4xi32>, tensor<4xi32>, tensor<2xi32>, tensor<2xi8>, tensor<2xui8>) {
  %data = arith.constant dense<[2, 3, 4, 6]> : tensor<4xi32>
  %indices = arith.constant dense<[1, 0, 0, 2, 3, 2]> : tensor<6xi64>
  %updates = arith.constant dense<[10, 20, 30, 40, 70, 60]> : tensor<6xi32>
  %0 = nd.scatter_elements %data[%indices], %updates reduction<mean> : tensor<4xi32>, tensor<6xi64>, tensor<6xi32>
  %1 = nd.scatter_elements %data[%indices], %updates reduction<mean> use_init_val(false)
      : tensor<4xi32>, tensor<6xi64>, tensor<6xi32>
  %ndata = arith.constant dense<[-3, 5]> : tensor<2xi32>
  %nindices = arith.constant dense<[0, 1]> : tensor<2xi64>
  %nupdates = arith.constant dense<[-4, 6]> : tensor<2xi32>
  %2 = nd.scatter_elements %ndata[%nindices], %nupdates reduction<mean> : tensor<2xi32>, tensor<2xi64>, tensor<2xi32>
  %bdata = arith.constant dense<[100, -128]> : tensor<2xi8>
  %bindices = arith.constant dense<[0, 0, 1]> : tensor<3xi64>
  %bupdates = arith.constant dense<[100, 100, -128]> : tensor<3xi8>
  %3 = nd.scatter_elements %bdata[%bindices], %bupdates reduction<mean> : tensor<2xi8>, tensor<3xi64>, tensor<3xi8>
  %udata = arith.constant dense<[255, 1]> : tensor<2xui8>
  %uindices = arith.constant dense<[0, 0]> : tensor<2xi64>
  %uupdates = arith.constant dense<[255, 0]> : tensor<2xui8>
  %4 = nd.scatter_elements %udata[%uindices], %uupdates reduction<mean> : tensor<2xui8>, tensor<2xi64>, tensor<2xui8>
  return %0, %1, %2, %3, %4 : tensor<4xi32>, tensor<4xi32>, tensor<2xi32>, tensor<2xi8>, tensor<2xui8>
}

// -----

// Float mean: (1+2+3)/3 = 2 with data, (2+3)/2 = 2.5 without; untouched 7
// stays. use_init_val false under max and mul: the data value takes no
// part (max(1, 5) = 5 although data holds 100; 2*4 = 8 although data holds
// 0), and under none it changes nothing.
// CHECK-LABEL: func.func @scatter_elements_use_init_val(
// CHECK-DAG:     %[[MEAN:.*]] = arith.constant dense<[2.000000e+00, 7.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[MEAN0:.*]] = arith.constant dense<[2.500000e+00, 7.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[MAX:.*]] = arith.constant dense<[5, 7]> : tensor<2xi32>
// CHECK-DAG:     %[[MUL:.*]] = arith.constant dense<[8.000000e+00, 7.000000e+00]> : tensor<2xf32>
// CHECK-DAG:     %[[NONE:.*]] = arith.constant dense<[3.000000e+00, 7.000000e+00]> : tensor<2xf32>
// CHECK:         return %[[MEAN]], %[[MEAN0]], %[[MAX]], %[[MUL]], %[[NONE]]
func.func @scatter_elements_use_init_val()
    -> (tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>) {
  %data = arith.constant dense<[1.0, 7.0]> : tensor<2xf32>
  %indices = arith.constant dense<[0, 0]> : tensor<2xi64>
  %updates = arith.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %0 = nd.scatter_elements %data[%indices], %updates reduction<mean> : tensor<2xf32>, tensor<2xi64>, tensor<2xf32>
  %1 = nd.scatter_elements %data[%indices], %updates reduction<mean> use_init_val(false)
      : tensor<2xf32>, tensor<2xi64>, tensor<2xf32>
  %idata = arith.constant dense<[100, 7]> : tensor<2xi32>
  %iupdates = arith.constant dense<[1, 5]> : tensor<2xi32>
  %2 = nd.scatter_elements %idata[%indices], %iupdates reduction<max> use_init_val(false)
      : tensor<2xi32>, tensor<2xi64>, tensor<2xi32>
  %zdata = arith.constant dense<[0.0, 7.0]> : tensor<2xf32>
  %mupdates = arith.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %3 = nd.scatter_elements %zdata[%indices], %mupdates reduction<mul> use_init_val(false)
      : tensor<2xf32>, tensor<2xi64>, tensor<2xf32>
  %one = arith.constant dense<[1]> : tensor<1xi64>
  %three = arith.constant dense<[3.0]> : tensor<1xf32>
  %zero = arith.constant dense<[0]> : tensor<1xi64>
  %4 = nd.scatter_elements %data[%zero], %three use_init_val(false) : tensor<2xf32>, tensor<1xi64>, tensor<1xf32>
  return %0, %1, %2, %3, %4 : tensor<2xf32>, tensor<2xf32>, tensor<2xi32>, tensor<2xf32>, tensor<2xf32>
}

//===----------------------------------------------------------------------===//
// Out-of-bounds modes
//===----------------------------------------------------------------------===//

// -----

// gather_nd on [[1, 2], [3, 4]] at [1], [2], [-3], [-2]: skip reads zeros
// for 2 and -3; clamp reads row 1 for 2 and row 0 for -3.
// CHECK-LABEL: func.func @gather_nd_oob(
// CHECK-DAG:     %[[SKIP:.*]] = arith.constant dense<{{\[\[}}3, 4], [0, 0], [0, 0], [1, 2]]> : tensor<4x2xi32>
// CHECK-DAG:     %[[CLAMP:.*]] = arith.constant dense<{{\[\[}}3, 4], [3, 4], [1, 2], [1, 2]]> : tensor<4x2xi32>
// CHECK:         return %[[SKIP]], %[[CLAMP]]
func.func @gather_nd_oob() -> (tensor<4x2xi32>, tensor<4x2xi32>) {
  %data = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %indices = arith.constant dense<[[1], [2], [-3], [-2]]> : tensor<4x1xi64>
  %0 = nd.gather_nd %data[%indices] oob<skip> : tensor<2x2xi32>, tensor<4x1xi64> -> tensor<4x2xi32>
  %1 = nd.gather_nd %data[%indices] oob<clamp> : tensor<2x2xi32>, tensor<4x1xi64> -> tensor<4x2xi32>
  return %0, %1 : tensor<4x2xi32>, tensor<4x2xi32>
}

// -----

// scatter_nd on [1, 2, 3, 4] of 10 at [4], 20 at [-5], 30 at [1]: skip
// drops the first two; clamp writes 10 at 3 and 20 at 0.
// CHECK-LABEL: func.func @scatter_nd_oob(
// CHECK-DAG:     %[[SKIP:.*]] = arith.constant dense<[1, 30, 3, 4]> : tensor<4xi32>
// CHECK-DAG:     %[[CLAMP:.*]] = arith.constant dense<[20, 30, 3, 10]> : tensor<4xi32>
// CHECK:         return %[[SKIP]], %[[CLAMP]]
func.func @scatter_nd_oob() -> (tensor<4xi32>, tensor<4xi32>) {
  %data = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %indices = arith.constant dense<[[4], [-5], [1]]> : tensor<3x1xi64>
  %updates = arith.constant dense<[10, 20, 30]> : tensor<3xi32>
  %0 = nd.scatter_nd %data[%indices], %updates oob<skip> : tensor<4xi32>, tensor<3x1xi64>, tensor<3xi32>
  %1 = nd.scatter_nd %data[%indices], %updates oob<clamp> : tensor<4xi32>, tensor<3x1xi64>, tensor<3xi32>
  return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// scatter_elements add on [1, 1, 1] of 5 at 0, 6 at 3, 7 at 2: skip drops
// 6 ([6, 1, 8]); clamp adds it at 2 ([6, 1, 14]).
// gather_elements axis 1 on [[1, 2], [3, 4]] at [[0, 2], [-1, -3]]: skip
// [[1, 0], [4, 0]]; clamp [[1, 2], [4, 3]].
// CHECK-LABEL: func.func @elements_oob(
// CHECK-DAG:     %[[SSKIP:.*]] = arith.constant dense<[6, 1, 8]> : tensor<3xi32>
// CHECK-DAG:     %[[SCLAMP:.*]] = arith.constant dense<[6, 1, 14]> : tensor<3xi32>
// CHECK-DAG:     %[[GSKIP:.*]] = arith.constant dense<{{\[\[}}1, 0], [4, 0]]> : tensor<2x2xi32>
// CHECK-DAG:     %[[GCLAMP:.*]] = arith.constant dense<{{\[\[}}1, 2], [4, 3]]> : tensor<2x2xi32>
// CHECK:         return %[[SSKIP]], %[[SCLAMP]], %[[GSKIP]], %[[GCLAMP]]
func.func @elements_oob() -> (tensor<3xi32>, tensor<3xi32>, tensor<2x2xi32>, tensor<2x2xi32>) {
  %data = arith.constant dense<1> : tensor<3xi32>
  %indices = arith.constant dense<[0, 3, 2]> : tensor<3xi32>
  %updates = arith.constant dense<[5, 6, 7]> : tensor<3xi32>
  %0 = nd.scatter_elements %data[%indices], %updates reduction<add> oob<skip> : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>
  %1 = nd.scatter_elements %data[%indices], %updates reduction<add> oob<clamp> : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>
  %gdata = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %gindices = arith.constant dense<[[0, 2], [-1, -3]]> : tensor<2x2xi64>
  %2 = nd.gather_elements %gdata[%gindices] axis(1) oob<skip> : tensor<2x2xi32>, tensor<2x2xi64> -> tensor<2x2xi32>
  %3 = nd.gather_elements %gdata[%gindices] axis(1) oob<clamp> : tensor<2x2xi32>, tensor<2x2xi64> -> tensor<2x2xi32>
  return %0, %1, %2, %3 : tensor<3xi32>, tensor<3xi32>, tensor<2x2xi32>, tensor<2x2xi32>
}

// -----

// OpenVINO Gather-8 example 7: indices [3, 10, -20] on [1, 2, 3, 4, 5] give
// [4, 0, 0] (skip); clamp gives [4, 5, 1]. Clamping into a dim of size 0 is
// impossible: such entries read zeros, as under skip.
// CHECK-LABEL: func.func @gather_oob(
// CHECK-DAG:     %[[SKIP:.*]] = arith.constant dense<[4, 0, 0]> : tensor<3xi32>
// CHECK-DAG:     %[[CLAMP:.*]] = arith.constant dense<[4, 5, 1]> : tensor<3xi32>
// CHECK-DAG:     %[[EMPTY:.*]] = arith.constant dense<0> : tensor<1x2xi32>
// CHECK:         return %[[SKIP]], %[[CLAMP]], %[[EMPTY]]
func.func @gather_oob() -> (tensor<3xi32>, tensor<3xi32>, tensor<1x2xi32>) {
  %data = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %indices = arith.constant dense<[3, 10, -20]> : tensor<3xi64>
  %0 = nd.gather %data[%indices] oob<skip> : tensor<5xi32>, tensor<3xi64> -> tensor<3xi32>
  %1 = nd.gather %data[%indices] oob<clamp> : tensor<5xi32>, tensor<3xi64> -> tensor<3xi32>
  %empty = arith.constant dense<> : tensor<0x2xi32>
  %one = arith.constant dense<[1]> : tensor<1xi64>
  %2 = nd.gather %empty[%one] oob<clamp> : tensor<0x2xi32>, tensor<1xi64> -> tensor<1x2xi32>
  return %0, %1, %2 : tensor<3xi32>, tensor<3xi32>, tensor<1x2xi32>
}

// -----

// Unknown indices: under clamp every read is in data, so a splat folds;
// under skip a read out of range gives zero, so only a zero splat folds; a
// nonzero splat under skip stays.
// CHECK-LABEL: func.func @gather_oob_splat(
// CHECK-DAG:     %[[C:.*]] = arith.constant dense<2.500000e+00> : tensor<3x4xf32>
// CHECK-DAG:     %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<3x4xf32>
// CHECK:         %[[S:.*]] = nd.gather
// CHECK:         return %[[C]], %[[Z]], %[[S]]
func.func @gather_oob_splat(%indices: tensor<3xi64>) -> (tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>) {
  %data = arith.constant dense<2.5> : tensor<8x4xf32>
  %zeros = arith.constant dense<0.0> : tensor<8x4xf32>
  %0 = nd.gather %data[%indices] oob<clamp> : tensor<8x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  %1 = nd.gather %zeros[%indices] oob<skip> : tensor<8x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  %2 = nd.gather %data[%indices] oob<skip> : tensor<8x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
  return %0, %1, %2 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
}

// -----

// Unknown indices under skip: nothing to check at run time, so a scatter of
// the same splat is its data.
// CHECK-LABEL: func.func @scatter_nd_oob_splat(
// CHECK:         %[[D:.*]] = arith.constant dense<1> : tensor<6x2xi8>
// CHECK-NOT:     nd.scatter_nd
// CHECK:         return %[[D]]
func.func @scatter_nd_oob_splat(%indices: tensor<3x1xi64>) -> tensor<6x2xi8> {
  %data = arith.constant dense<1> : tensor<6x2xi8>
  %updates = arith.constant dense<1> : tensor<3x2xi8>
  %0 = nd.scatter_nd %data[%indices], %updates oob<skip> : tensor<6x2xi8>, tensor<3x1xi64>, tensor<3x2xi8>
  return %0 : tensor<6x2xi8>
}

//===----------------------------------------------------------------------===//
// nd.gather
//===----------------------------------------------------------------------===//

// -----

// ONNX Gather examples: axis 0 and axis 1 (result 3x1x2).
// CHECK-LABEL: func.func @gather_onnx_examples(
// CHECK-DAG:     %[[A0:.*]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 1.200000e+00], [2.300000e+00, 3.400000e+00]], {{\[\[}}2.300000e+00, 3.400000e+00], [4.500000e+00, 5.700000e+00]]]> : tensor<2x2x2xf32>
// CHECK-DAG:     %[[A1:.*]] = arith.constant dense<{{\[\[\[}}1.000000e+00, 1.900000e+00]], {{\[\[}}2.300000e+00, 3.900000e+00]], {{\[\[}}4.500000e+00, 5.900000e+00]]]> : tensor<3x1x2xf32>
// CHECK-NOT:     nd.gather
// CHECK:         return %[[A0]], %[[A1]]
func.func @gather_onnx_examples() -> (tensor<2x2x2xf32>, tensor<3x1x2xf32>) {
  %d0 = arith.constant dense<[[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]]> : tensor<3x2xf32>
  %i0 = arith.constant dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>
  %0 = nd.gather %d0[%i0] : tensor<3x2xf32>, tensor<2x2xi64> -> tensor<2x2x2xf32>
  %d1 = arith.constant dense<[[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]]> : tensor<3x3xf32>
  %i1 = arith.constant dense<[[0, 2]]> : tensor<1x2xi32>
  %1 = nd.gather %d1[%i1] axis(1) : tensor<3x3xf32>, tensor<1x2xi32> -> tensor<3x1x2xf32>
  return %0, %1 : tensor<2x2x2xf32>, tensor<3x1x2xf32>
}

// -----

// OpenVINO Gather-8 examples 1, 2 (batch_dims 1), 3 (batch_dims 2), 4
// (axis 2 > batch_dims 1), 6 (negative indices), and 0-D indices.
// CHECK-LABEL: func.func @gather_openvino_examples(
// CHECK-DAG:     %[[E1:.*]] = arith.constant dense<[1, 1, 5]> : tensor<3xi32>
// CHECK-DAG:     %[[E2:.*]] = arith.constant dense<{{\[\[}}1, 1, 5], [10, 6, 6]]> : tensor<2x3xi32>
// CHECK-DAG:     %[[E3:.*]] = arith.constant dense<{{\[\[\[}}1, 1, 5], [10, 6, 6]], {{\[\[}}12, 13, 15], [20, 19, 18]]]> : tensor<2x2x3xi32>
// CHECK-DAG:     %[[E4:.*]] = arith.constant dense<{{\[\[\[\[}}5, 6, 7, 8], [9, 10, 11, 12], [17, 18, 19, 20]]], {{\[\[\[}}37, 38, 39, 40], [33, 34, 35, 36], [29, 30, 31, 32]]]]> : tensor<2x1x3x4xi32>
// CHECK-DAG:     %[[E6:.*]] = arith.constant dense<[1, 4, 5]> : tensor<3xi32>
// CHECK-DAG:     %[[S:.*]] = arith.constant dense<[2, 4]> : tensor<2xi32>
// CHECK-NOT:     nd.gather
// CHECK:         return %[[E1]], %[[E2]], %[[E3]], %[[E4]], %[[E6]], %[[S]]
func.func @gather_openvino_examples()
    -> (tensor<3xi32>, tensor<2x3xi32>, tensor<2x2x3xi32>, tensor<2x1x3x4xi32>, tensor<3xi32>, tensor<2xi32>) {
  %d1 = arith.constant dense<[1, 2, 3, 4, 5]> : tensor<5xi32>
  %i1 = arith.constant dense<[0, 0, 4]> : tensor<3xi64>
  %0 = nd.gather %d1[%i1] : tensor<5xi32>, tensor<3xi64> -> tensor<3xi32>
  %d2 = arith.constant dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]> : tensor<2x5xi32>
  %i2 = arith.constant dense<[[0, 0, 4], [4, 0, 0]]> : tensor<2x3xi32>
  %1 = nd.gather %d2[%i2] axis(1) batch_dims(1) : tensor<2x5xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
  %d3 = arith.constant dense<[[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]],
                              [[11, 12, 13, 14, 15], [16, 17, 18, 19, 20]]]> : tensor<2x2x5xi32>
  %i3 = arith.constant dense<[[[0, 0, 4], [4, 0, 0]], [[1, 2, 4], [4, 3, 2]]]> : tensor<2x2x3xi32>
  %2 = nd.gather %d3[%i3] axis(2) batch_dims(2) : tensor<2x2x5xi32>, tensor<2x2x3xi32> -> tensor<2x2x3xi32>
  %d4 = arith.constant dense<[[[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19, 20]]],
                              [[[21, 22, 23, 24], [25, 26, 27, 28], [29, 30, 31, 32], [33, 34, 35, 36], [37, 38, 39, 40]]]]> : tensor<2x1x5x4xi32>
  %i4 = arith.constant dense<[[1, 2, 4], [4, 3, 2]]> : tensor<2x3xi32>
  %3 = nd.gather %d4[%i4] axis(2) batch_dims(1) : tensor<2x1x5x4xi32>, tensor<2x3xi32> -> tensor<2x1x3x4xi32>
  %i6 = arith.constant dense<[0, -2, -1]> : tensor<3xi64>
  %4 = nd.gather %d1[%i6] : tensor<5xi32>, tensor<3xi64> -> tensor<3xi32>
  %d5 = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %i5 = arith.constant dense<-1> : tensor<i64>
  %5 = nd.gather %d5[%i5] axis(1) : tensor<2x2xi32>, tensor<i64> -> tensor<2xi32>
  return %0, %1, %2, %3, %4, %5
      : tensor<3xi32>, tensor<2x3xi32>, tensor<2x2x3xi32>, tensor<2x1x3x4xi32>, tensor<3xi32>, tensor<2xi32>
}

// -----

// Empty indices: an empty constant, or a tensor.empty of the reified shape;
// unknown indices under error: the op stays.
// CHECK-LABEL: func.func @gather_empty(
// CHECK-SAME:    %[[D:.*]]: tensor<?x4xf32>,
// CHECK-DAG:     %[[E:.*]] = arith.constant dense<> : tensor<3x0xf32>
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[DIM:.*]] = tensor.dim %[[D]], %[[C0]]
// CHECK-DAG:     %[[T:.*]] = tensor.empty(%[[DIM]]) : tensor<?x0xf32>
// CHECK:         %[[G:.*]] = nd.gather
// CHECK:         return %[[E]], %[[T]], %[[G]]
func.func @gather_empty(%dynamic: tensor<?x4xf32>, %none: tensor<0xi64>, %some: tensor<2xi64>)
    -> (tensor<3x0xf32>, tensor<?x0xf32>, tensor<2x4xf32>) {
  %data = arith.constant dense<1.0> : tensor<3x4xf32>
  %0 = nd.gather %data[%none] axis(1) : tensor<3x4xf32>, tensor<0xi64> -> tensor<3x0xf32>
  %1 = nd.gather %dynamic[%none] axis(1) : tensor<?x4xf32>, tensor<0xi64> -> tensor<?x0xf32>
  %2 = nd.gather %data[%some] : tensor<3x4xf32>, tensor<2xi64> -> tensor<2x4xf32>
  return %0, %1, %2 : tensor<3x0xf32>, tensor<?x0xf32>, tensor<2x4xf32>
}

//===----------------------------------------------------------------------===//
// nd.tensor_scatter
//===----------------------------------------------------------------------===//

// -----

// ONNX test_tensorscatter (linear; batch 0 writes position 1, batch 1
// position 2) and test_tensorscatter_circular (batch 1 starts at 3 and wraps
// to 0).
// CHECK-LABEL: func.func @tensor_scatter_onnx(
// CHECK-DAG:     %[[LIN:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00], [5.000000e+00, 5.000000e+00, 5.000000e+00, 5.000000e+00, 5.000000e+00], [8.000000e+00, 7.000000e+00, 6.000000e+00, 5.000000e+00, 4.000000e+00], [4.000000e+00, 3.000000e+00, 2.000000e+00, 1.000000e+00, 0.000000e+00]]], {{\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00], [4.000000e+00, 3.000000e+00, 2.000000e+00, 1.000000e+00, 0.000000e+00]]]]> : tensor<2x1x4x5xf32>
// CHECK-DAG:     %[[CIRC:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00], [5.000000e+00, 5.000000e+00, 5.000000e+00, 5.000000e+00, 5.000000e+00], [6.000000e+00, 6.000000e+00, 6.000000e+00, 6.000000e+00, 6.000000e+00], [4.000000e+00, 3.000000e+00, 2.000000e+00, 1.000000e+00, 0.000000e+00]]], {{\[\[\[}}2.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00, 2.000000e+00], [5.000000e+00, 6.000000e+00, 7.000000e+00, 8.000000e+00, 9.000000e+00], [8.000000e+00, 7.000000e+00, 6.000000e+00, 5.000000e+00, 4.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]]]]> : tensor<2x1x4x5xf32>
// CHECK-NOT:     nd.tensor_scatter
// CHECK:         return %[[LIN]], %[[CIRC]]
func.func @tensor_scatter_onnx() -> (tensor<2x1x4x5xf32>, tensor<2x1x4x5xf32>) {
  %past = arith.constant dense<[[[[1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 6.0, 7.0, 8.0, 9.0], [8.0, 7.0, 6.0, 5.0, 4.0], [4.0, 3.0, 2.0, 1.0, 0.0]]],
                                [[[1.0, 2.0, 3.0, 4.0, 5.0], [5.0, 6.0, 7.0, 8.0, 9.0], [8.0, 7.0, 6.0, 5.0, 4.0], [4.0, 3.0, 2.0, 1.0, 0.0]]]]> : tensor<2x1x4x5xf32>
  %u1 = arith.constant dense<[[[[5.0, 5.0, 5.0, 5.0, 5.0]]], [[[1.0, 1.0, 1.0, 1.0, 1.0]]]]> : tensor<2x1x1x5xf32>
  %w1 = arith.constant dense<[1, 2]> : tensor<2xi64>
  %0 = nd.tensor_scatter %past[%w1], %u1 : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x1x5xf32>
  %u2 = arith.constant dense<[[[[5.0, 5.0, 5.0, 5.0, 5.0], [6.0, 6.0, 6.0, 6.0, 6.0]]],
                              [[[1.0, 1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0, 2.0]]]]> : tensor<2x1x2x5xf32>
  %w2 = arith.constant dense<[1, 3]> : tensor<2xi64>
  %1 = nd.tensor_scatter %past[%w2], %u2 mode<circular> : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x2x5xf32>
  return %0, %1 : tensor<2x1x4x5xf32>, tensor<2x1x4x5xf32>
}

// -----

// ONNX test_tensorscatter_3d: the default axis -2 of a rank-3 cache is 1.
// CHECK-LABEL: func.func @tensor_scatter_onnx_3d(
// CHECK:         %[[R:.*]] = arith.constant dense<{{\[\[\[}}1, 2, 3, 4, 5, 6], [4, 4, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5], [5, 4, 3, 2, 1, 0]], {{\[\[}}1, 2, 3, 4, 5, 6], [5, 6, 7, 8, 9, 10], [6, 6, 6, 6, 6, 6], [7, 7, 7, 7, 7, 7]], {{\[\[}}2, 2, 2, 2, 2, 2], [3, 3, 3, 3, 3, 3], [8, 7, 6, 5, 4, 3], [5, 4, 3, 2, 1, 0]]]> : tensor<3x4x6xi32>
// CHECK:         return %[[R]]
func.func @tensor_scatter_onnx_3d() -> tensor<3x4x6xi32> {
  %past = arith.constant dense<[[[1, 2, 3, 4, 5, 6], [5, 6, 7, 8, 9, 10], [8, 7, 6, 5, 4, 3], [5, 4, 3, 2, 1, 0]],
                                [[1, 2, 3, 4, 5, 6], [5, 6, 7, 8, 9, 10], [8, 7, 6, 5, 4, 3], [5, 4, 3, 2, 1, 0]],
                                [[1, 2, 3, 4, 5, 6], [5, 6, 7, 8, 9, 10], [8, 7, 6, 5, 4, 3], [5, 4, 3, 2, 1, 0]]]> : tensor<3x4x6xi32>
  %update = arith.constant dense<[[[4, 4, 4, 4, 4, 4], [5, 5, 5, 5, 5, 5]],
                                  [[6, 6, 6, 6, 6, 6], [7, 7, 7, 7, 7, 7]],
                                  [[2, 2, 2, 2, 2, 2], [3, 3, 3, 3, 3, 3]]]> : tensor<3x2x6xi32>
  %w = arith.constant dense<[1, 2, 0]> : tensor<3xi64>
  %0 = nd.tensor_scatter %past[%w], %update : tensor<3x4x6xi32>[tensor<3xi64>], tensor<3x2x6xi32>
  return %0 : tensor<3x4x6xi32>
}

// -----

// Write indices out of range, past [[1, 2, 3, 4], [5, 6, 7, 8]], update
// [[10, 20], [30, 40]] along axis 1. Linear, w = [3, 1]: skip drops batch
// 0's update (3 + 2 > 4); clamp moves it to 2. Circular, w = [-1, 3]: clamp
// moves batch 0 to 0; batch 1 wraps (positions 3 and 0).
// CHECK-LABEL: func.func @tensor_scatter_oob(
// CHECK-DAG:     %[[SKIP:.*]] = arith.constant dense<{{\[\[}}1, 2, 3, 4], [5, 30, 40, 8]]> : tensor<2x4xi32>
// CHECK-DAG:     %[[CLAMP:.*]] = arith.constant dense<{{\[\[}}1, 2, 10, 20], [5, 30, 40, 8]]> : tensor<2x4xi32>
// CHECK-DAG:     %[[CIRC:.*]] = arith.constant dense<{{\[\[}}10, 20, 3, 4], [40, 6, 7, 30]]> : tensor<2x4xi32>
// CHECK:         return %[[SKIP]], %[[CLAMP]], %[[CIRC]]
func.func @tensor_scatter_oob() -> (tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>) {
  %past = arith.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi32>
  %update = arith.constant dense<[[10, 20], [30, 40]]> : tensor<2x2xi32>
  %w = arith.constant dense<[3, 1]> : tensor<2xi64>
  %0 = nd.tensor_scatter %past[%w], %update axis(1) oob<skip> : tensor<2x4xi32>[tensor<2xi64>], tensor<2x2xi32>
  %1 = nd.tensor_scatter %past[%w], %update axis(1) oob<clamp> : tensor<2x4xi32>[tensor<2xi64>], tensor<2x2xi32>
  %v = arith.constant dense<[-1, 3]> : tensor<2xi32>
  %2 = nd.tensor_scatter %past[%v], %update axis(1) mode<circular> oob<clamp>
      : tensor<2x4xi32>[tensor<2xi32>], tensor<2x2xi32>
  return %0, %1, %2 : tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>
}

// -----

// An update of the whole cache from position 0 is the result; an empty
// update without write indices leaves the cache; unknown write indices keep
// the op (their run-time check).
// CHECK-LABEL: func.func @tensor_scatter_folds(
// CHECK-SAME:    %[[P:.*]]: tensor<2x4x3xf32>, %[[U:.*]]: tensor<2x4x3xf32>, %[[E:.*]]: tensor<2x0x3xf32>, %[[W:.*]]: tensor<2xi64>, %[[S:.*]]: tensor<2x1x3xf32>)
// CHECK:         %[[R:.*]] = nd.tensor_scatter %[[P]][%[[W]]], %[[S]]
// CHECK:         return %[[U]], %[[U]], %[[P]], %[[R]]
func.func @tensor_scatter_folds(%past: tensor<2x4x3xf32>, %update: tensor<2x4x3xf32>,
                                %empty: tensor<2x0x3xf32>, %w: tensor<2xi64>, %step: tensor<2x1x3xf32>)
    -> (tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>) {
  %0 = nd.tensor_scatter %past, %update axis(1) : tensor<2x4x3xf32>, tensor<2x4x3xf32>
  %zeros = arith.constant dense<0> : tensor<2xi64>
  %1 = nd.tensor_scatter %past[%zeros], %update axis(1) mode<circular>
      : tensor<2x4x3xf32>[tensor<2xi64>], tensor<2x4x3xf32>
  %2 = nd.tensor_scatter %past, %empty axis(1) : tensor<2x4x3xf32>, tensor<2x0x3xf32>
  %3 = nd.tensor_scatter %past[%w], %step axis(1) : tensor<2x4x3xf32>[tensor<2xi64>], tensor<2x1x3xf32>
  return %0, %1, %2, %3 : tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>
}

//===----------------------------------------------------------------------===//
// Dynamic index depth
//===----------------------------------------------------------------------===//

// -----

// indices.shape[-1] must be checked against k = 1 at run time: no fold, even
// with all operands constant.
// CHECK-LABEL: func.func @gather_nd_dynamic_index_depth(
// CHECK:         nd.gather_nd
func.func @gather_nd_dynamic_index_depth() -> tensor<2x2xi32> {
  %data = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %c = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %indices = tensor.cast %c : tensor<2x1xi64> to tensor<2x?xi64>
  %0 = nd.gather_nd %data[%indices] : tensor<2x2xi32>, tensor<2x?xi64> -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
}
