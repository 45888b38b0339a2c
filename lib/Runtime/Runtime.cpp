//===- Runtime.cpp - libnd_runtime.so ---------------------------*- C++ -*-===//
//
// The run-time library of code that nd-compile builds: the C interface of
// nd-c/Runtime.h (its functions that need no call in CInterface.cpp, which
// libnd_cuda_runtime.so exports too), the entry points the generated code calls (nd-c/
// RuntimeABI.h: `nd_runtime_invoke` from each exported entry, the error
// reporter, the allocator, the conversions to bfloat16) and nothing else. It
// depends on LLVM's OpenMP runtime for the thread count of a call, and on no
// LLVM or MLIR library.
//
//===----------------------------------------------------------------------===//

#include "BFloat16.h"
#include "Call.h"
#include "Memory.h"

#include <cstddef>

using namespace nd::runtime;

// The layouts that --nd-export-entry writes into each library's signature.
static_assert(sizeof(void *) == 8, "nd's generated code is 64-bit");
static_assert(offsetof(nd_tensor_type, dims) == 8 &&
                  offsetof(nd_tensor_type, name) == 16 &&
                  offsetof(nd_tensor_type, donated) == 24 &&
                  offsetof(nd_tensor_type, alias) == 28 &&
                  offsetof(nd_tensor_type, dim_names) == 32 &&
                  sizeof(nd_tensor_type) == 40,
              "nd_tensor_type as --nd-export-entry lays it out");
static_assert(offsetof(nd_signature, threads) == 12 &&
                  offsetof(nd_signature, entry) == 16 &&
                  offsetof(nd_signature, inputs) == 24 &&
                  offsetof(nd_signature, outputs) == 32 &&
                  offsetof(nd_signature, destinations) == 40 &&
                  sizeof(nd_signature) == 48,
              "nd_signature as --nd-export-entry lays it out");

extern "C" {

int32_t ND_ABI_INVOKE(const nd_signature *signature, nd_packed_fn packed,
                      nd_context *context, const nd_tensor *inputs,
                      size_t numInputs, nd_tensor *outputs, size_t numOutputs) {
  ThreadControl control;
  control.getMaxThreads = &ND_ABI_OMP_MAX_THREADS;
  control.setNumThreads = &ND_ABI_OMP_SET_THREADS;
  return invoke(*signature, packed, context, inputs, numInputs, outputs,
                numOutputs, control);
}

ND_RUNTIME_EXPORT void ND_ABI_REPORT_ERROR(nd_call_state *state,
                                           const char *format, int64_t a,
                                           int64_t b) {
  reportError(state, format, a, b);
}

ND_RUNTIME_EXPORT void ND_ABI_REPORT_OUT_OF_MEMORY(nd_call_state *state,
                                                   const char *format,
                                                   int64_t bytes,
                                                   int64_t unused) {
  reportOutOfMemory(state, format, bytes, unused);
}

ND_RUNTIME_EXPORT void *ND_ABI_ALLOC(size_t size) { return allocate(size); }

ND_RUNTIME_EXPORT void *ND_ABI_ALIGNED_ALLOC(size_t alignment, size_t size) {
  return allocateAligned(alignment, size);
}

ND_RUNTIME_EXPORT void ND_ABI_FREE(void *buffer) { release(buffer); }

ND_RUNTIME_EXPORT float ND_ABI_TRUNC_F32_TO_BF16(float value) {
  return asReturnedBFloat16(toBFloat16(value));
}

ND_RUNTIME_EXPORT float ND_ABI_TRUNC_F64_TO_BF16(double value) {
  return asReturnedBFloat16(toBFloat16(value));
}

} // extern "C"
