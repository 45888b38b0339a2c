// RUN: nd-opt %s --nd-to-llvm | FileCheck %s
// RUN: nd-opt %s --nd-to-gpu=run-on-host=true | FileCheck %s

// A model's reshape into several dynamic dims of one group reaches the LLVM
// dialect, in both pipelines (they share the bridge): nd-fold-reshapes rewrites its memref.expand_shape before
// expand-strided-metadata, which crashes on it in MLIR 22
// (test/Conversion/NdToLLVM/Upstream/expand-strided-metadata-groups.mlir).
// CHECK-LABEL: llvm.func @expand
//   CHECK-NOT:   memref.
//       CHECK:   llvm.return
func.func @expand(%t: tensor<4x?xf32>, %a: index, %b: index) -> tensor<4x?x?xf32> {
  %e = tensor.expand_shape %t [[0], [1, 2]] output_shape [4, %a, %b] : tensor<4x?xf32> into tensor<4x?x?xf32>
  return %e : tensor<4x?x?xf32>
}
