// RUN: nd-opt %s --convert-nd-runtime-to-llvm | FileCheck %s
// RUN: nd-opt %s --convert-nd-runtime-to-llvm=parallel=false | FileCheck %s --check-prefix=SERIAL

// The report calls become calls of the host's nd_report_error with the
// message in a private constant (one per distinct message); the thread count
// comes from the OpenMP runtime, or is 1 without it. The declarations go.

// CHECK-NOT: func.func private @__nd_report_error
// CHECK-NOT: func.func private @__nd_max_threads
// CHECK-DAG: llvm.mlir.global private constant @[[MSG:__nd_msg[_0-9]*]]("x.mlir:1:2: nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)\00")
// CHECK-DAG: llvm.mlir.global private constant @[[OTHER:__nd_msg[_0-9]*]]("other %lld %lld\00")
// CHECK-DAG: llvm.func @nd_report_error(!llvm.ptr, i64, i64)
// CHECK-DAG: llvm.func @omp_get_max_threads() -> i32

// CHECK-LABEL: func.func @f
//  CHECK-SAME:   (%[[A:.*]]: i64, %[[B:.*]]: i64)
//       CHECK:   %[[T:.*]] = llvm.call @omp_get_max_threads() : () -> i32
//       CHECK:   %[[TI:.*]] = arith.index_cast %[[T]] : i32 to index
//       CHECK:   %[[P1:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
//       CHECK:   llvm.call @nd_report_error(%[[P1]], %[[A]], %[[B]])
//       CHECK:   %[[P2:.*]] = llvm.mlir.addressof @[[MSG]] : !llvm.ptr
//       CHECK:   llvm.call @nd_report_error(%[[P2]], %[[B]], %[[A]])
//       CHECK:   %[[P3:.*]] = llvm.mlir.addressof @[[OTHER]] : !llvm.ptr
//       CHECK:   llvm.call @nd_report_error(%[[P3]], %[[A]], %[[A]])
//       CHECK:   return %[[TI]]

// SERIAL-NOT: omp_get_max_threads
// SERIAL-LABEL: func.func @f
//       SERIAL:   %[[ONE:.*]] = arith.constant 1 : index
//       SERIAL:   return %[[ONE]]

func.func private @__nd_report_error(i64, i64)
func.func private @__nd_max_threads() -> index

func.func @f(%a: i64, %b: i64) -> index {
  %t = func.call @__nd_max_threads() : () -> index
  func.call @__nd_report_error(%a, %b) {nd.message = "x.mlir:1:2: nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)"} : (i64, i64) -> ()
  func.call @__nd_report_error(%b, %a) {nd.message = "x.mlir:1:2: nd.scatter_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)"} : (i64, i64) -> ()
  func.call @__nd_report_error(%a, %a) {nd.message = "other %lld %lld"} : (i64, i64) -> ()
  return %t : index
}
