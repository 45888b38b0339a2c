// RUN: nd-opt %s --nd-record-signature | FileCheck %s
// RUN: nd-opt %s --nd-record-signature=function=f | FileCheck %s --check-prefix=F

// The entry's tensor types, donated arguments and argument names (of their
// locations, as the importers give them) become the module attribute
// nd.signature, which the lowering keeps for --nd-export-entry.

// CHECK: module attributes {nd.signature = {donated = array<i64: 0>, function = "main",
// CHECK-SAME: inputs = [tensor<4x?xf32>, tensor<2x1xindex>], names = ["data", ""],
// CHECK-SAME: outputs = [tensor<4x?xf32>, tensor<i8>]}}
// F: module attributes {nd.signature = {donated = array<i64>, function = "f",
// F-SAME: inputs = [], names = [], outputs = [tensor<2xui16>]}}
func.func @main(%data: tensor<4x?xf32> {nd.donated} loc("data"("model.onnx":0:0)),
                %indices: tensor<2x1xindex>) -> (tensor<4x?xf32>, tensor<i8>) {
  %c = arith.constant dense<1> : tensor<i8>
  return %data, %c : tensor<4x?xf32>, tensor<i8>
}
func.func @f() -> tensor<2xui16> {
  %c = arith.constant dense<7> : tensor<2xui16>
  return %c : tensor<2xui16>
}
