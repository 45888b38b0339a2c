// Upstream tensor.gather and tensor.scatter, which have no lowering in MLIR
// itself, lowered through nd and run (nd-to-llvm converts them into nd ops
// first):
//   build/bin/nd-run examples/tensor_gather_scatter.mlir
//   build/bin/nd-opt examples/tensor_gather_scatter.mlir --nd-to-llvm |
//     /usr/lib/llvm-22/bin/mlir-runner -e main -entry-point-result=void \
//       -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/llvm-22/lib/libomp.so,build/lib/libnd_runner_utils.so

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  %table = arith.constant dense<[[0.0, 1.0, 2.0, 3.0],
                                 [10.0, 11.0, 12.0, 13.0],
                                 [20.0, 21.0, 22.0, 23.0]]> : tensor<3x4xf32>

  // Rows 2, 0 and 2 (an embedding lookup).
  %ids = arith.constant dense<[[2], [0], [2]]> : tensor<3x1xi32>
  %rows = tensor.gather %table[%ids] gather_dims([0])
      : (tensor<3x4xf32>, tensor<3x1xi32>) -> tensor<3x4xf32>
  %r = tensor.cast %rows : tensor<3x4xf32> to tensor<*xf32>
  call @print(%r) : (tensor<*xf32>) -> ()

  // Columns 3 and 1, in the rank-preserving form: result[b, i, 0] = table[i, cols[b]].
  %cols = arith.constant dense<[[3], [1]]> : tensor<2x1xindex>
  %columns = tensor.gather %table[%cols] gather_dims([1])
      : (tensor<3x4xf32>, tensor<2x1xindex>) -> tensor<2x3x1xf32>
  %c = tensor.cast %columns : tensor<2x3x1xf32> to tensor<*xf32>
  call @print(%c) : (tensor<*xf32>) -> ()

  // Overwrite rows 1 and 0.
  %at = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %new = arith.constant dense<[[-1.0, -2.0, -3.0, -4.0], [-5.0, -6.0, -7.0, -8.0]]> : tensor<2x4xf32>
  %updated = tensor.scatter %new into %table[%at] scatter_dims([0]) unique
      : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<2x1xi64>) -> tensor<3x4xf32>
  %u = tensor.cast %updated : tensor<3x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}
