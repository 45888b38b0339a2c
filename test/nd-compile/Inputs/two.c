/* Calls two entries that nd-compile built from two models, each holding its
   own @__nd_scatter_nd of other shapes (test/nd-compile/two-models.test):
   loaded into one process (two shared libraries, or two objects linked into
   one program), neither calls the other's helpers. */

#include "kv.h"
#include "scatternd.h"

#include <stdio.h>

int main(void) {
  /* ScatterND example 2 of the ONNX specification: block 0 of data gets
     updates block 0 (5, 5, 5, 5, 6, ...), block 2 updates block 1. */
  float data[64], updates[32], result[64];
  for (int i = 0; i < 64; ++i)
    data[i] = (float)i;
  for (int i = 0; i < 32; ++i)
    updates[i] = (float)(1000 + i);
  int64_t indices[2] = {0, 2};
  int64_t data_shape[3] = {4, 4, 4}, indices_shape[2] = {2, 1},
          updates_shape[3] = {2, 4, 4}, result_shape[3] = {4, 4, 4};
  nd_tensor inputs[3] = {
      {data, data_shape, NULL, ND_DTYPE_F32, 3, NULL},
      {indices, indices_shape, NULL, ND_DTYPE_I64, 2, NULL},
      {updates, updates_shape, NULL, ND_DTYPE_F32, 3, NULL}};
  nd_tensor output = {result, result_shape, NULL, ND_DTYPE_F32, 3, NULL};
  int32_t status = scatternd(NULL, inputs, 3, &output, 1);
  printf("scatternd: status %d; [0] %g [15] %g [16] %g [32] %g [47] %g "
         "[48] %g\n",
         status, result[0], result[15], result[16], result[32], result[47],
         result[48]);

  float cache[12] = {0};
  int64_t cache_shape[2] = {4, 3};
  int64_t rows[1] = {3}, rows_shape[2] = {1, 1};
  float values[3] = {7, 8, 9};
  int64_t values_shape[2] = {1, 3};
  int64_t ids[2] = {3, 0}, ids_shape[1] = {2};
  nd_tensor kv_inputs[4] = {
      {cache, cache_shape, NULL, ND_DTYPE_F32, 2, NULL},
      {rows, rows_shape, NULL, ND_DTYPE_I64, 2, NULL},
      {values, values_shape, NULL, ND_DTYPE_F32, 2, NULL},
      {ids, ids_shape, NULL, ND_DTYPE_I64, 1, NULL}};
  nd_tensor kv_outputs[2] = {{0}, {0}};
  status = kv(NULL, kv_inputs, 4, kv_outputs, 2);
  const float *gathered = kv_outputs[1].data;
  printf("kv: status %d; cache row 3 [%g, %g, %g]; gathered [%g, %g, %g] "
         "[%g, %g, %g]\n",
         status, cache[9], cache[10], cache[11], gathered[0], gathered[1],
         gathered[2], gathered[3], gathered[4], gathered[5]);
  nd_tensor_free(&kv_outputs[0]);
  nd_tensor_free(&kv_outputs[1]);
  return 0;
}
