/* Calls a library that nd-compile built with buffers of the caller's for its
   output, and counts what it takes to fill them
   (test/nd-compile/out-in-place.test). Two instruments, neither of them the
   runtime's own account of itself: this program defines the allocator of
   generated code (_mlir_memref_to_llvm_alloc and friends, which the library
   resolves to the program's definitions once it exports them, -rdynamic)
   and counts the buffers the generated code asks for that could hold the
   result; and it checks that the caller's buffer, which it filled with a
   marker, holds the result with its data pointer unchanged.
   nd_context.copied_outputs, the runtime's count of outputs it copied, is
   printed beside them.

   The model gathers ROWS rows of data = [[0, 1, 2], [3, 4, 5], [6, 7, 8],
   [9, 10, 11]] by ids 2, 0, 2, 0, ...: the result's first rows are
   [6, 7, 8], [0, 1, 2], [6, 7, 8], and every row r is data[ids[r]], which
   the program checks element by element. */

#define _POSIX_C_SOURCE 200112L

#include "gather.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 1000 };
/* The result's bytes: a buffer that can hold it is at least this large. */
static const size_t result_bytes = ROWS * 3 * sizeof(float);
static int counted;

void *_mlir_memref_to_llvm_alloc(size_t size) {
  if (size >= result_bytes)
    ++counted;
  return malloc(size ? size : 1);
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  if (size >= result_bytes)
    ++counted;
  void *buffer = NULL;
  if (alignment < sizeof(void *))
    alignment = sizeof(void *);
  if (posix_memalign(&buffer, alignment, size ? size : 1))
    return NULL;
  return buffer;
}

void _mlir_memref_to_llvm_free(void *buffer) { free(buffer); }

static float data[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
static int64_t data_shape[2] = {4, 3};
static int64_t ids[ROWS];
static int64_t ids_shape[1] = {ROWS};

/* Whether `rows` rows at `values`, `stride` floats apart, are data[ids[r]]. */
static int as_expected(const float *values, int rows, int stride) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < 3; ++c)
      if (values[r * stride + c] != data[3 * ids[r] + c])
        return 0;
  return 1;
}

static void print_rows(const char *what, const float *values, int rows) {
  printf("%s:", what);
  for (int r = 0; r < rows; ++r)
    printf(" [%g, %g, %g]", values[3 * r], values[3 * r + 1],
           values[3 * r + 2]);
  printf("\n");
}

/* One call with `output` as the output; prints what it took. */
static void call(const char *what, nd_tensor *inputs, nd_tensor *output) {
  void *given = output->data;
  nd_context context = {0};
  char message[256];
  context.message = message;
  context.message_size = sizeof message;
  context.copied_outputs = -1;
  counted = 0;
  int32_t status = gather(&context, inputs, 2, output, 1);
  printf("%s: status %d, buffers for the result %d, copied_outputs %d, data "
         "unchanged %d, owner %s\n",
         what, status, counted, context.copied_outputs,
         !given || output->data == given, output->owner ? "nd" : "none");
  if (status)
    printf("  %s\n", message);
}

int main(void) {
  for (int r = 0; r < ROWS; ++r)
    ids[r] = (2 * r + 2) % 4;
  nd_tensor inputs[2] = {{data, data_shape, NULL, ND_DTYPE_F32, 2, NULL},
                         {ids, ids_shape, NULL, ND_DTYPE_I64, 1, NULL}};
  printf("destinations %d\n", gather_signature.destinations);

  /* nd allocates the result: the generated code asks for its buffer. */
  nd_tensor allocated = {0};
  call("nd's buffer", inputs, &allocated);
  print_rows("  first rows", allocated.data, 3);
  printf("  all rows %d\n", as_expected(allocated.data, ROWS, 3));
  nd_tensor_free(&allocated);

  /* The caller's contiguous buffer receives the result in place: the
     generated code allocates no buffer for it, the runtime copies nothing. */
  static float buffer[ROWS * 3];
  for (int i = 0; i < ROWS * 3; ++i)
    buffer[i] = -1;
  int64_t shape[2] = {ROWS, 3};
  nd_tensor mine = {buffer, shape, NULL, ND_DTYPE_F32, 2, NULL};
  call("contiguous buffer", inputs, &mine);
  print_rows("  first rows", buffer, 3);
  printf("  all rows %d\n", as_expected(buffer, ROWS, 3));

  /* A strided buffer (every other row of a block) gets the result through
     a copy from nd's buffer. */
  static float block[2 * ROWS * 3];
  for (int i = 0; i < 2 * ROWS * 3; ++i)
    block[i] = -1;
  int64_t strides[2] = {6, 1};
  nd_tensor strided = {block, shape, strides, ND_DTYPE_F32, 2, NULL};
  call("strided buffer", inputs, &strided);
  printf("  every other row %d, the rows between untouched %d\n",
         as_expected(block, ROWS, 6), block[3] == -1 && block[5] == -1);

  /* A buffer that holds the input gets the result through a copy too: the
     call reads `data` while it writes the result. */
  static float shared[ROWS * 3];
  memcpy(shared, data, sizeof data);
  nd_tensor reading[2] = {{shared, data_shape, NULL, ND_DTYPE_F32, 2, NULL},
                          {ids, ids_shape, NULL, ND_DTYPE_I64, 1, NULL}};
  nd_tensor over = {shared, shape, NULL, ND_DTYPE_F32, 2, NULL};
  call("buffer over the input", reading, &over);
  print_rows("  first rows", shared, 3);
  printf("  all rows %d\n", as_expected(shared, ROWS, 3));

  /* A buffer of another shape fails the call before anything is written
     into it: the generated code computed into a buffer of its own. */
  for (int i = 0; i < ROWS * 3; ++i)
    buffer[i] = -1;
  int64_t wrong_shape[2] = {ROWS - 1, 3};
  nd_tensor wrong = {buffer, wrong_shape, NULL, ND_DTYPE_F32, 2, NULL};
  call("buffer one row short", inputs, &wrong);
  print_rows("  first rows", buffer, 1);

  /* Calls after all that. */
  call("contiguous buffer again", inputs, &mine);
  printf("  all rows %d\n", as_expected(buffer, ROWS, 3));
  return 0;
}
