/* Calls the entry that nd-compile --target=cuda built from kv_update.mlir
   with input 0 donated (test/nd-compile/cuda-library.test), on a machine
   without a CUDA driver: both forms return the driver status with the
   runtime's message, every time, and touch no output; a wrong input count
   is refused before the driver is looked for. */

#include "kv.h"

#include <stdio.h>
#include <string.h>

static float cache[12];
static int64_t cache_shape[2] = {4, 3};

static void report(const char *what, int32_t status,
                   const nd_context *context, const nd_tensor outputs[2]) {
  printf("%s: status %d (%s) context %d: %s; outputs %p %p\n", what, status,
         nd_status_string(status), context->status, context->message,
         outputs[0].data, outputs[1].data);
}

int main(void) {
  printf("entry %s, ABI %d, %d inputs, %d outputs; input 0 donated %d, "
         "output 0 alias %d\n",
         kv_signature.entry, kv_signature.abi_version, kv_signature.num_inputs,
         kv_signature.num_outputs, kv_signature.inputs[0].donated,
         kv_signature.outputs[0].alias);
  char message[512];
  nd_context context = {0};
  context.message = message;
  context.message_size = sizeof message;

  float values[3] = {100, 101, 102};
  int64_t rows[1] = {2};
  int64_t ids[2] = {2, 0};
  int64_t rows_shape[2] = {1, 1}, values_shape[2] = {1, 3}, ids_shape[1] = {2};
  nd_tensor inputs[4] = {{cache, cache_shape, NULL, ND_DTYPE_F32, 2, NULL},
                         {rows, rows_shape, NULL, ND_DTYPE_I64, 2, NULL},
                         {values, values_shape, NULL, ND_DTYPE_F32, 2, NULL},
                         {ids, ids_shape, NULL, ND_DTYPE_I64, 1, NULL}};
  nd_tensor outputs[2] = {{0}, {0}};

  int32_t status = kv_host(&context, inputs, 4, outputs, 2);
  report("host", status, &context, outputs);
  status = kv_host(&context, inputs, 4, outputs, 2);
  report("host again", status, &context, outputs);
  status = kv(&context, NULL, inputs, 4, outputs, 2);
  report("device", status, &context, outputs);
  status = kv_host(&context, inputs, 3, outputs, 2);
  report("3 inputs", status, &context, outputs);
  /* An output nd did not allocate: nothing to free. */
  nd_cuda_tensor_free(&outputs[1]);
  printf("freed: %p %p\n", outputs[1].data, outputs[1].owner);
  status = kv_host(NULL, inputs, 4, outputs, 2);
  printf("no context: status %d\n", status);
  return 0;
}
