// A module that calls upstream's runner utilities itself: printMemrefF32, and
// a strided memref copy (memrefCopy) through a tensor.insert_slice of a
// column.
func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @main(%a: tensor<3x2xf32>, %col: tensor<3xf32>) -> tensor<3x2xf32> {
  %c = tensor.insert_slice %col into %a[0, 1] [3, 1] [1, 1]
      : tensor<3xf32> into tensor<3x2xf32>
  %u = tensor.cast %c : tensor<3x2xf32> to tensor<*xf32>
  %m = bufferization.to_buffer %u read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return %c : tensor<3x2xf32>
}
