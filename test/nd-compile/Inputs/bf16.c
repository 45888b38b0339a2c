/* Calls the entry nd-compile built from bf16.mlir (test/nd-compile/
   bfloat16.test) and prints the bits of its bfloat16 results. */

#include "bf16.h"

#include <stdio.h>

int main(void) {
  /* 1, 2, 3, 4 plus 2^-8, 0.5 and 3 * 2^-7 at positions 0, 1, 2. */
  uint16_t data[4] = {0x3f80, 0x4000, 0x4040, 0x4080};
  int64_t indices[3] = {0, 1, 2};
  uint16_t updates[3] = {0x3b80, 0x3f00, 0x3cc0};
  /* 1 + 2^-8 (a tie), 1 + 2^-8 + 2^-30 (just above it), -1.5. */
  double wide[3] = {1.0 + 0x1p-8, 1.0 + 0x1p-8 + 0x1p-30, -1.5};
  int64_t four[1] = {4}, three[1] = {3}, indices_shape[2] = {3, 1};
  nd_tensor inputs[4] = {
      {data, four, NULL, ND_DTYPE_BF16, 1, NULL},
      {indices, indices_shape, NULL, ND_DTYPE_I64, 2, NULL},
      {updates, three, NULL, ND_DTYPE_BF16, 1, NULL},
      {wide, three, NULL, ND_DTYPE_F64, 1, NULL}};
  nd_tensor outputs[2] = {{0}, {0}};
  int32_t status = bf16(NULL, inputs, 4, outputs, 2);
  const uint16_t *sum = outputs[0].data, *narrow = outputs[1].data;
  printf("status %d; %s (%zu bytes)\n", status,
         nd_dtype_name(outputs[0].dtype), nd_dtype_size(outputs[0].dtype));
  printf("sums: %04x %04x %04x %04x\n", sum[0], sum[1], sum[2], sum[3]);
  printf("narrowed: %04x %04x %04x\n", narrow[0], narrow[1], narrow[2]);
  nd_tensor_free(&outputs[0]);
  nd_tensor_free(&outputs[1]);
  return 0;
}
