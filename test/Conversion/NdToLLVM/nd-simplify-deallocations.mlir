// RUN: nd-opt %s --nd-simplify-deallocations=max-buffers=2 | FileCheck %s
// RUN: nd-opt %s --nd-simplify-deallocations | FileCheck %s --check-prefix=ALL

// Upstream's simplification runs on the functions whose dealloc ops list at
// most max-buffers buffers (here it finds that the buffers are distinct,
// unused allocations and removes them with their dealloc). In the others, a
// dealloc op whose buffers come from distinct allocations (and arguments,
// never freed) is resolved in linear time: each allocation is freed unless
// it is retained (under its condition), and a retained value owns what its
// allocation's conditions say. Any other dealloc op stays.

// CHECK-LABEL: func.func @few
//  CHECK-NEXT:   return
// ALL-LABEL: func.func @few
//  ALL-NEXT:   return
func.func @few() {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%a, %b : memref<4xf32>, memref<4xf32>) if (%true, %true)
  return
}

// CHECK-LABEL: func.func @many
//  CHECK-SAME:   (%[[COND:.*]]: i1)
//       CHECK:   %[[A:.*]] = memref.alloc() : memref<4xf32>
//       CHECK:   %[[B:.*]] = memref.alloc() : memref<4xf32>
//       CHECK:   %[[C:.*]] = memref.alloc() : memref<4xf32>
//   CHECK-NOT:   bufferization.dealloc
//       CHECK:   memref.dealloc %[[A]] : memref<4xf32>
//       CHECK:   scf.if %[[COND]] {
//  CHECK-NEXT:     memref.dealloc %[[B]] : memref<4xf32>
//   CHECK-NOT:   memref.dealloc
//       CHECK:   return
// ALL-LABEL: func.func @many
//   ALL-NOT:   bufferization.dealloc
//       ALL:   return
// ALL-LABEL: func.func @retained
func.func @many(%cond: i1) {
  %true = arith.constant true
  %false = arith.constant false
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%a, %b, %c : memref<4xf32>, memref<4xf32>, memref<4xf32>) if (%true, %cond, %false)
  return
}

// Retained values: the allocations of the fresh results of nd-like private
// functions (which return an allocation of their own), views included, and
// an argument, never freed.
// CHECK-LABEL: func.func @retained
//  CHECK-SAME:   (%[[ARG:.*]]: memref<8xf32>)
//       CHECK:   %[[X:.*]] = call @fresh()
//       CHECK:   %[[Y:.*]] = call @fresh()
//       CHECK:   %[[Z:.*]] = call @fresh()
//   CHECK-NOT:   bufferization.dealloc
//       CHECK:   %[[BASE:[a-z_0-9]+]], {{.*}} = memref.extract_strided_metadata %[[Y]]
//       CHECK:   memref.dealloc %[[BASE]] : memref<f32>
//   CHECK-NOT:   memref.dealloc
//       CHECK:   return %[[X]], %{{.*}}, %[[ARG]], %true, %true, %false
func.func private @fresh() -> memref<8xf32> {
  %a = memref.alloc() : memref<8xf32>
  return %a : memref<8xf32>
}
func.func @retained(%arg: memref<8xf32>) -> (memref<8xf32>, memref<2xf32, strided<[1], offset: 2>>, memref<8xf32>, i1, i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %x = call @fresh() : () -> memref<8xf32>
  %y = call @fresh() : () -> memref<8xf32>
  %z = call @fresh() : () -> memref<8xf32>
  %view = memref.subview %z[2] [2] [1] : memref<8xf32> to memref<2xf32, strided<[1], offset: 2>>
  %bx, %ox, %sx, %tx = memref.extract_strided_metadata %x : memref<8xf32> -> memref<f32>, index, index, index
  %by, %oy, %sy, %ty = memref.extract_strided_metadata %y : memref<8xf32> -> memref<f32>, index, index, index
  %bz, %oz, %sz, %tz = memref.extract_strided_metadata %z : memref<8xf32> -> memref<f32>, index, index, index
  %ba, %oa, %sa, %ta = memref.extract_strided_metadata %arg : memref<8xf32> -> memref<f32>, index, index, index
  %own:3 = bufferization.dealloc (%ba, %bx, %by, %bz : memref<f32>, memref<f32>, memref<f32>, memref<f32>) if (%false, %true, %true, %true) retain (%x, %view, %arg : memref<8xf32>, memref<2xf32, strided<[1], offset: 2>>, memref<8xf32>)
  return %x, %view, %arg, %own#0, %own#1, %own#2 : memref<8xf32>, memref<2xf32, strided<[1], offset: 2>>, memref<8xf32>, i1, i1, i1
}

// The result of an external function may alias anything: the dealloc op
// stays, as does one that may free an argument.
// CHECK-LABEL: func.func @unknown
//       CHECK:   bufferization.dealloc
// CHECK-LABEL: func.func @argument
//       CHECK:   bufferization.dealloc
func.func private @external() -> memref<4xf32>
func.func @unknown() {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %e = call @external() : () -> memref<4xf32>
  bufferization.dealloc (%a, %b, %e : memref<4xf32>, memref<4xf32>, memref<4xf32>) if (%true, %true, %true)
  return
}
func.func @argument(%arg: memref<4xf32>, %cond: i1) {
  %true = arith.constant true
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%a, %b, %arg : memref<4xf32>, memref<4xf32>, memref<4xf32>) if (%true, %true, %cond)
  return
}
