func.func @main(%a: tensor<2xf8E4M3FN>) -> tensor<2xf8E4M3FN> {
  return %a : tensor<2xf8E4M3FN>
}
