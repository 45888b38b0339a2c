/* Calls the entry nd-compile built from kv_update.mlir with input 0 donated
   (test/nd-compile/mlir-library.test), from a library or linked statically
   from its object file: a cache updated in place and handed back as output 0,
   rows gathered into output 1, whose number of rows the call computes. */

#include "kv.h"

#include <stdio.h>
#include <string.h>

static float cache[12];
static int64_t cache_shape[2] = {4, 3};

static void reset_cache(void) {
  for (int i = 0; i < 12; ++i)
    cache[i] = (float)i;
}

static void print_rows(const char *what, const float *values, int64_t rows) {
  printf("%s:", what);
  for (int64_t r = 0; r < rows; ++r)
    printf(" [%g, %g, %g]", values[3 * r], values[3 * r + 1],
           values[3 * r + 2]);
  printf("\n");
}

/* Writes rows `rows` (n of them) of values 100, 200, ... and gathers `ids`. */
static int32_t call(nd_context *context, int64_t *rows, int64_t n,
                    int64_t *ids, int64_t m, nd_tensor outputs[2]) {
  static float values[12] = {100, 101, 102, 200, 201, 202,
                             300, 301, 302, 400, 401, 402};
  int64_t rows_shape[2] = {n, 1};
  int64_t values_shape[2] = {n, 3};
  int64_t ids_shape[1] = {m};
  nd_tensor inputs[4] = {
      {cache, cache_shape, NULL, ND_DTYPE_F32, 2, NULL},
      {rows, rows_shape, NULL, ND_DTYPE_I64, 2, NULL},
      {values, values_shape, NULL, ND_DTYPE_F32, 2, NULL},
      {ids, ids_shape, NULL, ND_DTYPE_I64, 1, NULL}};
  return kv(context, inputs, 4, outputs, 2);
}

int main(void) {
  printf("input 0 donated %d; output 0 alias %d, output 1 alias %d\n",
         kv_signature.inputs[0].donated, kv_signature.outputs[0].alias,
         kv_signature.outputs[1].alias);
  char message[512];
  nd_context context = {0};
  context.message = message;
  context.message_size = sizeof message;

  /* Rows 2 and 0 get values 100.. and 200..; rows 2, 2, 3 are gathered. */
  reset_cache();
  int64_t rows[2] = {2, 0};
  int64_t ids[3] = {2, 2, 3};
  nd_tensor outputs[2] = {{0}, {0}};
  int32_t status = call(&context, rows, 2, ids, 3, outputs);
  printf("status %d; output 0 is the cache %d; output 1 shape [%lld, %lld]\n",
         status, outputs[0].data == (void *)cache,
         (long long)outputs[1].shape[0], (long long)outputs[1].shape[1]);
  print_rows("cache", cache, 4);
  print_rows("gathered", outputs[1].data, outputs[1].shape[0]);
  /* Output 0 is the caller's cache: freeing it releases nd's record only. */
  nd_tensor_free(&outputs[0]);
  nd_tensor_free(&outputs[1]);
  print_rows("cache after free", cache, 4);

  /* Output 1 into the caller's buffer: its shape must be the computed one. */
  float buffer[9] = {0};
  int64_t buffer_shape[2] = {2, 3};
  reset_cache();
  nd_tensor provided[2] = {{0}, {buffer, buffer_shape, NULL, ND_DTYPE_F32, 2,
                                 NULL}};
  status = call(&context, rows, 2, ids, 3, provided);
  printf("2-row buffer for 3 rows: status %d: %s; untouched %d; output 0 "
         "%p\n",
         status, message, buffer[0] == 0 && buffer[5] == 0, provided[0].data);
  buffer_shape[0] = 3;
  reset_cache();
  status = call(&context, rows, 2, ids, 3, provided);
  printf("3-row buffer: status %d\n", status);
  print_rows("gathered", buffer, 3);
  nd_tensor_free(&provided[0]);

  /* A bad row: the donated cache is left untouched, the message names the
     op in the module; then a bad id. */
  reset_cache();
  int64_t bad_rows[2] = {2, 4};
  nd_tensor failed[2] = {{0}, {0}};
  status = call(&context, bad_rows, 2, ids, 3, failed);
  printf("bad row: status %d: %s\n", status, message);
  print_rows("cache", cache, 4);
  int64_t bad_ids[3] = {2, -5, 3};
  status = call(&context, rows, 2, bad_ids, 3, failed);
  printf("bad id: status %d: %s; outputs %p %p\n", status, message,
         failed[0].data, failed[1].data);

  /* No rows to write. */
  reset_cache();
  status = call(&context, rows, 0, ids, 3, outputs);
  printf("no rows: status %d, output 1 shape [%lld, %lld]\n", status,
         (long long)outputs[1].shape[0], (long long)outputs[1].shape[1]);
  print_rows("gathered", outputs[1].data, outputs[1].shape[0]);
  nd_tensor_free(&outputs[0]);
  nd_tensor_free(&outputs[1]);
  return 0;
}
