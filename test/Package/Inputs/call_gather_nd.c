/* A program built against an installed nd: it includes the header that the
   installed nd-compile wrote (and, through it, <prefix>/include/nd-c/
   Runtime.h) and calls the entry compiled from @gather_nd of lower.mlir:
   GatherND with batch_dims 1, example 5 of the ONNX specification. */

#include "gather_nd.h"

#include <stdio.h>

int main(void) {
  int32_t data[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int64_t indices[2] = {1, 0};
  int64_t data_shape[3] = {2, 2, 2}, indices_shape[2] = {2, 1};
  nd_tensor inputs[GATHER_ND_NUM_INPUTS] = {
      {data, data_shape, NULL, ND_DTYPE_I32, 3, NULL},
      {indices, indices_shape, NULL, ND_DTYPE_I64, 2, NULL}};
  int32_t result[4];
  int64_t result_shape[GATHER_ND_OUTPUT_0_RANK] = {2, 2};
  nd_tensor output = {result, result_shape, NULL, GATHER_ND_OUTPUT_0_DTYPE,
                      GATHER_ND_OUTPUT_0_RANK, NULL};
  char message[256];
  nd_context context = {0};
  context.message = message;
  context.message_size = sizeof message;
  int32_t status = gather_nd(&context, inputs, 2, &output, 1);
  printf("nd %s: status %d: [[%d, %d], [%d, %d]]\n", nd_runtime_version(),
         status, result[0], result[1], result[2], result[3]);
  indices[0] = 2;
  status = gather_nd(&context, inputs, 2, &output, 1);
  printf("status %d: %s\n", status, message);
  return 0;
}
