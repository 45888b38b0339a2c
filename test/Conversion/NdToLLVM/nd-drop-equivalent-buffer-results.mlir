// --nd-drop-equivalent-buffer-results is upstream's
// drop-equivalent-buffer-results, run only on a module where a function it
// looks at (not public, with a body) has a result (a bridge: upstream
// resolves every call's callee by scanning the module's symbols first, even
// where it drops nothing). Where it runs, its output is upstream's; where it
// does not, the module is as it was.
// RUN: nd-opt %s -split-input-file --nd-drop-equivalent-buffer-results > %t.bridge
// RUN: nd-opt %s -split-input-file --drop-equivalent-buffer-results > %t.upstream
// RUN: diff %t.bridge %t.upstream
// RUN: FileCheck %s < %t.bridge

// A private function returning its argument: the result goes, the caller
// uses the argument.
// CHECK-LABEL: func.func private @identity(
//  CHECK-SAME:     %{{.*}}: memref<4xf32>) {
// CHECK-LABEL: func.func @caller(
//       CHECK:   call @identity(%[[A:.*]]) : (memref<4xf32>) -> ()
//       CHECK:   return %[[A]]
func.func private @identity(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}
func.func @caller(%a: memref<4xf32>) -> memref<4xf32> {
  %0 = call @identity(%a) : (memref<4xf32>) -> memref<4xf32>
  return %0 : memref<4xf32>
}

// -----

// Public functions only (the entries nd-to-llvm lowers): nothing to drop,
// the module stays as it was.
// CHECK-LABEL: func.func @entry(
//  CHECK-SAME:     -> memref<4xf32>
//       CHECK:   return %{{.*}} : memref<4xf32>
// CHECK-LABEL: func.func @user(
//       CHECK:   call @entry(
func.func @entry(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}
func.func @user(%a: memref<4xf32>) -> memref<4xf32> {
  %0 = call @entry(%a) : (memref<4xf32>) -> memref<4xf32>
  return %0 : memref<4xf32>
}
