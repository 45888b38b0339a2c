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
