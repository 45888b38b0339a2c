// A module written for mlir-runner: @main calls the functions that nd-run
// (--entry f, --entry g) and JitFunction compile as entries.
func.func @f(%data: tensor<8xf32>, %indices: tensor<2x1xi64>,
             %updates: tensor<2xf32>) -> tensor<8xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add>
      : tensor<8xf32>, tensor<2x1xi64>, tensor<2xf32>
  return %0 : tensor<8xf32>
}

// No nd op at all.
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

func.func @main() {
  %d = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
  %i = arith.constant dense<[[1], [6]]> : tensor<2x1xi64>
  %u = arith.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %r = call @f(%d, %i, %u) : (tensor<8xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<8xf32>
  %ru = tensor.cast %r : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%ru) : (tensor<*xf32>) -> ()
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = call @g(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %su = tensor.cast %s : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%su) : (tensor<*xf32>) -> ()
  return
}

func.func private @printMemrefF32(tensor<*xf32>)
