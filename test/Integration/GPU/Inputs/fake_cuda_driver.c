/* A stand-in for the CUDA driver (libcuda.so.1) on machines without a GPU,
   for test/Integration/GPU/host-form.test: one device whose memory is host
   memory (cuMemAlloc is malloc, the copies and sets are memcpy and loops,
   streams run everything at once). Kernels cannot run: loading a module or
   launching fails. It counts the buffers alive, which the test reads
   (fake_live_buffers) to see that every call releases what it allocated. */

#include <cuda.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static long live;

long fake_live_buffers(void) { return live; }

CUresult cuInit(unsigned flags) { (void)flags; return CUDA_SUCCESS; }

CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = error == CUDA_ERROR_NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED"
                                            : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  (void)error;
  *text = "the fake driver runs no kernel";
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) { *count = 1; return CUDA_SUCCESS; }

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attribute,
                              CUdevice device) {
  (void)attribute, (void)device;
  *value = 0; /* no memory pools */
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice device) {
  (void)device;
  *context = (CUcontext)(uintptr_t)1;
  return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext context) { (void)context; return CUDA_SUCCESS; }

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  (void)module, (void)image;
  return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned count, CUjit_option *options,
                            void **values) {
  (void)module, (void)image, (void)count, (void)options, (void)values;
  return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuModuleUnload(CUmodule module) { (void)module; return CUDA_SUCCESS; }

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  (void)function, (void)module, (void)name;
  return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        CUstream stream, void **params, void **extra) {
  (void)f, (void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz;
  (void)shared, (void)stream, (void)params, (void)extra;
  return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  (void)flags;
  *stream = (CUstream)(uintptr_t)2;
  return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream stream) { (void)stream; return CUDA_SUCCESS; }

CUresult cuStreamSynchronize(CUstream stream) {
  (void)stream;
  return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags) {
  (void)stream, (void)event, (void)flags;
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *event, unsigned flags) {
  (void)flags;
  *event = (CUevent)(uintptr_t)3;
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event) { (void)event; return CUDA_SUCCESS; }

CUresult cuEventRecord(CUevent event, CUstream stream) {
  (void)event, (void)stream;
  return CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent event) { (void)event; return CUDA_SUCCESS; }

CUresult cuMemAlloc(CUdeviceptr *pointer, size_t bytes) {
  void *buffer = malloc(bytes ? bytes : 1);
  if (!buffer)
    return CUDA_ERROR_OUT_OF_MEMORY;
  /* Poisoned: a result read before it is written shows. */
  memset(buffer, 0x7f, bytes);
  ++live;
  *pointer = (CUdeviceptr)(uintptr_t)buffer;
  return CUDA_SUCCESS;
}

CUresult cuMemAllocManaged(CUdeviceptr *pointer, size_t bytes,
                           unsigned flags) {
  (void)flags;
  return cuMemAlloc(pointer, bytes);
}

CUresult cuMemFree(CUdeviceptr pointer) {
  free((void *)(uintptr_t)pointer);
  --live;
  return CUDA_SUCCESS;
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, bytes);
  return CUDA_SUCCESS;
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream stream) {
  (void)stream;
  return cuMemcpy(dst, src, bytes);
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          CUstream stream) {
  (void)stream;
  unsigned short *p = (unsigned short *)(uintptr_t)dst;
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
  return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                          CUstream stream) {
  (void)stream;
  unsigned *p = (unsigned *)(uintptr_t)dst;
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
  return CUDA_SUCCESS;
}
