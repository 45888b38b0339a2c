// RUN: nd-opt %s --nd-to-llvm | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm | nd-opt | FileCheck %s
// RUN: nd-opt %s --nd-to-llvm | %mlir_opt | FileCheck %s --check-prefix=PARSED

// A function with N results returns an LLVM struct of N memref descriptors,
// which every insertvalue that builds it names: printed in full each time,
// the text would grow as N squared. Structs of more than eight members get
// a name (a type alias) at the top of the module, which the printed IR
// uses; structs of up to eight members, memref descriptors among them, print
// in full. nd-opt prints LLVM IR it reads in the same way (the second RUN
// line), and stock mlir-opt parses the result.

// CHECK: !llvm_struct_9_members = !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>,
// CHECK-LABEL: llvm.func @nine(
//  CHECK-SAME:   -> !llvm_struct_9_members
//       CHECK:   llvm.mlir.poison : !llvm_struct_9_members
//       CHECK:   llvm.insertvalue %{{.*}}[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
//   CHECK-NOT:   !llvm.struct<(struct<
//       CHECK:   llvm.return %{{.*}} : !llvm_struct_9_members
// CHECK-LABEL: llvm.func @two(
//  CHECK-SAME:   -> !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)>

// PARSED-LABEL: llvm.func @nine(
//  PARSED-SAME:   -> !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>, struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>,

func.func @nine(%data: tensor<8xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
        tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %s = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<2x1xi64>, tensor<2xf32>
  %t = nd.scatter_nd %s[%indices], %updates reduction<add> : tensor<8xf32>, tensor<2x1xi64>, tensor<2xf32>
  return %s, %t, %s, %t, %s, %t, %s, %t, %data
      : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>,
        tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

func.func @two(%data: tensor<8xf32>, %indices: tensor<2x1xi64>, %updates: tensor<2xf32>)
    -> (tensor<8xf32>, tensor<8xf32>) {
  %s = nd.scatter_nd %data[%indices], %updates : tensor<8xf32>, tensor<2x1xi64>, tensor<2xf32>
  return %s, %data : tensor<8xf32>, tensor<8xf32>
}
