// RUN: nd-opt %s -split-input-file --nd-return-through-pointer=function=entry -verify-diagnostics

// expected-error @below {{nd-return-through-pointer: the module defines no LLVM function @entry}}
module {
  llvm.func @entry() -> i64
}

// -----

llvm.func @entry() -> !llvm.struct<(ptr, ptr, i64)> {
  %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
  llvm.return %0 : !llvm.struct<(ptr, ptr, i64)>
}
llvm.func @address() -> !llvm.ptr {
  // expected-error @below {{uses @entry other than by a direct call: its results cannot be returned through a pointer}}
  %0 = llvm.mlir.addressof @entry : !llvm.ptr
  llvm.return %0 : !llvm.ptr
}

// -----

// expected-error @below {{expected a function returning memref descriptors, got 'i64'}}
llvm.func @entry() -> i64 {
  %0 = llvm.mlir.constant(0 : i64) : i64
  llvm.return %0 : i64
}
