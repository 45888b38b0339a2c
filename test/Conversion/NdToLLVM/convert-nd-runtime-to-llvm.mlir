// RUN: nd-opt %s --convert-nd-runtime-to-llvm | FileCheck %s --implicit-check-not=nd_rt.
// RUN: nd-opt %s --convert-nd-runtime-to-llvm=parallel=false | FileCheck %s --check-prefix=SERIAL --implicit-check-not=nd_rt.
// RUN: nd-opt %s -split-input-file --convert-nd-runtime-to-llvm | FileCheck %s --check-prefix=SITES --implicit-check-not=nd_rt.

// The reports become calls of the host's nd_report_error with a null
// call state (--nd-call-state passes a host's) and the message in a private
// constant (one per distinct message); the thread count
// comes from the OpenMP runtime, or is 1 without it; a store fence is a
// sequentially consistent fence. No nd_rt op is left.

// CHECK-NOT: nd_rt.
// CHECK-DAG: llvm.mlir.global private constant @[[MSG:__nd_msg[_0-9]*]]("x.mlir:1:2: nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)\00")
// CHECK-DAG: llvm.mlir.global private constant @[[OTHER:__nd_msg[_0-9]*]]("other %lld %lld\00")
// CHECK-DAG: llvm.func @nd_report_error(!llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-DAG: llvm.func @omp_get_max_threads() -> i32

// CHECK-LABEL: func.func @f
//  CHECK-SAME:   (%[[A:.*]]: i64, %[[B:.*]]: i64)
//       CHECK:   %[[T:.*]] = llvm.call @omp_get_max_threads() : () -> i32
//       CHECK:   %[[TI:.*]] = arith.index_cast %[[T]] : i32 to index
//       CHECK:   llvm.fence seq_cst
//       CHECK:   %[[P1:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
//       CHECK:   %[[Z1:.*]] = llvm.mlir.zero : !llvm.ptr
//       CHECK:   llvm.call @nd_report_error(%[[Z1]], %[[P1]], %[[A]], %[[B]])
//       CHECK:   %[[P2:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
//       CHECK:   %[[Z2:.*]] = llvm.mlir.zero : !llvm.ptr
//       CHECK:   llvm.call @nd_report_error(%[[Z2]], %[[P2]], %[[B]], %[[A]])
//       CHECK:   %[[P3:.*]] = llvm.mlir.addressof @[[OTHER]] : !llvm.ptr
//       CHECK:   %[[Z3:.*]] = llvm.mlir.zero : !llvm.ptr
//       CHECK:   llvm.call @nd_report_error(%[[Z3]], %[[P3]], %[[A]], %[[A]])
//       CHECK:   return %[[TI]]

// SERIAL-NOT: omp_get_max_threads
// SERIAL-LABEL: func.func @f
//       SERIAL:   %[[ONE:.*]] = arith.constant 1 : index
//       SERIAL:   return %[[ONE]]

func.func @f(%a: i64, %b: i64) -> index {
  %t = nd_rt.max_threads
  nd_rt.store_fence
  nd_rt.report "x.mlir:1:2: nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)" (%a, %b)
  nd_rt.report "x.mlir:1:2: nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)" (%b, %a)
  nd_rt.report "other %lld %lld" (%a, %a)
  return %t : index
}

// -----

// A function shared by ops at several places reports through its site
// argument: each call's site becomes the address of its entries in one table
// of messages (the function's messages in order of first appearance, each
// prefixed with the site), whose texts lie in one array.
// SITES-NOT: nd_rt.
// SITES-DAG: llvm.mlir.global private constant @__nd_site_text("a.mlir:1:2: nd.gather_nd: second %lld %lld\00a.mlir:1:2: nd.gather_nd: first %lld %lld\00b.mlir:3:4: nd.gather_nd: second %lld %lld\00b.mlir:3:4: nd.gather_nd: first %lld %lld\00")
// SITES-DAG: llvm.mlir.global private constant @__nd_sites() {{.*}} : !llvm.array<4 x ptr>
// SITES-DAG:   %[[TEXT:.*]] = llvm.mlir.addressof @__nd_site_text
// SITES-DAG:   llvm.getelementptr %[[TEXT]][0, 0]
// SITES-DAG:   llvm.getelementptr %[[TEXT]][0, 43]
// SITES-DAG:   llvm.getelementptr %[[TEXT]][0, 85]
// SITES-DAG:   llvm.getelementptr %[[TEXT]][0, 128]

// The table's address is taken once per function, at its start.
// SITES-LABEL: func.func @caller
//       SITES:   %[[T:.*]] = llvm.mlir.addressof @__nd_sites
//       SITES:   %[[E1:.*]] = llvm.getelementptr %[[T]][0, 0]
//       SITES:   %[[S1:.*]] = llvm.ptrtoint %[[E1]] : !llvm.ptr to i64
//       SITES:   call @shared(%{{.*}}, %[[S1]])
//   SITES-NOT:   llvm.mlir.addressof
//       SITES:   %[[E2:.*]] = llvm.getelementptr %[[T]][0, 2]
//       SITES:   %[[S2:.*]] = llvm.ptrtoint %[[E2]] : !llvm.ptr to i64
//       SITES:   call @shared(%{{.*}}, %[[S2]])

// SITES-LABEL: func.func private @shared
//  SITES-SAME:   (%[[A:.*]]: i64, %[[SITE:.*]]: i64)
//       SITES:   %[[P1:.*]] = llvm.inttoptr %[[SITE]] : i64 to !llvm.ptr
//       SITES:   %[[Q1:.*]] = llvm.getelementptr %[[P1]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       SITES:   %[[F1:.*]] = llvm.load %[[Q1]] : !llvm.ptr -> !llvm.ptr
//       SITES:   %[[Z1:.*]] = llvm.mlir.zero : !llvm.ptr
//       SITES:   llvm.call @nd_report_error(%[[Z1]], %[[F1]], %[[A]], %[[A]])
//       SITES:   %[[P0:.*]] = llvm.inttoptr %[[SITE]] : i64 to !llvm.ptr
//       SITES:   %[[Q0:.*]] = llvm.getelementptr %[[P0]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
//       SITES:   %[[F0:.*]] = llvm.load %[[Q0]] : !llvm.ptr -> !llvm.ptr
//       SITES:   %[[Z0:.*]] = llvm.mlir.zero : !llvm.ptr
//       SITES:   llvm.call @nd_report_error(%[[Z0]], %[[F0]], %[[A]], %[[A]])

func.func @caller(%a: i64) {
  %s1 = nd_rt.site "a.mlir:1:2"
  func.call @shared(%a, %s1) : (i64, i64) -> ()
  %s2 = nd_rt.site "b.mlir:3:4"
  func.call @shared(%a, %s2) : (i64, i64) -> ()
  return
}

func.func private @shared(%a: i64, %site: i64) {
  nd_rt.report_at %site "nd.gather_nd: second %lld %lld" (%a, %a)
  nd_rt.report_at %site "nd.gather_nd: first %lld %lld" (%a, %a)
  return
}
