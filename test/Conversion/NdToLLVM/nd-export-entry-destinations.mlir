// RUN: nd-opt %s --nd-export-entry=symbol=model | FileCheck %s

// An entry that --nd-result-destinations rewrote takes each result's
// destination after its inputs: the signature says so (destinations = 1,
// its last field), and the dims' names recorded from nd.dim_names become
// each nd_tensor_type's dim_names, an array of pointers to the names ("" for
// a dim without one), or null for a tensor that names no dim. Both
// attributes of the entry are gone.

// CHECK-LABEL: llvm.func private @main(
//   CHECK-NOT:   nd.result_buffers
//   CHECK-NOT:   nd.result_destinations
//       CHECK:   llvm.return

// CHECK-DAG: llvm.mlir.global private constant @[[N:__nd_signature_text[_0-9]*]]("N\00")
// CHECK-DAG: llvm.mlir.global private constant @[[EMPTY:__nd_signature_text[_0-9]*]]("\00")

// CHECK-LABEL: llvm.mlir.global private constant @__nd_signature_dim_names_inputs()
//       CHECK:   llvm.mlir.undef : !llvm.array<2 x ptr>
//       CHECK:   llvm.mlir.addressof @[[N]]
//       CHECK:   llvm.insertvalue {{.*}}[0] : !llvm.array<2 x ptr>
//       CHECK:   llvm.mlir.addressof @[[EMPTY]]
//       CHECK:   llvm.insertvalue {{.*}}[1] : !llvm.array<2 x ptr>

// CHECK-LABEL: llvm.mlir.global private constant @__nd_signature_inputs()
//       CHECK:   llvm.mlir.undef : !llvm.array<2 x struct<(i32, i32, ptr, ptr, i32, i32, ptr)>>
//       CHECK:   llvm.mlir.addressof @__nd_signature_dim_names_inputs :
//       CHECK:   llvm.insertvalue {{.*}}[6]
//       CHECK:   llvm.mlir.zero : !llvm.ptr
//       CHECK:   llvm.insertvalue {{.*}}[6]

// CHECK-LABEL: llvm.mlir.global private constant @__nd_signature_outputs()
//       CHECK:   llvm.mlir.addressof @__nd_signature_dim_names_outputs :

// CHECK-LABEL: llvm.mlir.global external @model_signature()
//       CHECK:   llvm.mlir.addressof @__nd_signature_outputs
//  CHECK-NEXT:   %[[DEST:.*]] = llvm.mlir.constant(1 : i32) : i32
//       CHECK:   llvm.insertvalue %[[DEST]], {{.*}}[7] : !llvm.struct<(i32, i32, i32, i32, ptr, ptr, ptr, i32)>

// CHECK-LABEL: llvm.func private @__nd_packed_main
//       CHECK:   llvm.getelementptr %{{.*}}[20]
//   CHECK-NOT:   llvm.getelementptr %{{.*}}[21]

module attributes {nd.signature = {
    donated = array<i64>, function = "main",
    inputs = [tensor<?x5xf32>, tensor<3xi64>], names = ["data", "idx"],
    outputs = [tensor<?x5xf32>],
    input_dim_names = [["N", ""], []], output_dim_names = [["N", ""]]}} {
  // Input 0: arguments 0-6 (rank 2); input 1: 7-11 (rank 1); the result's
  // destination: 12-18 (rank 2); the results' pointer 19; the state 20.
  llvm.func private @main(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64,
                          %a4: i64, %a5: i64, %a6: i64, %b0: !llvm.ptr,
                          %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64,
                          %d0: !llvm.ptr, %d1: !llvm.ptr, %d2: i64, %d3: i64,
                          %d4: i64, %d5: i64, %d6: i64,
                          %out: !llvm.ptr, %state: !llvm.ptr)
      attributes {nd.result_buffers = array<i64: -1>,
                  nd.result_destinations = 1 : i64} {
    llvm.return
  }
}
