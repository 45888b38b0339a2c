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
