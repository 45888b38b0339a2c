/* Calls the functions nd-c/CudaRuntime.h promises through nd-c/Runtime.h,
 * linked against libnd_cuda_runtime.so alone (runtime-exports.test). */
#include "nd-c/CudaRuntime.h"

#include <stdio.h>

int main(void) {
  nd_signature signature = {0};
  nd_set_threads(&signature, 4);
  printf("status 2: %s\n", nd_status_string(ND_ERROR_CHECK_FAILED));
  printf("status 5: %s\n", nd_status_string(ND_ERROR_DRIVER));
  printf("dtype f32: %s, %zu bytes\n", nd_dtype_name(ND_DTYPE_F32),
         nd_dtype_size(ND_DTYPE_F32));
  printf("dtype bf16: %s, %zu bytes\n", nd_dtype_name(ND_DTYPE_BF16),
         nd_dtype_size(ND_DTYPE_BF16));
  printf("version %s, ABI %d\n", nd_runtime_version(),
         nd_runtime_abi_version());
  printf("threads %d\n", signature.threads);
  nd_tensor empty = {0};
  nd_tensor_free(&empty);
  printf("freed an output nd did not allocate: %p\n", empty.data);
  return 0;
}
