/* Calls the entry nd-compile --target=cuda built from copies.mlir (input 0
   donated) on the fake driver of fake_cuda_driver.c (host-form.test): the
   host form's staging and copies back under Runtime.h's ownership rules,
   the device form on buffers of nd_cuda_alloc, and no buffer left behind. */

#include "copies.h"

#include <dlfcn.h>
#include <stdio.h>

static long (*live_buffers)(void);

static void print(const char *what, const float *values, int64_t count) {
  printf("%s:", what);
  for (int64_t i = 0; i < count; ++i)
    printf(" %g", values[i]);
  printf("\n");
}

int main(void) {
  void *driver = dlopen("libcuda.so.1", RTLD_NOW);
  live_buffers = (long (*)(void))dlsym(driver, "fake_live_buffers");
  char message[512];
  nd_context context = {0};
  context.message = message;
  context.message_size = sizeof message;

  float cache[12];
  for (int i = 0; i < 12; ++i)
    cache[i] = (float)i;
  int64_t cache_shape[2] = {4, 3};
  float x[6] = {1, 2, 3, 4, 5, 6};
  int64_t x_shape[2] = {2, 3};
  nd_tensor inputs[2] = {{cache, cache_shape, NULL, ND_DTYPE_F32, 2, NULL},
                         {x, x_shape, NULL, ND_DTYPE_F32, 2, NULL}};

  /* Outputs nd allocates: the cache's own buffer, and two fresh ones. */
  nd_tensor outputs[3] = {{0}, {0}, {0}};
  int32_t status = copies_host(&context, inputs, 2, outputs, 3);
  printf("host: status %d; output 0 is the cache %d; outputs 1 and 2 "
         "shape [%lld, %lld], apart %d, owned %d %d\n",
         status, outputs[0].data == (void *)cache,
         (long long)outputs[1].shape[0], (long long)outputs[1].shape[1],
         outputs[1].data != outputs[2].data, outputs[1].owner != NULL,
         outputs[2].owner != NULL);
  print("cache", cache, 12);
  print("output 1", outputs[1].data, 6);
  print("output 2", outputs[2].data, 6);
  for (int k = 0; k < 3; ++k)
    nd_cuda_tensor_free(&outputs[k]);
  printf("freed: %p %p; device buffers alive %ld\n", outputs[1].data,
         outputs[1].owner, live_buffers());

  /* A strided input: the columns of a 3x2 array, read as a 2x3 one. */
  float columns[6] = {1, 4, 2, 5, 3, 6};
  int64_t column_strides[2] = {1, 2};
  inputs[1].data = columns;
  inputs[1].strides = column_strides;
  status = copies_host(&context, inputs, 2, outputs, 3);
  printf("strided: status %d\n", status);
  print("output 1", outputs[1].data, 6);
  for (int k = 0; k < 3; ++k)
    nd_cuda_tensor_free(&outputs[k]);
  inputs[1].data = x;
  inputs[1].strides = NULL;

  /* Caller's buffers: one of another shape fails the call, one with
     column-major strides gets the values in its order. */
  float buffer[9] = {0};
  int64_t buffer_shape[2] = {3, 3};
  nd_tensor provided[3] = {{0},
                           {buffer, buffer_shape, NULL, ND_DTYPE_F32, 2, NULL},
                           {0}};
  status = copies_host(&context, inputs, 2, provided, 3);
  printf("3x3 buffer: status %d: %s; untouched %d; output 2 %p\n", status,
         message, buffer[0] == 0, provided[2].data);
  int64_t right_shape[2] = {2, 3};
  int64_t column_major[2] = {1, 2};
  provided[1].shape = right_shape;
  provided[1].strides = column_major;
  status = copies_host(&context, inputs, 2, provided, 3);
  printf("column-major buffer: status %d, owner %p\n", status,
         provided[1].owner);
  print("buffer", buffer, 6);
  nd_cuda_tensor_free(&provided[0]);
  nd_cuda_tensor_free(&provided[2]);

  /* An input of the wrong element type. */
  int32_t ints[6] = {0};
  nd_tensor wrong[2] = {{cache, cache_shape, NULL, ND_DTYPE_F32, 2, NULL},
                        {ints, x_shape, NULL, ND_DTYPE_I32, 2, NULL}};
  status = copies_host(&context, wrong, 2, outputs, 3);
  printf("i32 input: status %d: %s\n", status, message);

  /* The device form on device buffers (nd_cuda_alloc): the results stay in
     device memory until copied back. */
  void *device_cache = nd_cuda_alloc(sizeof cache);
  void *device_x = nd_cuda_alloc(sizeof x);
  nd_cuda_copy(device_cache, cache, sizeof cache);
  nd_cuda_copy(device_x, x, sizeof x);
  nd_tensor device_inputs[2] = {
      {device_cache, cache_shape, NULL, ND_DTYPE_F32, 2, NULL},
      {device_x, x_shape, NULL, ND_DTYPE_F32, 2, NULL}};
  status = copies(&context, NULL, device_inputs, 2, outputs, 3);
  float back[6] = {0};
  nd_cuda_copy(back, outputs[2].data, sizeof back);
  printf("device: status %d; output 0 is the device cache %d; device "
         "buffers alive %ld\n",
         status, outputs[0].data == device_cache, live_buffers());
  print("output 2", back, 6);
  for (int k = 0; k < 3; ++k)
    nd_cuda_tensor_free(&outputs[k]);
  nd_cuda_free(device_cache, NULL);
  nd_cuda_free(device_x, NULL);
  printf("device buffers alive %ld\n", live_buffers());
  return 0;
}
