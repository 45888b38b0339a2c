// ONNX ScatterND with reduction "add" (the spec's test_scatternd_add), then a
// GatherND with batch_dims = 1 (the spec's example 5). Run it with
//   bash scripts/demo.sh
// or by hand:
//   build/bin/nd-opt examples/scatter_nd.mlir --nd-to-llvm |
//     /usr/lib/llvm-22/bin/mlir-runner -e main -entry-point-result=void \
//       -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/llvm-22/lib/libomp.so,build/lib/libnd_runner_utils.so

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }

func.func @main() {
  // Two slices of 4x4 both added into data[0].
  %data = arith.constant dense<[[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]],
                                [[8.0, 7.0, 6.0, 5.0], [4.0, 3.0, 2.0, 1.0], [1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]]> : tensor<4x4x4xf32>
  %indices = arith.constant dense<[[0], [0]]> : tensor<2x1xi64>
  %updates = arith.constant dense<[[[5.0, 5.0, 5.0, 5.0], [6.0, 6.0, 6.0, 6.0], [7.0, 7.0, 7.0, 7.0], [8.0, 8.0, 8.0, 8.0]],
                                   [[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 4.0]]]> : tensor<2x4x4xf32>
  %sum = nd.scatter_nd %data[%indices], %updates reduction<add>
      : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
  %s = tensor.cast %sum : tensor<4x4x4xf32> to tensor<*xf32>
  %sm = bufferization.to_buffer %s : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%sm) : (memref<*xf32>) -> ()

  // Per batch, pick row indices[b] of data[b].
  %gdata = arith.constant dense<[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]> : tensor<2x2x2xi32>
  %gindices = arith.constant dense<[[1], [0]]> : tensor<2x1xi64>
  %rows = nd.gather_nd %gdata[%gindices] batch_dims(1)
      : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
  %g = tensor.cast %rows : tensor<2x2xi32> to tensor<*xi32>
  %gm = bufferization.to_buffer %g : tensor<*xi32> to memref<*xi32>
  call @printMemrefI32(%gm) : (memref<*xi32>) -> ()
  return
}

// An index out of range is a run-time error (a constant one, as in @main, is
// already the verifier's): @out_of_range gives @scatter_add an index of 4
// for a dim of 4 through a call. Run with `-e out_of_range` instead of
// `-e main`, it stops with the error, naming the op in @scatter_add.
func.func @scatter_add(%data: tensor<4x4x4xf32>, %indices: tensor<2x1xi64>,
                       %updates: tensor<2x4x4xf32>) -> tensor<4x4x4xf32> {
  %sum = nd.scatter_nd %data[%indices], %updates reduction<add>
      : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
  return %sum : tensor<4x4x4xf32>
}

func.func @out_of_range() {
  %data = arith.constant dense<1.0> : tensor<4x4x4xf32>
  %indices = arith.constant dense<[[0], [4]]> : tensor<2x1xi64>
  %updates = arith.constant dense<2.0> : tensor<2x4x4xf32>
  %sum = call @scatter_add(%data, %indices, %updates)
      : (tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>) -> tensor<4x4x4xf32>
  %s = tensor.cast %sum : tensor<4x4x4xf32> to tensor<*xf32>
  %sm = bufferization.to_buffer %s : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%sm) : (memref<*xf32>) -> ()
  return
}
