//===- CInterface.cpp - nd-c/Runtime.h's functions of no call ---*- C++ -*-===//
//
// The functions of nd-c/Runtime.h that describe statuses, element types and
// the runtime or release an output, compiled into both libnd_runtime.so and
// libnd_cuda_runtime.so: a program that links either alone finds them
// (nd-c/CudaRuntime.h includes nd-c/Runtime.h).
//
//===----------------------------------------------------------------------===//

#include "Call.h"
#include "nd/Version.h"

using namespace nd::runtime;

extern "C" {

void nd_tensor_free(nd_tensor *tensor) {
  if (tensor)
    releaseTensor(*tensor);
}

void nd_set_threads(nd_signature *signature, int32_t threads) {
  if (signature)
    __atomic_store_n(&signature->threads, threads < 0 ? 0 : threads,
                     __ATOMIC_RELAXED);
}

const char *nd_status_string(int32_t status) {
  switch (status) {
  case ND_OK:
    return "ok";
  case ND_ERROR_INVALID_ARGUMENT:
    return "invalid argument";
  case ND_ERROR_CHECK_FAILED:
    return "check failed";
  case ND_ERROR_OUT_OF_MEMORY:
    return "out of memory";
  case ND_ERROR_ABI_MISMATCH:
    return "ABI mismatch";
  case ND_ERROR_DRIVER:
    return "driver error";
  default:
    return "unknown status";
  }
}

const char *nd_dtype_name(int32_t dtype) { return getDTypeName(dtype); }

size_t nd_dtype_size(int32_t dtype) { return getElementSize(dtype); }

const char *nd_runtime_version(void) { return ND_VERSION_STRING; }

int32_t nd_runtime_abi_version(void) { return ND_ABI_VERSION; }

} // extern "C"
