// REQUIRES: ptxas
// RUN: nd-opt %s --nd-to-gpu="toolkit=%cuda_toolkit chips=sm_90" --mlir-print-ir-after=nd-gpu-skip-unchosen -o /dev/null 2>&1 | FileCheck %s

// In nd-to-gpu, every kernel of the two paths of a scatter_elements whose
// rows may hold one index (the device chooses) returns at once where the
// flag says the other path: 5 of the 7 kernels here (the two that look at
// the indices and raise the flag are not guarded).
// CHECK-COUNT-5: cf.cond_br
// CHECK-NOT: cf.cond_br
// CHECK-NOT: nd.uniform_guard
func.func @rows(%data: tensor<64x16xf32>, %indices: tensor<300x16xi64>, %updates: tensor<300x16xf32>) -> tensor<64x16xf32> {
  %r = "nd.scatter_elements"(%data, %indices, %updates) <{axis = 0 : i64, reduction = #nd.reduction<add>}> : (tensor<64x16xf32>, tensor<300x16xi64>, tensor<300x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
