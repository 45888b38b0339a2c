/* Calls the library nd-compile built from ONNX's ScatterND node test
   (test_scatternd: example 2 of the ScatterND specification) through the
   header it emitted, and prints what it sees for FileCheck
   (test/nd-compile/onnx-library.test): the signature, the results into
   buffers nd allocates and into the caller's own, a buffer of the wrong
   shape, an index out of range and the calls after it, a strided input, and
   threads calling at once with different bad indices. */

#include "scatternd.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The inputs of the specification's example. */
static float data[64];
static int64_t good_indices[2] = {0, 2};
static float updates[32];

static int64_t data_shape[3] = {4, 4, 4};
static int64_t indices_shape[2] = {2, 1};
static int64_t updates_shape[3] = {2, 4, 4};

static void fill_inputs(void) {
  static const float block_a[16] = {1, 2, 3, 4, 5, 6, 7, 8,
                                    8, 7, 6, 5, 4, 3, 2, 1};
  static const float block_b[16] = {8, 7, 6, 5, 4, 3, 2, 1,
                                    1, 2, 3, 4, 5, 6, 7, 8};
  for (int i = 0; i < 16; ++i) {
    data[i] = data[16 + i] = block_a[i];
    data[32 + i] = data[48 + i] = block_b[i];
    updates[i] = (float)(5 + i / 4);
    updates[16 + i] = (float)(1 + i / 4);
  }
}

static void make_inputs(nd_tensor inputs[3], int64_t *indices) {
  nd_tensor data_tensor = {data, data_shape, NULL, ND_DTYPE_F32, 3, NULL};
  nd_tensor indices_tensor = {indices, indices_shape, NULL, ND_DTYPE_I64, 2,
                              NULL};
  nd_tensor updates_tensor = {updates, updates_shape, NULL, ND_DTYPE_F32, 3,
                              NULL};
  inputs[0] = data_tensor;
  inputs[1] = indices_tensor;
  inputs[2] = updates_tensor;
}

/* Prints a 4x4x4 result one 4x4 block per line. */
static void print_result(const char *what, const float *values) {
  printf("%s:\n", what);
  for (int b = 0; b < 4; ++b) {
    for (int i = 0; i < 16; ++i)
      printf("%s%g", i ? " " : "", values[b * 16 + i]);
    printf("\n");
  }
}

static void print_tensor_type(const char *what, int position,
                              const nd_tensor_type *type) {
  printf("%s %d '%s': %s [", what, position, type->name,
         nd_dtype_name(type->dtype));
  for (int d = 0; d < type->rank; ++d)
    printf("%s%lld", d ? ", " : "", (long long)type->dims[d]);
  printf("] donated %d alias %d\n", type->donated, type->alias);
}

/* One thread's calls, all with the same bad index. */
struct worker {
  int64_t bad_index;
  int calls;
  int own_message;
  char first_message[512];
};

static void *run_worker(void *argument) {
  struct worker *worker = argument;
  int64_t indices[2] = {0, worker->bad_index};
  char expected[64];
  snprintf(expected, sizeof expected, "index %lld in operand 'indices'",
           (long long)worker->bad_index);
  for (int n = 0; n < worker->calls; ++n) {
    nd_tensor inputs[3];
    make_inputs(inputs, indices);
    nd_tensor outputs[1] = {{0}};
    char message[512];
    nd_context context = {0};
    context.threads = 2;
    context.message = message;
    context.message_size = sizeof message;
    int32_t status = scatternd(&context, inputs, 3, outputs, 1);
    if (status == ND_ERROR_CHECK_FAILED && strstr(message, expected) &&
        outputs[0].data == NULL)
      ++worker->own_message;
    if (n == 0)
      snprintf(worker->first_message, sizeof worker->first_message, "%s",
               message);
  }
  return NULL;
}

int main(void) {
  fill_inputs();
  printf("runtime %s, ABI %d\n", nd_runtime_version(),
         nd_runtime_abi_version());
  const nd_signature *signature = &scatternd_signature;
  printf("entry %s, ABI %d, %d inputs, %d outputs\n", signature->entry,
         signature->abi_version, signature->num_inputs,
         signature->num_outputs);
  for (int i = 0; i < signature->num_inputs; ++i)
    print_tensor_type("input", i, &signature->inputs[i]);
  for (int k = 0; k < signature->num_outputs; ++k)
    print_tensor_type("output", k, &signature->outputs[k]);

  nd_tensor inputs[3];
  make_inputs(inputs, good_indices);
  char message[512];
  nd_context context = {0};
  context.message = message;
  context.message_size = sizeof message;

  /* nd allocates the output. */
  nd_tensor allocated[SCATTERND_NUM_OUTPUTS] = {{0}};
  int32_t status = scatternd(&context, inputs, 3, allocated, 1);
  printf("nd-allocated: status %d (%s), shape [%lld, %lld, %lld], rank %d\n",
         status, nd_status_string(status), (long long)allocated[0].shape[0],
         (long long)allocated[0].shape[1], (long long)allocated[0].shape[2],
         allocated[0].rank);
  print_result("result", allocated[0].data);

  /* The caller's buffer. */
  float buffer[64];
  int64_t buffer_shape[SCATTERND_OUTPUT_0_RANK] = {4, 4, 4};
  nd_tensor provided = {buffer, buffer_shape, NULL, SCATTERND_OUTPUT_0_DTYPE,
                        SCATTERND_OUTPUT_0_RANK, NULL};
  status = scatternd(&context, inputs, 3, &provided, 1);
  printf("caller-provided: status %d, same values %d, owner %p, copied %d\n",
         status, memcmp(buffer, allocated[0].data, sizeof buffer) == 0,
         provided.owner, context.copied_outputs);
  nd_tensor_free(&allocated[0]);
  printf("freed: data %p owner %p\n", allocated[0].data, allocated[0].owner);

  /* A buffer of the wrong shape is refused before anything is written. */
  int64_t small_shape[3] = {4, 4, 3};
  for (int i = 0; i < 64; ++i)
    buffer[i] = -1;
  nd_tensor small = {buffer, small_shape, NULL, ND_DTYPE_F32, 3, NULL};
  status = scatternd(&context, inputs, 3, &small, 1);
  printf("wrong shape: status %d (%s): %s; buffer untouched %d\n", status,
         nd_status_string(status), message, buffer[0] == -1 && buffer[63] == -1);

  /* An index out of range: the full message, no output handed over. */
  int64_t bad_indices[2] = {0, 4};
  nd_tensor bad_inputs[3];
  make_inputs(bad_inputs, bad_indices);
  nd_tensor failed[1] = {{0}};
  status = scatternd(&context, bad_inputs, 3, failed, 1);
  printf("bad index: status %d (%s), length %zu: %s\n", status,
         nd_status_string(status), context.message_length, message);
  printf("bad index: output data %p owner %p, context status %d\n",
         failed[0].data, failed[0].owner, context.status);
  /* The caller's buffer, which the call computes into, may hold what the
     scatter wrote before it failed (its copy of `data`, Runtime.h); the
     call hands nothing over. */
  status = scatternd(&context, bad_inputs, 3, &provided, 1);
  printf("bad index into the caller's buffer: status %d, owner %p\n", status,
         provided.owner);
  /* A message buffer too small for it is truncated, NUL-terminated. */
  char tiny[12];
  nd_context tiny_context = {0};
  tiny_context.message = tiny;
  tiny_context.message_size = sizeof tiny;
  status = scatternd(&tiny_context, bad_inputs, 3, failed, 1);
  printf("truncated: '%s', full length %zu\n", tiny,
         tiny_context.message_length);
  /* Without a context: the status alone. */
  printf("no context: status %d\n",
         scatternd(NULL, bad_inputs, 3, failed, 1));

  /* The next call works. */
  status = scatternd(&context, inputs, 3, &provided, 1);
  printf("after the errors: status %d, message '%s'\n", status, message);
  print_result("result", buffer);

  /* A strided input: updates read from every other element of a larger
     array. */
  float spread[64];
  for (int i = 0; i < 64; ++i)
    spread[i] = (i % 2) ? -100.0f : updates[i / 2];
  int64_t spread_strides[3] = {32, 8, 2};
  inputs[2].data = spread;
  inputs[2].strides = spread_strides;
  for (int i = 0; i < 64; ++i)
    buffer[i] = 0;
  status = scatternd(&context, inputs, 3, &provided, 1);
  printf("strided updates: status %d\n", status);
  print_result("result", buffer);
  inputs[2].data = updates;
  inputs[2].strides = NULL;

  /* Wrong inputs. */
  status = scatternd(&context, inputs, 2, &provided, 1);
  printf("two inputs: status %d: %s\n", status, message);
  inputs[1].dtype = ND_DTYPE_I32;
  status = scatternd(&context, inputs, 3, &provided, 1);
  printf("i32 indices: status %d: %s\n", status, message);
  inputs[1].dtype = ND_DTYPE_I64;
  data_shape[0] = 5;
  status = scatternd(&context, inputs, 3, &provided, 1);
  printf("5x4x4 data: status %d: %s\n", status, message);
  data_shape[0] = 4;

  /* The library's default thread count. */
  nd_set_threads(&scatternd_signature, 1);
  status = scatternd(&context, inputs, 3, &provided, 1);
  printf("one thread by default: status %d, threads %d\n", status,
         scatternd_signature.threads);

  /* Threads calling at once, each with its own bad index. */
  struct worker workers[3] = {{4, 200, 0, ""}, {-5, 200, 0, ""},
                              {7, 200, 0, ""}};
  pthread_t threads[3];
  for (int t = 0; t < 3; ++t)
    pthread_create(&threads[t], NULL, run_worker, &workers[t]);
  for (int t = 0; t < 3; ++t)
    pthread_join(threads[t], NULL);
  for (int t = 0; t < 3; ++t)
    printf("thread %d: %d of %d calls reported index %lld: %s\n", t,
           workers[t].own_message, workers[t].calls,
           (long long)workers[t].bad_index, workers[t].first_message);
  return 0;
}
