// MLIR 22: the canonicalizer does not fold the expansion of a collapse back
// to the buffer when a group has two dynamic dims, even where the
// expansion's sizes are the buffer's own (memref.dim of it). nd's
// --nd-fold-reshapes does (test/Conversion/NdToLLVM/nd-fold-reshapes.mlir);
// once upstream's folder does too, the UPSTREAM check fails and the fold
// can go (docs/Rationale.md, "Bridges over gaps of MLIR 22").
// RUN: %mlir_opt %s --canonicalize | FileCheck %s --check-prefix=UPSTREAM
// RUN: nd-opt %s --nd-fold-reshapes | FileCheck %s --check-prefix=ND

// UPSTREAM-LABEL: func.func @expand_of_collapse
//       UPSTREAM:   %[[FLAT:.*]] = memref.collapse_shape
//       UPSTREAM:   %[[E:.*]] = memref.expand_shape %[[FLAT]]
//       UPSTREAM:   return %[[E]]
// ND-LABEL: func.func @expand_of_collapse
//  ND-SAME:   (%[[M:.*]]: memref<4x?x?xf32>)
//   ND-NOT:   memref.expand_shape
//       ND:   return %[[M]]
func.func @expand_of_collapse(%m: memref<4x?x?xf32>) -> memref<4x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.dim %m, %c1 : memref<4x?x?xf32>
  %b = memref.dim %m, %c2 : memref<4x?x?xf32>
  %flat = memref.collapse_shape %m [[0], [1, 2]] : memref<4x?x?xf32> into memref<4x?xf32>
  %e = memref.expand_shape %flat [[0], [1, 2]] output_shape [4, %a, %b] : memref<4x?xf32> into memref<4x?x?xf32>
  return %e : memref<4x?x?xf32>
}
