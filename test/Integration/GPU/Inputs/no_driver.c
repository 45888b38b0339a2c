/* libnd_cuda_runtime.so on a machine without a CUDA driver: every entry
 * point returns an error status or does nothing, with a message naming the
 * missing driver; nothing crashes. */
#include "nd-c/CudaRuntime.h"

#include <stdbool.h>
#include <stdio.h>

void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleGetFunction(void *module, const char *name);
void *mgpuStreamCreate(void);
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool host_shared);
void mgpuLaunchKernel(void *function, intptr_t gx, intptr_t gy, intptr_t gz,
                      intptr_t bx, intptr_t by, intptr_t bz, int32_t shared,
                      void *stream, void **params, void **extra, size_t count);
void mgpuMemFree(void *buffer, void *stream);
void mgpuStreamSynchronize(void *stream);

int main(void) {
  char message[512];
  int32_t status = nd_cuda_available(message, sizeof message);
  printf("available: %d %s\n", status, message);

  status = nd_cuda_begin(NULL);
  printf("begin: %d\n", status);
  status = nd_cuda_end(message, sizeof message);
  printf("end: %d %s\n", status, message);

  void *buffer = nd_cuda_alloc(16);
  printf("alloc: %s %s\n", buffer ? "buffer" : "null", nd_cuda_last_message());
  nd_cuda_free(buffer, NULL);
  char host[4] = {0};
  printf("copy: %d\n", nd_cuda_copy(host, host, sizeof host));
  printf("copy queued: %d\n", nd_cuda_copy_async(host, host, sizeof host, NULL));
  status = nd_cuda_synchronize(NULL, message, sizeof message);
  printf("synchronize: %d %s\n", status, message);

  /* What a library built by nd-to-gpu does: its modules load when it does
   * (the load fails quietly), and a call records why it cannot run. */
  static const char image[] = "not a module";
  void *module = mgpuModuleLoad((void *)image, sizeof image);
  printf("module: %s\n", module ? "loaded" : "null");
  void *stream = mgpuStreamCreate();
  void *memory = mgpuMemAlloc(64, stream, false);
  void *function = mgpuModuleGetFunction(module, "kernel");
  mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, NULL, NULL, 0);
  mgpuMemFree(memory, stream);
  mgpuStreamSynchronize(stream);
  status = nd_cuda_end(message, sizeof message);
  printf("call: %d %s\n", status, message);

  /* A call after a failed one starts afresh, and fails the same way. */
  status = nd_cuda_begin(NULL);
  status = nd_cuda_end(message, sizeof message);
  printf("again: %d %s\n", status, message);
  return 0;
}
