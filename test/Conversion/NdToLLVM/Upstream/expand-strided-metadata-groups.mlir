// MLIR 22: expand-strided-metadata crashes on a memref.expand_shape with two
// dynamic dims in one group (upstream issue #186830, fixed in upstream main
// by PR #187844). nd's --nd-fold-reshapes turns such an expansion into a
// reinterpret_cast first (test/Conversion/NdToLLVM/nd-fold-reshapes.mlir);
// once the upstream pass stops crashing, the first RUN line fails and that
// rewrite can go (docs/Rationale.md, "Bridges over gaps of MLIR 22").
// RUN: not --crash %mlir_opt %s --expand-strided-metadata
// RUN: nd-opt %s --nd-fold-reshapes --expand-strided-metadata | FileCheck %s

// CHECK-LABEL: func.func @expand
//   CHECK-NOT:   memref.expand_shape
//       CHECK:   memref.reinterpret_cast
func.func @expand(%flat: memref<4x?xf32>, %a: index, %b: index) -> memref<4x?x?xf32> {
  %e = memref.expand_shape %flat [[0], [1, 2]] output_shape [4, %a, %b] : memref<4x?xf32> into memref<4x?x?xf32>
  return %e : memref<4x?x?xf32>
}
