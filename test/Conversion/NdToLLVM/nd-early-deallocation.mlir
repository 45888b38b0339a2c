// RUN: nd-opt %s --nd-early-deallocation | FileCheck %s

func.func private @op(%a: memref<4xf32>, %b: memref<4xf32>) attributes {nd_rt.op_function} {
  return
}
func.func private @other(%a: memref<4xf32>)
func.func private @op_with_result(%a: memref<4xf32>) -> i32 attributes {nd_rt.op_function}

// A chain: each buffer is freed right after the op that reads it last, in
// the order the deallocations had.
// CHECK-LABEL: func.func @chain
//       CHECK:   %[[A:.*]] = memref.alloc
//       CHECK:   memref.copy %{{.*}}, %[[A]]
//       CHECK:   %[[B:.*]] = memref.alloc
//       CHECK:   call @op(%[[A]], %[[B]])
//  CHECK-NEXT:   memref.dealloc %[[A]]
//       CHECK:   %[[C:.*]] = memref.alloc
//       CHECK:   call @op(%[[B]], %[[C]])
//  CHECK-NEXT:   memref.dealloc %[[B]]
//  CHECK-NEXT:   %[[X:.*]] = memref.load %[[C]]
//  CHECK-NEXT:   memref.dealloc %[[C]]
//  CHECK-NEXT:   return %[[X]]
func.func @chain(%in: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  memref.copy %in, %a : memref<4xf32> to memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  func.call @op(%a, %b) : (memref<4xf32>, memref<4xf32>) -> ()
  %c = memref.alloc() : memref<4xf32>
  func.call @op(%b, %c) : (memref<4xf32>, memref<4xf32>) -> ()
  %x = memref.load %c[%c0] : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  return %x : f32
}

// Uses that may keep the buffer or make a view of it leave its
// deallocation where it was: a call of a function that is not an op's, a
// call with results, a view. A use in a nested region counts where its
// ancestor in the block is.
// CHECK-LABEL: func.func @kept
//       CHECK:   call @other(%[[P:[a-z0-9_]+]])
//       CHECK:   call @op_with_result(%[[Q:[a-z0-9_]+]])
//       CHECK:   memref.subview %[[R:[a-z0-9_]+]]
//       CHECK:   scf.if
//       CHECK:     call @op(%[[S:[a-z0-9_]+]], %[[S]])
//       CHECK:   }
//  CHECK-NEXT:   memref.dealloc %[[S]]
//       CHECK:   memref.dealloc %[[P]]
//  CHECK-NEXT:   memref.dealloc %[[Q]]
//  CHECK-NEXT:   memref.dealloc %[[R]]
//  CHECK-NEXT:   return
func.func @kept(%flag: i1) {
  %p = memref.alloc() : memref<4xf32>
  func.call @other(%p) : (memref<4xf32>) -> ()
  %q = memref.alloc() : memref<4xf32>
  %r0 = func.call @op_with_result(%q) : (memref<4xf32>) -> i32
  %r = memref.alloc() : memref<4xf32>
  %v = memref.subview %r[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  %s = memref.alloc() : memref<4xf32>
  scf.if %flag {
    func.call @op(%s, %s) : (memref<4xf32>, memref<4xf32>) -> ()
  }
  %c0 = arith.constant 0 : index
  memref.dealloc %p : memref<4xf32>
  memref.dealloc %q : memref<4xf32>
  memref.dealloc %r : memref<4xf32>
  memref.dealloc %s : memref<4xf32>
  return
}

// A buffer allocated in another block (an argument here) and a
// deallocation inside a region stay.
// CHECK-LABEL: func.func @not_in_one_block
//       CHECK:   scf.if
//  CHECK-NEXT:     call @op
//  CHECK-NEXT:     memref.dealloc
//       CHECK:   call @op
//  CHECK-NEXT:   memref.dealloc %arg0
func.func @not_in_one_block(%arg: memref<4xf32>, %flag: i1) {
  %a = memref.alloc() : memref<4xf32>
  scf.if %flag {
    func.call @op(%a, %a) : (memref<4xf32>, memref<4xf32>) -> ()
    memref.dealloc %a : memref<4xf32>
  }
  func.call @op(%arg, %arg) : (memref<4xf32>, memref<4xf32>) -> ()
  memref.dealloc %arg : memref<4xf32>
  return
}
