// A KV cache of 8 positions of 4 values, updated in place one token at a
// time: compiled ahead of time by nd-compile with the cache donated
// (--donate 0) and called from C (kv_cache.c).
func.func @append(%cache: tensor<8x4xf32>, %position: tensor<1x1xi64>,
                  %token: tensor<1x4xf32>) -> tensor<8x4xf32> {
  %0 = nd.scatter_nd %cache[%position], %token
      : tensor<8x4xf32>, tensor<1x1xi64>, tensor<1x4xf32>
  return %0 : tensor<8x4xf32>
}
