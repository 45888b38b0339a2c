// A KV-cache update in place and a gather of rows, as a library exports
// them.
func.func @append(%cache: tensor<1x4x16x8xf16> {nd.donated}, %pos: tensor<1x4x1x3xi64>, %kv: tensor<1x4x1x8xf16>) -> tensor<1x4x16x8xf16> attributes {llvm.emit_c_interface} {
  %0 = nd.scatter_nd %cache[%pos], %kv : tensor<1x4x16x8xf16>, tensor<1x4x1x3xi64>, tensor<1x4x1x8xf16>
  return %0 : tensor<1x4x16x8xf16>
}
func.func @rows(%table: tensor<?x64xf32>, %ids: tensor<?x1xi32>) -> tensor<?x64xf32> attributes {llvm.emit_c_interface} {
  %0 = nd.gather_nd %table[%ids] : tensor<?x64xf32>, tensor<?x1xi32> -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}
