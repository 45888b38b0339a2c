/* Calls the entry nd-compile built from gather_rows.mlir
   (test/nd-compile/out-of-memory.test): a result of 2^14 rows of 2^20
   floats (64 GiB), more than the process may allocate, then a result of two
   rows, with the same library and context. */

#include "gather_rows.h"

#include <stdio.h>
#include <stdlib.h>

static int32_t gather(nd_context *context, float *table, int64_t columns,
                      int64_t rows, nd_tensor *output) {
  int64_t *ids = calloc((size_t)rows, sizeof(int64_t));
  int64_t tableShape[2] = {2, columns};
  int64_t idsShape[1] = {rows};
  nd_tensor inputs[2] = {{table, tableShape, NULL, ND_DTYPE_F32, 2, NULL},
                         {ids, idsShape, NULL, ND_DTYPE_I64, 1, NULL}};
  ids[rows - 1] = 1;
  int32_t status = gather_rows(context, inputs, 2, output, 1);
  free(ids);
  return status;
}

int main(void) {
  int64_t columns = (int64_t)1 << 20;
  float *table = calloc(2 * (size_t)columns, sizeof(float));
  table[columns] = 7;
  char message[256];
  nd_context context = {0};
  context.message = message;
  context.message_size = sizeof message;
  nd_tensor output = {0};
  int32_t status = gather(&context, table, columns, (int64_t)1 << 14, &output);
  printf("64 GiB: status %d (%s): %s; output %p\n", status,
         nd_status_string(status), message, output.data);
  status = gather(&context, table, columns, 2, &output);
  const float *values = output.data;
  printf("2 rows: status %d; shape [%lld, %lld]; [%g, %g]\n", status,
         (long long)output.shape[0], (long long)output.shape[1], values[0],
         values[columns]);
  nd_tensor_free(&output);
  free(table);
  return 0;
}
