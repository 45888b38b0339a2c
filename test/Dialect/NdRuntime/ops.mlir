// RUN: nd-opt %s | FileCheck %s
// RUN: nd-opt %s | nd-opt | FileCheck %s
// RUN: nd-opt %s --mlir-print-op-generic | nd-opt | FileCheck %s
// RUN: nd-opt %s --cse --canonicalize --loop-invariant-code-motion | FileCheck %s --check-prefix=CSE

// Each nd_rt op in its custom form, printed as it was parsed (and through the
// generic form).

// CHECK-LABEL: func.func @report
//  CHECK-SAME:   (%[[A:.*]]: i64, %[[B:.*]]: i64)
//       CHECK:   nd_rt.report "x.mlir:1:2: nd.gather: index %lld out of range (size %lld), 100%% sure" (%[[A]], %[[B]])
//       CHECK:   nd_rt.report "no values" (%[[B]], %[[A]])
func.func @report(%a: i64, %b: i64) {
  nd_rt.report "x.mlir:1:2: nd.gather: index %lld out of range (size %lld), 100%% sure" (%a, %b)
  nd_rt.report "no values" (%b, %a)
  return
}

// CHECK-LABEL: func.func private @shared
//  CHECK-SAME:   (%[[A:.*]]: i64, %[[SITE:.*]]: i64)
//       CHECK:   nd_rt.report_at %[[SITE]] "nd.gather: index %lld (size %lld)" (%[[A]], %[[A]])
func.func private @shared(%a: i64, %site: i64) {
  nd_rt.report_at %site "nd.gather: index %lld (size %lld)" (%a, %a)
  return
}

// CHECK-LABEL: func.func @site
//       CHECK:   %[[S:.*]] = nd_rt.site "a.mlir:3:4"
//       CHECK:   call @shared(%{{.*}}, %[[S]])
func.func @site(%a: i64) {
  %s = nd_rt.site "a.mlir:3:4"
  func.call @shared(%a, %s) : (i64, i64) -> ()
  return
}

// CHECK-LABEL: func.func @threads_and_fence
//       CHECK:   %[[T:.*]] = nd_rt.max_threads
//       CHECK:   nd_rt.store_fence
//       CHECK:   return %[[T]] : index
func.func @threads_and_fence() -> index {
  %t = nd_rt.max_threads
  nd_rt.store_fence
  return %t : index
}

// A static buffer as the address of its first element, and back.
// CHECK-LABEL: func.func @buffer_address_and_back
//  CHECK-SAME:   (%[[BUF:.*]]: memref<8x16xf32>)
//       CHECK:   %[[P:.*]] = nd_rt.buffer_address %[[BUF]] : memref<8x16xf32>
//       CHECK:   %[[V:.*]] = nd_rt.buffer_at %[[P]] : memref<8x16xf32>
//       CHECK:   return %[[V]] : memref<8x16xf32>
func.func @buffer_address_and_back(%buffer: memref<8x16xf32>) -> memref<8x16xf32> {
  %p = nd_rt.buffer_address %buffer : memref<8x16xf32>
  %v = nd_rt.buffer_at %p : memref<8x16xf32>
  return %v : memref<8x16xf32>
}

// Unlike the ops that stand for calls, the buffer's address and view are
// pure: CSE merges them, and an unused one goes.
// CSE-LABEL: func.func @buffer_ops_are_pure
//  CSE-COUNT-1:   nd_rt.buffer_address
//    CSE-NOT:   nd_rt.buffer_at
//       CSE:   return
func.func @buffer_ops_are_pure(%buffer: memref<4xi64>) -> (!llvm.ptr, !llvm.ptr) {
  %p1 = nd_rt.buffer_address %buffer : memref<4xi64>
  %p2 = nd_rt.buffer_address %buffer : memref<4xi64>
  %v = nd_rt.buffer_at %p1 : memref<4xi64>
  return %p1, %p2 : !llvm.ptr, !llvm.ptr
}

// The ops stand for calls: nothing merges, hoists or drops them.
// CHECK-LABEL: func.func @kept_by_cse_and_canonicalize
// CSE-LABEL: func.func @kept_by_cse_and_canonicalize
//  CSE-COUNT-2:   nd_rt.max_threads
//  CSE-COUNT-2:   nd_rt.site "a.mlir:3:4"
//  CSE-COUNT-2:   nd_rt.store_fence
//        CSE:   scf.for
//   CSE-NEXT:     nd_rt.max_threads
func.func @kept_by_cse_and_canonicalize(%n: index) {
  %t1 = nd_rt.max_threads
  %t2 = nd_rt.max_threads
  %s1 = nd_rt.site "a.mlir:3:4"
  %s2 = nd_rt.site "a.mlir:3:4"
  nd_rt.store_fence
  nd_rt.store_fence
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t3 = nd_rt.max_threads
  }
  return
}
