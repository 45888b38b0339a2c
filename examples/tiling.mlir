// nd ops tiled and fused by upstream's transforms (the schedule is
// examples/tiling-schedule.mlir): an embedding lookup whose gather is fused
// into the tiles of the op that uses it, and a gradient accumulation whose
// scatter applies its entries two at a time, in order. Run it with
//   build/bin/nd-opt examples/tiling.mlir \
//       --transform-preload-library=transform-library-paths=examples/tiling-schedule.mlir \
//       --transform-interpreter |
//     build/bin/nd-opt --nd-to-llvm |
//     /usr/lib/llvm-22/bin/mlir-runner -e main -entry-point-result=void \
//       -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/llvm-22/lib/libomp.so,build/lib/libnd_runner_utils.so

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

// Rows `ids` of the table, doubled.
func.func @embed(%table: tensor<6x4xf32>, %ids: tensor<4xi64>) -> tensor<4x4xf32> {
  %rows = nd.gather %table[%ids] : tensor<6x4xf32>, tensor<4xi64> -> tensor<4x4xf32>
  %init = tensor.empty() : tensor<4x4xf32>
  %sum = linalg.add ins(%rows, %rows : tensor<4x4xf32>, tensor<4x4xf32>)
      outs(%init : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %sum : tensor<4x4xf32>
}

// The rows of `grad` added into rows `ids` of the table (row 1 twice).
func.func @accumulate(%table: tensor<6x4xf32>, %ids: tensor<4x1xi64>,
                      %grad: tensor<4x4xf32>) -> tensor<6x4xf32> {
  %new = nd.scatter_nd %table[%ids], %grad reduction<add>
      : tensor<6x4xf32>, tensor<4x1xi64>, tensor<4x4xf32>
  return %new : tensor<6x4xf32>
}

func.func @main() {
  %table = arith.constant dense<[[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0],
                                 [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0],
                                 [4.0, 4.0, 4.0, 4.0], [5.0, 5.0, 5.0, 5.0]]> : tensor<6x4xf32>
  %ids = arith.constant dense<[5, 0, -1, 2]> : tensor<4xi64>
  %e = call @embed(%table, %ids) : (tensor<6x4xf32>, tensor<4xi64>) -> tensor<4x4xf32>
  %eu = tensor.cast %e : tensor<4x4xf32> to tensor<*xf32>
  %em = bufferization.to_buffer %eu : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%em) : (memref<*xf32>) -> ()

  %rows = arith.constant dense<[[1], [3], [1], [-6]]> : tensor<4x1xi64>
  %grad = arith.constant dense<[[0.5, 0.5, 0.5, 0.5], [1.0, 2.0, 3.0, 4.0],
                                [0.25, 0.25, 0.25, 0.25], [9.0, 9.0, 9.0, 9.0]]> : tensor<4x4xf32>
  %a = call @accumulate(%table, %rows, %grad)
      : (tensor<6x4xf32>, tensor<4x1xi64>, tensor<4x4xf32>) -> tensor<6x4xf32>
  %au = tensor.cast %a : tensor<6x4xf32> to tensor<*xf32>
  %am = bufferization.to_buffer %au : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%am) : (memref<*xf32>) -> ()
  return
}
