// With the CUDA toolkit: the PTX object becomes a fat binary (cubins for the
// chips asked for, and the PTX).
// REQUIRES: ptxas
// RUN: nd-opt %s --pass-pipeline="builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa},nd-gpu-module-to-fatbin{toolkit=%cuda_toolkit chips=sm_90,sm_80})" | FileCheck %s

// CHECK: gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_80", features = "+ptx80">
// CHECK-NOT: assembly =
// CHECK-SAME: "
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
