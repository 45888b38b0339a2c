// RUN: nd-opt %s -split-input-file --nd-export-entry=symbol=model | FileCheck %s
// RUN: nd-opt %s -split-input-file --nd-export-entry | FileCheck %s --check-prefix=SAME-NAME

// The recorded signature (two inputs: f32 [4, ?] donated, named "data", and
// i64 [2]; one output, input 0's buffer per nd.result_buffers) becomes the
// nd_signature of nd-c/Runtime.h: ABI version 2, 2 inputs, 1 output,
// default threads 0, the entry's name, and one nd_tensor_type per tensor
// (dtype: f32 = 11, i64 = 4; rank; dims with -1 for a dynamic one; name;
// donated; alias; dim names, null without any), and whether the entry takes
// destinations (0: it was not through --nd-result-destinations). The
// exported entry hands everything to nd_runtime_invoke
// with a private wrapper that loads each argument of @main from an array of
// pointers. Both attributes are gone.

// CHECK-NOT: nd.signature
// CHECK: llvm.func @nd_runtime_invoke(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i64, !llvm.ptr, i64) -> i32

// CHECK-LABEL: llvm.func private @main(
//   CHECK-NOT:   nd.result_buffers
//       CHECK:   llvm.return

// CHECK-DAG: llvm.mlir.global private constant @[[NAME:__nd_signature_text[_0-9]*]]("model\00")
// CHECK-DAG: llvm.mlir.global private constant @[[DATA:__nd_signature_text[_0-9]*]]("data\00")
// CHECK-DAG: llvm.mlir.global private constant @[[EMPTY:__nd_signature_text[_0-9]*]]("\00")
// CHECK-DAG: llvm.mlir.global private constant @[[IDIMS:__nd_signature_dims_inputs]](dense<[4, -1, 2]> : tensor<3xi64>)

// CHECK-LABEL: llvm.mlir.global private constant @__nd_signature_inputs()
//       CHECK:   llvm.mlir.undef : !llvm.array<2 x struct<(i32, i32, ptr, ptr, i32, i32, ptr)>>
//       CHECK:   %[[D0:.*]] = llvm.mlir.addressof @[[IDIMS]]
//       CHECK:   llvm.getelementptr %[[D0]][0, 0]
//       CHECK:   llvm.mlir.constant(11 : i32) : i32
//       CHECK:   llvm.mlir.constant(2 : i32) : i32
//       CHECK:   llvm.mlir.addressof @[[DATA]]
//       CHECK:   llvm.mlir.constant(1 : i32) : i32
//       CHECK:   llvm.mlir.constant(-1 : i32) : i32
//       CHECK:   %[[D1:.*]] = llvm.mlir.addressof @[[IDIMS]]
//       CHECK:   llvm.getelementptr %[[D1]][0, 2]
//       CHECK:   llvm.mlir.constant(4 : i32) : i32
//       CHECK:   llvm.mlir.constant(1 : i32) : i32
//       CHECK:   llvm.mlir.addressof @[[EMPTY]]
//       CHECK:   llvm.mlir.constant(0 : i32) : i32
//       CHECK:   llvm.mlir.constant(-1 : i32) : i32
//       CHECK: llvm.mlir.global private constant @[[ODIMS:__nd_signature_dims_outputs]](dense<[4, -1]> : tensor<2xi64>)

// CHECK-LABEL: llvm.mlir.global private constant @__nd_signature_outputs()
//       CHECK:   llvm.mlir.addressof @[[ODIMS]]
//       CHECK:   llvm.mlir.constant(11 : i32) : i32
//       CHECK:   llvm.mlir.constant(2 : i32) : i32
//       CHECK:   llvm.mlir.addressof @[[EMPTY]]
//       CHECK:   llvm.mlir.constant(0 : i32) : i32
//       CHECK:   llvm.mlir.constant(0 : i32) : i32

// CHECK-LABEL: llvm.mlir.global external @model_signature()
//       CHECK:   llvm.mlir.constant(2 : i32) : i32
//       CHECK:   llvm.mlir.constant(2 : i32) : i32
//       CHECK:   llvm.mlir.constant(1 : i32) : i32
//       CHECK:   llvm.mlir.constant(0 : i32) : i32
//       CHECK:   llvm.mlir.addressof @[[NAME]]
//       CHECK:   llvm.mlir.addressof @__nd_signature_inputs
//       CHECK:   llvm.mlir.addressof @__nd_signature_outputs
//       CHECK:   llvm.mlir.constant(0 : i32) : i32
//       CHECK:   llvm.return %{{.*}} : !llvm.struct<(i32, i32, i32, i32, ptr, ptr, ptr, i32)>

// CHECK-LABEL: llvm.func private @__nd_packed_main
//  CHECK-SAME:   (%[[ARGS:.*]]: !llvm.ptr)
//       CHECK:   %[[S0:.*]] = llvm.getelementptr %[[ARGS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       CHECK:   %[[P0:.*]] = llvm.load %[[S0]] : !llvm.ptr -> !llvm.ptr
//       CHECK:   %[[V0:.*]] = llvm.load %[[P0]] : !llvm.ptr -> !llvm.ptr
//       CHECK:   %[[S13:.*]] = llvm.getelementptr %[[ARGS]][13]
//       CHECK:   %[[P13:.*]] = llvm.load %[[S13]] : !llvm.ptr -> !llvm.ptr
//       CHECK:   %[[V13:.*]] = llvm.load %[[P13]] : !llvm.ptr -> !llvm.ptr
//       CHECK:   llvm.call @main(%[[V0]], {{.*}}, %[[V13]])
//   CHECK-NOT:   llvm.getelementptr %[[ARGS]][14]

// CHECK-LABEL: llvm.func @model
//  CHECK-SAME:   (%[[CTX:.*]]: !llvm.ptr, %[[IN:.*]]: !llvm.ptr, %[[NIN:.*]]: i64, %[[OUT:.*]]: !llvm.ptr, %[[NOUT:.*]]: i64) -> i32
//       CHECK:   %[[SIG:.*]] = llvm.mlir.addressof @model_signature
//       CHECK:   %[[FN:.*]] = llvm.mlir.addressof @__nd_packed_main
//       CHECK:   %[[R:.*]] = llvm.call @nd_runtime_invoke(%[[SIG]], %[[FN]], %[[CTX]], %[[IN]], %[[NIN]], %[[OUT]], %[[NOUT]])
//       CHECK:   llvm.return %[[R]] : i32

// Exported under its own name, the entry gives the name up: it is renamed,
// its callers follow.
// SAME-NAME: llvm.func private @__nd_main(
// SAME-NAME: llvm.mlir.global external @main_signature()
// SAME-NAME: llvm.func private @__nd_packed___nd_main
// SAME-NAME:   llvm.call @__nd_main(
// SAME-NAME: llvm.func @main(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: !llvm.ptr, %{{.*}}: i64) -> i32

module attributes {nd.signature = {
    donated = array<i64: 0>, function = "main",
    inputs = [tensor<4x?xf32>, tensor<2xi64>], names = ["data", ""],
    outputs = [tensor<4x?xf32>]}} {
  // Input 0: fields 0-6 (rank 2); input 1: fields 7-11 (rank 1); then the
  // results' pointer and the call state.
  llvm.func private @main(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64,
                          %a4: i64, %a5: i64, %a6: i64, %b0: !llvm.ptr,
                          %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64,
                          %out: !llvm.ptr, %state: !llvm.ptr)
      attributes {nd.result_buffers = array<i64: 0>} {
    llvm.return
  }
}
