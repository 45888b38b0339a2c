/* Calls a library built by nd-to-gpu (Inputs/kv_update.mlir) through MLIR's
 * C interface, between nd_cuda_begin and nd_cuda_end. */
#include "nd-c/CudaRuntime.h"

#include <stdio.h>

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2;

void _mlir_ciface_rows(MemRef2 *result, MemRef2 *table, MemRef2 *ids);

int main(void) {
  static float table[3 * 64];
  static int32_t ids[2] = {2, -1};
  MemRef2 t = {table, table, 0, {3, 64}, {64, 1}};
  MemRef2 i = {ids, ids, 0, {2, 1}, {1, 1}};
  MemRef2 result = {0};
  char message[512];
  int32_t status = nd_cuda_begin(NULL);
  _mlir_ciface_rows(&result, &t, &i);
  status = nd_cuda_end(message, sizeof message);
  printf("rows: %d %s\n", status, message);
  return 0;
}
