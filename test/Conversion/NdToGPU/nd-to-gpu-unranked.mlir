// RUN: not nd-opt %s --nd-to-gpu=run-on-host=true 2>&1 | FileCheck %s

// A tensor of unknown rank has no device copy: a clear error, not a crash.
// (nd-to-llvm copies it on the host; nd-compile rejects it at its entry,
// test/nd-compile/invalid.test.)
// CHECK-NOT: Stack dump
// CHECK: error: 'memref.copy' op copies a buffer of unknown rank: the GPU pipeline takes ranked tensors
func.func @main(%a: tensor<*xf32>) -> tensor<*xf32> {
  return %a : tensor<*xf32>
}
