/* Calls the library nd-compile built from an ONNX model whose inputs share
   the symbolic dim N (Inputs/symbolic_model.py: GatherElements, axis 1, of
   data[N, 5] with idx[N, 4]) and prints what it sees for FileCheck
   (test/nd-compile/onnx-symbolic.test): the dims' names in the signature,
   a call whose inputs agree on N, calls whose inputs or output buffer do
   not (refused, naming both dims), and a call after them. Expected values
   worked by hand: data row r holds 10r .. 10r + 4; out[r][j] =
   data[r][idx[r][j]]. */

#include "symbolic.h"

#include <stdio.h>

static void print_type(const char *what, int position,
                       const nd_tensor_type *type) {
  printf("%s %d '%s': [", what, position, type->name);
  for (int d = 0; d < type->rank; ++d) {
    const char *name = type->dim_names ? type->dim_names[d] : "";
    if (*name)
      printf("%s%s", d ? ", " : "", name);
    else
      printf("%s%lld", d ? ", " : "", (long long)type->dims[d]);
  }
  printf("]\n");
}

static float data[15] = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14, 20, 21, 22, 23, 24};
static int64_t idx[12] = {4, 0, 1, 1, 3, 3, 2, 0, 0, 0, 0, 4};

static int32_t call(int64_t data_rows, int64_t idx_rows, nd_tensor *output,
                    char *message, size_t size) {
  int64_t data_shape[2] = {data_rows, 5};
  int64_t idx_shape[2] = {idx_rows, 4};
  nd_tensor inputs[2] = {{data, data_shape, NULL, ND_DTYPE_F32, 2, NULL},
                         {idx, idx_shape, NULL, ND_DTYPE_I64, 2, NULL}};
  nd_context context = {0};
  context.message = message;
  context.message_size = size;
  return symbolic(&context, inputs, 2, output, 1);
}

int main(void) {
  for (int i = 0; i < symbolic_signature.num_inputs; ++i)
    print_type("input", i, &symbolic_signature.inputs[i]);
  print_type("output", 0, &symbolic_signature.outputs[0]);

  char message[256];
  nd_tensor out = {0};
  int32_t status = call(3, 3, &out, message, sizeof message);
  printf("N = 3, 3: status %d, shape [%lld, %lld]:", status,
         (long long)out.shape[0], (long long)out.shape[1]);
  for (int i = 0; i < 12; ++i)
    printf(" %g", ((float *)out.data)[i]);
  printf("\n");
  nd_tensor_free(&out);

  nd_tensor none = {0};
  status = call(3, 2, &none, message, sizeof message);
  printf("N = 3, 2: status %d: %s; output %p\n", status, message, none.data);

  float buffer[16];
  int64_t buffer_shape[2] = {4, 4};
  nd_tensor mine = {buffer, buffer_shape, NULL, ND_DTYPE_F32, 2, NULL};
  status = call(3, 3, &mine, message, sizeof message);
  printf("N = 3, 3, a 4-row buffer: status %d: %s\n", status, message);

  buffer_shape[0] = 2;
  status = call(2, 2, &mine, message, sizeof message);
  printf("N = 2, 2, a 2-row buffer: status %d:", status);
  for (int i = 0; i < 8; ++i)
    printf(" %g", buffer[i]);
  printf("\n");
  return 0;
}
