// TOSA's gather and scatter through nd; the rest of the program through
// upstream's TOSA conversions (nd-to-llvm runs both first):
//   build/bin/nd-run examples/tosa_gather_scatter.mlir
//   build/bin/nd-opt examples/tosa_gather_scatter.mlir --nd-to-llvm |
//     /usr/lib/llvm-22/bin/mlir-runner -e main -entry-point-result=void \
//       -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/llvm-22/lib/libomp.so,build/lib/libnd_runner_utils.so

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @main() {
  // values [N=2, K=3, C=2]
  %values = "tosa.const"() {values = dense<[[[0.0, 1.0], [10.0, 11.0], [20.0, 21.0]],
                                            [[100.0, 101.0], [110.0, 111.0], [120.0, 121.0]]]> : tensor<2x3x2xf32>} : () -> tensor<2x3x2xf32>

  // output[n, w, :] = values[n, indices[n, w], :], then doubled.
  %indices = "tosa.const"() {values = dense<[[2, 0], [1, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %gathered = tosa.gather %values, %indices : (tensor<2x3x2xf32>, tensor<2x2xi32>) -> tensor<2x2x2xf32>
  %doubled = tosa.add %gathered, %gathered : (tensor<2x2x2xf32>, tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
  %g = tensor.cast %doubled : tensor<2x2x2xf32> to tensor<*xf32>
  call @print(%g) : (tensor<*xf32>) -> ()

  // values_out[n, indices[n, w], :] = input[n, w, :]
  %at = "tosa.const"() {values = dense<[[1, 2], [0, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %input = "tosa.const"() {values = dense<[[[-1.0, -2.0], [-3.0, -4.0]], [[-5.0, -6.0], [-7.0, -8.0]]]> : tensor<2x2x2xf32>} : () -> tensor<2x2x2xf32>
  %scattered = tosa.scatter %values, %at, %input : (tensor<2x3x2xf32>, tensor<2x2xi32>, tensor<2x2x2xf32>) -> tensor<2x3x2xf32>
  %s = tensor.cast %scattered : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%s) : (tensor<*xf32>) -> ()
  return
}
