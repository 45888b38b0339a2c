// RUN: nd-opt %s -split-input-file --nd-call-state -verify-diagnostics

// A function whose address is taken cannot be given the state.

llvm.func @f() {
  llvm.return
}
llvm.func @g() -> !llvm.ptr {
  // expected-error @below {{takes the address of @f, which cannot be given the call state}}
  %0 = llvm.mlir.addressof @f : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// -----

// A report must take the state first, as --convert-nd-runtime-to-llvm emits
// it.

llvm.func @nd_report_error(i64, i64)
llvm.func @f(%a: i64) {
  // expected-error @below {{expected the call state as the first argument of @nd_report_error}}
  llvm.call @nd_report_error(%a, %a) : (i64, i64) -> ()
  llvm.return
}
