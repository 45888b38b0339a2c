// RUN: nd-opt %s -transform-preload-library=transform-library-paths=%S/Inputs/convert-to-loops.mlir -transform-interpreter --lower-affine --convert-scf-to-cf --expand-strided-metadata --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils | FileCheck %s

// The nd ops on buffers run as loops around their scalar implementation:
// the ONNX specifications' examples (GatherND example 5 with -1 for 1, its
// rows [1, :] printed; ScatterND add with a duplicate; ScatterElements with
// duplicate indices; Gather axis 1) and OpenVINO Gather-8's zeros for an
// index out of range.

memref.global "private" constant @gnd_data : memref<2x2x2xf32> = dense<[[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]>
memref.global "private" constant @gnd_idx : memref<2x1xi64> = dense<[[-1], [0]]>
memref.global "private" constant @snd_data : memref<4x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]>
memref.global "private" constant @snd_idx : memref<3x1xi64> = dense<[[0], [2], [0]]>
memref.global "private" constant @snd_upd : memref<3x2xf32> = dense<[[10.0, 20.0], [30.0, 40.0], [50.0, 60.0]]>
memref.global "private" constant @se_data : memref<1x5xf32> = dense<[[1.0, 2.0, 3.0, 4.0, 5.0]]>
memref.global "private" constant @se_idx : memref<1x2xi64> = dense<[[1, 1]]>
memref.global "private" constant @se_upd : memref<1x2xf32> = dense<[[1.1, 2.1]]>
memref.global "private" constant @g_data : memref<3x3xf32> = dense<[[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]]>
memref.global "private" constant @g_idx : memref<1x3xi64> = dense<[[0, 2, 7]]>

func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

// CHECK: {{\[\[}}6, 7],
// CHECK-NEXT: [2, 3]]
// CHECK: {{\[\[}}61, 82],
// CHECK-NEXT: [3, 4],
// CHECK-NEXT: [35, 46],
// CHECK-NEXT: [7, 8]]
// CHECK: {{\[\[}}1, 5.2, 3, 4, 5]]
// CHECK: {{\[\[\[}}1, 1.9, 0]],
// CHECK-NEXT: {{\[\[}}2.3, 3.9, 0]],
// CHECK-NEXT: {{\[\[}}4.5, 5.9, 0]]]
func.func @main() {
  %gd = memref.get_global @gnd_data : memref<2x2x2xf32>
  %gi = memref.get_global @gnd_idx : memref<2x1xi64>
  %go = memref.alloc() : memref<2x2x2xf32>
  nd.gather_nd %gd[%gi] into %go : memref<2x2x2xf32>, memref<2x1xi64> into memref<2x2x2xf32>
  %gv = memref.subview %go[0, 1, 0] [2, 1, 2] [1, 1, 1] : memref<2x2x2xf32> to memref<2x2xf32, strided<[4, 1], offset: 2>>
  %gu = memref.cast %gv : memref<2x2xf32, strided<[4, 1], offset: 2>> to memref<*xf32>
  call @printMemrefF32(%gu) : (memref<*xf32>) -> ()

  %sd = memref.get_global @snd_data : memref<4x2xf32>
  %si = memref.get_global @snd_idx : memref<3x1xi64>
  %su = memref.get_global @snd_upd : memref<3x2xf32>
  %s = memref.alloc() : memref<4x2xf32>
  memref.copy %sd, %s : memref<4x2xf32> to memref<4x2xf32>
  nd.scatter_nd %s[%si], %su reduction<add> : memref<4x2xf32>, memref<3x1xi64>, memref<3x2xf32>
  %sc = memref.cast %s : memref<4x2xf32> to memref<*xf32>
  call @printMemrefF32(%sc) : (memref<*xf32>) -> ()

  %ed = memref.get_global @se_data : memref<1x5xf32>
  %ei = memref.get_global @se_idx : memref<1x2xi64>
  %eu = memref.get_global @se_upd : memref<1x2xf32>
  %e = memref.alloc() : memref<1x5xf32>
  memref.copy %ed, %e : memref<1x5xf32> to memref<1x5xf32>
  nd.scatter_elements %e[%ei], %eu axis(1) reduction<add> : memref<1x5xf32>, memref<1x2xi64>, memref<1x2xf32>
  %ec = memref.cast %e : memref<1x5xf32> to memref<*xf32>
  call @printMemrefF32(%ec) : (memref<*xf32>) -> ()

  %d = memref.get_global @g_data : memref<3x3xf32>
  %i = memref.get_global @g_idx : memref<1x3xi64>
  %o = memref.alloc() : memref<3x1x3xf32>
  nd.gather %d[%i] into %o axis(1) oob<skip> : memref<3x3xf32>, memref<1x3xi64> into memref<3x1x3xf32>
  %oc = memref.cast %o : memref<3x1x3xf32> to memref<*xf32>
  call @printMemrefF32(%oc) : (memref<*xf32>) -> ()
  memref.dealloc %go : memref<2x2x2xf32>
  memref.dealloc %s : memref<4x2xf32>
  memref.dealloc %e : memref<1x5xf32>
  memref.dealloc %o : memref<3x1x3xf32>
  return
}
