// Loaded as a pass plugin, NdPlugin.so registers every nd pass and pipeline
// with stock mlir-opt: they are named in --pass-pipeline, options included.

// RUN: %mlir_opt %s --load-dialect-plugin=%nd_plugin --load-pass-plugin=%nd_plugin \
// RUN:   --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},lower-scatter{check-bounds=false})' | FileCheck %s
// RUN: %mlir_opt %s --load-dialect-plugin=%nd_plugin --load-pass-plugin=%nd_plugin \
// RUN:   --pass-pipeline='builtin.module(nd-to-llvm{check-bounds=false})' | FileCheck %s --check-prefix=LLVM
// RUN: %mlir_opt %s --load-dialect-plugin=%nd_plugin --load-pass-plugin=%nd_plugin \
// RUN:   --pass-pipeline='builtin.module(lower-scatter{check-bounds=false})' | FileCheck %s --check-prefix=TENSORS
// RUN: not %mlir_opt %s --load-dialect-plugin=%nd_plugin \
// RUN:   --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},lower-scatter)' 2>&1 | FileCheck %s --check-prefix=NO-PASS-PLUGIN

// NO-PASS-PLUGIN: 'lower-scatter' does not refer to a registered pass or pass pipeline

// CHECK-LABEL: func.func @gather_elements(
// CHECK-NOT: nd.gather_elements
// CHECK: return

// lower-scatter takes the op on tensors as it is (test/Plugin/run.mlir runs
// lower-scatter then nd-to-llvm).
// TENSORS-LABEL: func.func @gather_elements(
//       TENSORS: bufferization.to_buffer %{{.*}} read_only
//       TENSORS: %[[INTO:.*]] = memref.alloc()
//       TENSORS: call @__nd_gather_elements(%{{.*}}, %{{.*}}, %[[INTO]])
//       TENSORS: bufferization.to_tensor %[[INTO]] restrict writable

// LLVM-LABEL: llvm.func @gather_elements(
// LLVM-NOT: nd.
// LLVM: llvm.return
func.func @gather_elements(%d: tensor<2x2xf32>, %i: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %r = nd.gather_elements %d[%i] axis(1)
      : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
