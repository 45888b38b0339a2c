/* Calls the KV-cache update that nd-compile built from kv_cache.mlir (see
   docs/compiling.md, "Compiling ahead of time"): three tokens go in place into the
   caller's cache, then a position out of range comes back as an error, with
   the cache as it was. */

#include "kv_cache.h"

#include <stdio.h>

static float cache[8][4];

static int append(int64_t position, float value, char *message,
                  size_t size) {
  int64_t cache_shape[2] = {8, 4}, position_shape[2] = {1, 1},
          token_shape[2] = {1, 4};
  float token[4] = {value, value, value, value};
  nd_tensor inputs[3] = {
      {cache, cache_shape, NULL, ND_DTYPE_F32, 2, NULL},
      {&position, position_shape, NULL, ND_DTYPE_I64, 2, NULL},
      {token, token_shape, NULL, ND_DTYPE_F32, 2, NULL}};
  /* Output 0 is the donated cache itself: nd allocates nothing for it. */
  nd_tensor output = {0};
  nd_context context = {0};
  context.message = message;
  context.message_size = size;
  int status = kv_cache(&context, inputs, 3, &output, 1);
  nd_tensor_free(&output);
  return status;
}

int main(void) {
  char message[256];
  for (int t = 0; t < 3; ++t)
    append(t, (float)(t + 1), message, sizeof message);
  int status = append(8, 9.0f, message, sizeof message);
  printf("status %d (%s): %s\n", status, nd_status_string(status), message);
  for (int row = 0; row < 4; ++row)
    printf("row %d: %g %g %g %g\n", row, cache[row][0], cache[row][1],
           cache[row][2], cache[row][3]);
  return 0;
}
