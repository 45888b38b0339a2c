// --nd-functions-first moves a module's functions ahead of its other
// top-level ops for convert-to-llvm (a bridge: the call lowering looks each
// callee up by scanning the module's ops from the first), recording the
// order in `nd.order`; --nd-restore-order puts them back. The output is
// convert-to-llvm's, op for op and in the same order: globals, the
// declarations the conversion adds and the functions in their places.
// RUN: nd-opt %s --nd-functions-first=min-ops=1 --convert-to-llvm --nd-restore-order > %t.bridge
// RUN: nd-opt %s --convert-to-llvm > %t.upstream
// RUN: diff %t.bridge %t.upstream
// RUN: FileCheck %s < %t.bridge
// RUN: nd-opt %s --nd-functions-first=min-ops=1 | FileCheck %s --check-prefix=FIRST
// Below `min-ops` (256 by default) ops ahead of a function, nothing moves.
// RUN: nd-opt %s --nd-functions-first --nd-restore-order | FileCheck %s --check-prefix=KEPT

// FIRST:       module attributes {nd.order = ["first", "callee", "second", "caller", "third", "last"]}
// FIRST-NEXT:    func.func private @callee(
// FIRST:         func.func @caller(
// FIRST:         func.func @last(
// FIRST:         llvm.mlir.global private constant @first
// FIRST-NEXT:    llvm.mlir.global private constant @second
// FIRST-NEXT:    llvm.mlir.global private constant @third

// KEPT:       module {
// KEPT-NEXT:    llvm.mlir.global private constant @first
// KEPT-NEXT:    func.func private @callee(

// CHECK:       llvm.func @free(
// CHECK:       llvm.mlir.global private constant @first
// CHECK:       llvm.func @callee(
// CHECK:       llvm.mlir.global private constant @second
// CHECK-LABEL: llvm.func @caller(
// CHECK:         llvm.call @callee(
// CHECK:         llvm.call @free(
// CHECK:       llvm.mlir.global private constant @third
// CHECK-LABEL: llvm.func @last(
llvm.mlir.global private constant @first(dense<[1.0, 2.0]> : tensor<2xf32>) : !llvm.array<2 x f32>
func.func private @callee(%a: memref<2xf32>) {
  return
}
llvm.mlir.global private constant @second(dense<[3.0, 4.0]> : tensor<2xf32>) : !llvm.array<2 x f32>
func.func @caller(%a: memref<2xf32>) {
  call @callee(%a) : (memref<2xf32>) -> ()
  memref.dealloc %a : memref<2xf32>
  return
}
llvm.mlir.global private constant @third(dense<[5.0, 6.0]> : tensor<2xf32>) : !llvm.array<2 x f32>
func.func @last() {
  return
}
