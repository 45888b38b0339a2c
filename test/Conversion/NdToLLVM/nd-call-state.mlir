// RUN: nd-opt %s --nd-call-state | FileCheck %s

// Every defined function takes the call state as a new last argument and
// passes it on: to the functions it calls, inside OpenMP regions too, and to
// nd_report_error in place of the null state. Declarations keep their type.

// CHECK-DAG: llvm.func @nd_report_error(!llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-DAG: llvm.func @external(i64)

llvm.mlir.global private constant @message("bad %lld %lld\00")
llvm.func @nd_report_error(!llvm.ptr, !llvm.ptr, i64, i64)
llvm.func @external(i64)

// CHECK-LABEL: llvm.func @entry
//  CHECK-SAME:   (%[[N:.*]]: i64, %[[STATE:.*]]: !llvm.ptr)
//       CHECK:   llvm.call @helper(%[[N]], %[[STATE]]) : (i64, !llvm.ptr) -> ()
//       CHECK:   llvm.call @external(%[[N]]) : (i64) -> ()
//       CHECK:   llvm.return
llvm.func @entry(%n: i64) {
  llvm.call @helper(%n) : (i64) -> ()
  llvm.call @external(%n) : (i64) -> ()
  llvm.return
}

// CHECK-LABEL: llvm.func private @helper
//  CHECK-SAME:   (%[[N:.*]]: i64, %[[STATE:.*]]: !llvm.ptr)
//       CHECK:   omp.parallel {
//       CHECK:     llvm.call @nd_report_error(%[[STATE]], %{{.*}}, %[[N]], %[[N]])
//       CHECK:   llvm.call @nd_report_error(%[[STATE]], %{{.*}}, %[[N]], %[[N]])
llvm.func private @helper(%n: i64) {
  %message = llvm.mlir.addressof @message : !llvm.ptr
  omp.parallel {
    %none = llvm.mlir.zero : !llvm.ptr
    llvm.call @nd_report_error(%none, %message, %n, %n) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
    omp.terminator
  }
  %none = llvm.mlir.zero : !llvm.ptr
  llvm.call @nd_report_error(%none, %message, %n, %n) : (!llvm.ptr, !llvm.ptr, i64, i64) -> ()
  llvm.return
}
