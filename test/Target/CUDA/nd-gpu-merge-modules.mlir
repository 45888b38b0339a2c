// RUN: nd-opt %s --nd-gpu-merge-modules | FileCheck %s

// The kernels of outlining's modules move into the first; a kernel whose
// name is taken there is renamed, and the launches follow. A module with a
// target of its own stays.
// CHECK-LABEL: gpu.module @f_kernel attributes {llvm.data_layout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"} {
// CHECK-DAG: gpu.func @f_kernel(
// CHECK-DAG: gpu.func @f_kernel_0(
// CHECK: }
// CHECK: gpu.module @own [#nvvm.target]
// CHECK-NOT: gpu.module @f_kernel_1
// CHECK-LABEL: func.func @f
// CHECK: gpu.launch_func @f_kernel::@f_kernel blocks
// CHECK: gpu.launch_func @f_kernel::@f_kernel_0 blocks
// CHECK: gpu.launch_func @own::@f_kernel blocks
module attributes {gpu.container_module} {
  gpu.module @f_kernel {
    gpu.func @f_kernel() kernel {
      gpu.return
    }
  }
  gpu.module @f_kernel_1 {
    gpu.func @f_kernel() kernel {
      gpu.return
    }
  }
  gpu.module @own [#nvvm.target] {
    gpu.func @f_kernel() kernel {
      gpu.return
    }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @f_kernel::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @f_kernel_1::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.launch_func @own::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}
