// RUN: nd-opt %s -split-input-file --nd-fold-reshapes | FileCheck %s
// RUN: nd-opt %s -split-input-file --nd-fold-reshapes --expand-strided-metadata | FileCheck %s --check-prefix=META

// The expansion of a collapse back to the buffer's own sizes is the buffer,
// with two dynamic dims in a group (upstream's folder leaves this one), and
// the scf.if it makes trivial goes too.
// CHECK-LABEL: func.func @fold
//  CHECK-SAME:   (%[[M:[a-z0-9]+]]: memref<4x?x?xf32>
//   CHECK-NOT:   expand_shape
//   CHECK-NOT:   scf.if
//       CHECK:   return %[[M]] : memref<4x?x?xf32>
func.func @fold(%m: memref<4x?x?xf32>, %c: i1) -> memref<4x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.dim %m, %c1 : memref<4x?x?xf32>
  %b = memref.dim %m, %c2 : memref<4x?x?xf32>
  %flat = memref.collapse_shape %m [[0], [1, 2]] : memref<4x?x?xf32> into memref<4x?xf32>
  %r = scf.if %c -> memref<4x?x?xf32> {
    %e = memref.expand_shape %flat [[0], [1, 2]] output_shape [4, %a, %b] : memref<4x?xf32> into memref<4x?x?xf32>
    scf.yield %e : memref<4x?x?xf32>
  } else {
    scf.yield %m : memref<4x?x?xf32>
  }
  return %r : memref<4x?x?xf32>
}

// -----

// Sizes swapped: not the buffer. The expansion (two dynamic dims in a
// group) becomes a reinterpret_cast of the flat buffer (strides [s0, s1]):
// sizes [4, %b, %a], strides [s0, s1 * %a, s1] (s1 = 1 and the offset 0 for
// the identity layout), worked from the inner dim of each group out.
// expand-strided-metadata then takes it without crashing.
// CHECK-LABEL: func.func @swapped
//  CHECK-SAME:   (%[[M:[a-z0-9]+]]: memref<4x?x?xf32>
//       CHECK:   %[[A:.*]] = memref.dim %[[M]], %c1
//       CHECK:   %[[B:.*]] = memref.dim %[[M]], %c2
//       CHECK:   %[[FLAT:.*]] = memref.collapse_shape %[[M]]
//       CHECK:   %[[BASE:.*]], %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[FLAT]]
//       CHECK:   %[[CAST:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%c0], sizes: [4, %[[B]], %[[A]]], strides: [%[[STRIDES]]#0, %[[A]], %c1]
//       CHECK:   memref.cast %[[CAST]] : memref<4x?x?xf32, strided<[?, ?, ?], offset: ?>> to memref<4x?x?xf32>
//   CHECK-NOT:   expand_shape
// META-LABEL: func.func @swapped
//       META:   return
func.func @swapped(%m: memref<4x?x?xf32>) -> memref<4x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %a = memref.dim %m, %c1 : memref<4x?x?xf32>
  %b = memref.dim %m, %c2 : memref<4x?x?xf32>
  %flat = memref.collapse_shape %m [[0], [1, 2]] : memref<4x?x?xf32> into memref<4x?xf32>
  %e = memref.expand_shape %flat [[0], [1, 2]] output_shape [4, %b, %a] : memref<4x?xf32> into memref<4x?x?xf32>
  return %e : memref<4x?x?xf32>
}

// -----

// One dynamic dim per group: left to upstream.
// CHECK-LABEL: func.func @one_dynamic
//       CHECK:   memref.expand_shape
// META-LABEL: func.func @one_dynamic
//       META:   memref.reinterpret_cast
func.func @one_dynamic(%m: memref<?xf32>, %a: index) -> memref<?x128xf32> {
  %e = memref.expand_shape %m [[0, 1]] output_shape [%a, 128] : memref<?xf32> into memref<?x128xf32>
  return %e : memref<?x128xf32>
}
