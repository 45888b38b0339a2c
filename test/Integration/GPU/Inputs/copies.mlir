// A donated cache handed back and two results that are the same input's
// values: buffers and copies without a kernel, for the host and device forms
// of a library that nd-compile --target=cuda builds (host-form.test).
func.func @main(%cache: tensor<4x3xf32>, %x: tensor<?x3xf32>)
    -> (tensor<4x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>) {
  return %cache, %x, %x : tensor<4x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>
}
