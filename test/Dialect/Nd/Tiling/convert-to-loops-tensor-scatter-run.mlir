// RUN: nd-opt %s -transform-preload-library=transform-library-paths=%S/Inputs/convert-to-loops.mlir -transform-interpreter --lower-affine --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// tensor_scatter on buffers runs as loops around its scalar implementation,
// which resolves each batch entry's write index with the op's write-index
// rule: in linear mode a write index must lie in [0, S - L] (S the cache's
// length along the axis, L the update's), in circular mode it must not be
// negative and the positions wrap modulo S. An entry whose write index is
// bad writes nothing (oob<skip>); oob<clamp> clamps it into range. Expected
// values worked out by hand from the rule (S = 5, L = 2: last start 3;
// circular S = 4, L = 3).

memref.global "private" constant @zeros_3x5 : memref<3x5xf32> = dense<0.0>
memref.global "private" constant @zeros_1x4 : memref<1x4xf32> = dense<0.0>
memref.global "private" constant @upd_3x2 : memref<3x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]>
memref.global "private" constant @upd_1x3 : memref<1x3xf32> = dense<[[5.0, 6.0, 7.0]]>
memref.global "private" constant @w_linear : memref<3xi64> = dense<[1, 3, 0]>
memref.global "private" constant @w_bad : memref<3xi64> = dense<[4, -1, 3]>
memref.global "private" constant @w_clamp : memref<3xi64> = dense<[7, -2, 2]>
memref.global "private" constant @w_wrap : memref<1xi64> = dense<[3]>
memref.global "private" constant @w_below : memref<1xi64> = dense<[-5]>

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @linear(%w: memref<3xi64>) {
  %z = memref.get_global @zeros_3x5 : memref<3x5xf32>
  %u = memref.get_global @upd_3x2 : memref<3x2xf32>
  %c = memref.alloc() : memref<3x5xf32>
  memref.copy %z, %c : memref<3x5xf32> to memref<3x5xf32>
  nd.tensor_scatter %c[%w], %u axis(1) oob<skip> : memref<3x5xf32>[memref<3xi64>], memref<3x2xf32>
  %p = memref.cast %c : memref<3x5xf32> to memref<*xf32>
  call @printMemrefF32(%p) : (memref<*xf32>) -> ()
  memref.dealloc %c : memref<3x5xf32>
  return
}

func.func @clamped(%w: memref<3xi64>) {
  %z = memref.get_global @zeros_3x5 : memref<3x5xf32>
  %u = memref.get_global @upd_3x2 : memref<3x2xf32>
  %c = memref.alloc() : memref<3x5xf32>
  memref.copy %z, %c : memref<3x5xf32> to memref<3x5xf32>
  nd.tensor_scatter %c[%w], %u axis(1) oob<clamp> : memref<3x5xf32>[memref<3xi64>], memref<3x2xf32>
  %p = memref.cast %c : memref<3x5xf32> to memref<*xf32>
  call @printMemrefF32(%p) : (memref<*xf32>) -> ()
  memref.dealloc %c : memref<3x5xf32>
  return
}

func.func @circular(%w: memref<1xi64>) {
  %z = memref.get_global @zeros_1x4 : memref<1x4xf32>
  %u = memref.get_global @upd_1x3 : memref<1x3xf32>
  %c = memref.alloc() : memref<1x4xf32>
  memref.copy %z, %c : memref<1x4xf32> to memref<1x4xf32>
  nd.tensor_scatter %c[%w], %u axis(1) mode<circular> oob<clamp> : memref<1x4xf32>[memref<1xi64>], memref<1x3xf32>
  %p = memref.cast %c : memref<1x4xf32> to memref<*xf32>
  call @printMemrefF32(%p) : (memref<*xf32>) -> ()
  memref.dealloc %c : memref<1x4xf32>
  return
}

// Linear, write indices 1, 3 and 0.
// CHECK: {{\[\[}}0, 1, 2, 0, 0],
// CHECK-NEXT: [0, 0, 0, 3, 4],
// CHECK-NEXT: [5, 6, 0, 0, 0]]
// oob<skip>: 4 is past the last start 3, -1 negative: only the third writes.
// CHECK: {{\[\[}}0, 0, 0, 0, 0],
// CHECK-NEXT: [0, 0, 0, 0, 0],
// CHECK-NEXT: [0, 0, 0, 5, 6]]
// oob<clamp>: 7 becomes 3, -2 becomes 0, 2 stays.
// CHECK: {{\[\[}}0, 0, 0, 1, 2],
// CHECK-NEXT: [3, 4, 0, 0, 0],
// CHECK-NEXT: [0, 0, 5, 6, 0]]
// Circular from 3: positions 3, 0, 1.
// CHECK: {{\[\[}}6, 7, 0, 5]]
// Circular, oob<clamp>: -5 becomes 0 (no upper clamp in circular mode).
// CHECK: {{\[\[}}5, 6, 7, 0]]
func.func @main() {
  %wl = memref.get_global @w_linear : memref<3xi64>
  call @linear(%wl) : (memref<3xi64>) -> ()
  %wb = memref.get_global @w_bad : memref<3xi64>
  call @linear(%wb) : (memref<3xi64>) -> ()
  %wc = memref.get_global @w_clamp : memref<3xi64>
  call @clamped(%wc) : (memref<3xi64>) -> ()
  %ww = memref.get_global @w_wrap : memref<1xi64>
  call @circular(%ww) : (memref<1xi64>) -> ()
  %wn = memref.get_global @w_below : memref<1xi64>
  call @circular(%wn) : (memref<1xi64>) -> ()
  return
}
