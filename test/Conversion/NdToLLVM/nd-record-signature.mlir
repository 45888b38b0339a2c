// RUN: nd-opt %s --nd-record-signature | FileCheck %s
// RUN: nd-opt %s --nd-record-signature=function=f | FileCheck %s --check-prefix=F
// RUN: nd-opt %s --nd-record-signature=function=named | FileCheck %s --check-prefix=NAMED

// The entry's tensor types, donated arguments, argument names (of their
// locations, as the importers give them) and the names of their dims and of
// the results' (nd.dim_names, as the ONNX importer gives a model's symbolic
// dims; [] where none) become the module attribute nd.signature, which the
// lowering keeps for --nd-export-entry.

// CHECK: module attributes {nd.signature = {donated = array<i64: 0>, function = "main",
// CHECK-SAME: input_dim_names = {{\[\[}}], []],
// CHECK-SAME: inputs = [tensor<4x?xf32>, tensor<2x1xindex>], names = ["data", ""],
// CHECK-SAME: output_dim_names = {{\[\[}}], []],
// CHECK-SAME: outputs = [tensor<4x?xf32>, tensor<i8>]}}
// F: module attributes {nd.signature = {donated = array<i64>, function = "f",
// F-SAME: input_dim_names = [], inputs = [], names = [],
// F-SAME: output_dim_names = {{\[\[}}]], outputs = [tensor<2xui16>]}}
// NAMED: module attributes {nd.signature = {donated = array<i64>, function = "named",
// NAMED-SAME: input_dim_names = {{\[\[}}"N", ""], ["N", ""]],
// NAMED-SAME: output_dim_names = {{\[\[}}"N", ""]],
func.func @main(%data: tensor<4x?xf32> {nd.donated} loc("data"("model.onnx":0:0)),
                %indices: tensor<2x1xindex>) -> (tensor<4x?xf32>, tensor<i8>) {
  %c = arith.constant dense<1> : tensor<i8>
  return %data, %c : tensor<4x?xf32>, tensor<i8>
}
func.func @f() -> tensor<2xui16> {
  %c = arith.constant dense<7> : tensor<2xui16>
  return %c : tensor<2xui16>
}
func.func @named(%data: tensor<?x5xf32> {nd.dim_names = ["N", ""]},
                 %idx: tensor<?x4xi64> {nd.dim_names = ["N", ""]})
    -> (tensor<?x4xf32> {nd.dim_names = ["N", ""]}) {
  %r = nd.gather_elements %data[%idx] axis(1)
      : tensor<?x5xf32>, tensor<?x4xi64> -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
