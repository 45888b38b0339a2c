// RUN: not nd-opt %s --pass-pipeline="builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa},nd-gpu-module-to-fatbin{toolkit=%t.none})" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not nd-opt %s --pass-pipeline="builtin.module(gpu.module(convert-gpu-to-nvvm),gpu-module-to-binary{format=isa},nd-gpu-module-to-fatbin{chips=gfx90a})" 2>&1 | FileCheck %s --check-prefix=CHIP

// MISSING: error: cannot find {{.*}}.none/bin/ptxas (set the pass's toolkit option)
// CHIP: error: 'gfx90a' is not a chip name of the form sm_NN
module attributes {gpu.container_module} {
  gpu.module @kernels [#nvvm.target<chip = "sm_80", features = "+ptx80">] {
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}
